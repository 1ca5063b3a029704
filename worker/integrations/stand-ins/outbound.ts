import { type Config, STANDIN_PREFIX, standInsEnabled } from "../../config.ts";
import type { Env } from "../../env.ts";
import { createStandInsApp } from "./app.ts";

// Outside production, requests to our own stand-ins (Steam, payments) are
// answered in-process: a Worker fetching its own origin would loop through the
// network for nothing. The stand-ins speak the same HTTP as the real services.
export function routeStandIns(config: Config, baseFetch: typeof fetch, env: Env): typeof fetch {
  if (!standInsEnabled(config)) return baseFetch;
  const prefix = `${config.publicUrl}${STANDIN_PREFIX}`;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(prefix)) return baseFetch(request);
    const standIns = createStandInsApp();
    return standIns.fetch(request, env);
  };
}
