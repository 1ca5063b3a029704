// Calling the pages' loaders and actions directly, the way React Router does.

import { createRouterContext } from "#app/lib/deps-context.server.ts";
import type { Deps } from "#worker/deps.ts";

/**
 * What React Router hands a loader or action for `url` (or a ready Request); the
 * type parameter is the route's generated args type.
 */
export function routeArgs<Args>(
  deps: Deps,
  url: string | Request,
  init: RequestInit = {},
  route: { params?: Record<string, string>; pattern?: string } = {},
): Args {
  const request = new Request(url, init);
  const address = routerUrl(request.url);
  return {
    request,
    url: address,
    params: route.params ?? {},
    pattern: route.pattern ?? address.pathname,
    context: createRouterContext(deps),
  } as unknown as Args;
}

/**
 * The `url` React Router hands loaders, actions and middleware for a request to `raw`: a client
 * navigation's "<path>.data" (the home page's "/_.data") and its `_routes` parameter removed.
 */
export function routerUrl(raw: string): URL {
  const url = new URL(raw);
  url.pathname = url.pathname.endsWith("/_.data")
    ? url.pathname.slice(0, -"_.data".length)
    : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  return url;
}

/** The Response a loader or action throws (a redirect, a 404); anything else fails the test. */
export async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a thrown Response");
}
