/**
 * Where a signed-out visitor goes: Steam sign-in, coming back to `returnTo` (a path with its
 * query) afterwards. A plain link or a document redirect: /api is not a client route.
 */
export function signInHref(returnTo: string): string {
  return `/api/auth/steam?return_to=${encodeURIComponent(returnTo)}`;
}

/**
 * The page a request is for, as its address bar shows it: a client navigation's loader request asks
 * for "<path>.data" (and "/_root.data" for the home page) with a `_routes` parameter, which are
 * React Router's own and never a page a player can open (issue 36).
 */
export function pagePathOf(url: URL): string {
  const path = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  if (!url.searchParams.has("_routes")) return `${path}${url.search}`;
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
