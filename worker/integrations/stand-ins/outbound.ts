import { STANDIN_PREFIX } from "../../config.ts";
import { standInsApp } from "./app.ts";
import type { StandInEnv } from "./env.ts";

// Outside production, requests to our own stand-ins (Steam, payments) are
// answered in-process: a site fetching its own origin would loop through the
// network for nothing. The stand-ins speak the same HTTP as the real services.
export function routeStandIns(baseFetch: typeof fetch, standInEnv: StandInEnv): typeof fetch {
  const prefix = `${standInEnv.publicUrl}${STANDIN_PREFIX}`;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(prefix)) return baseFetch(request);
    return standInsApp().fetch(request, standInEnv);
  };
}
