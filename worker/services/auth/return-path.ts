// Where a player goes after signing in: only a path on this site.

const FORBIDDEN_PREFIXES = ["/api/", "/auth-success", "/logout", "/__standins/"];

/**
 * `value` when it is a same-site relative path (`/terms`, `/profile?tab=1`),
 * else `/`. Refuses `//host`, `/\host`, absolute URLs, control characters and
 * the sign-in machinery itself (no loops through /api/auth or /logout).
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || value.length > 512) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, "http://site.invalid");
  } catch {
    return "/";
  }
  if (url.origin !== "http://site.invalid") return "/";
  // A loader request's address ("/shop/items/301.data?_routes=…") is no page: the page it was for (issue 36).
  const path = pagePathOf(url);
  // Resolving dot segments can leave two leading slashes ("/.//evil.example" → "//evil.example"): another host.
  if (path.startsWith("//")) return "/";
  if (
    [url.pathname, path.replace(/\?.*$/, "")].some((pathname) =>
      FORBIDDEN_PREFIXES.some((prefix) => pathname === prefix.replace(/\/$/, "") || pathname.startsWith(prefix)),
    )
  ) {
    return "/";
  }
  return path;
}

/**
 * The page an address is for, as its address bar shows it: a client navigation's loader request asks
 * for "<path>.data" (and "/_root.data" for the home page) with a `_routes` parameter, which are
 * React Router's own and never a page a player can open (issue 36). Pages hand sign-in React
 * Router's own address, which has neither (app/lib/page-request.server.ts); this keeps a link made
 * from one before that fix, or by hand, bringing the player to the page.
 */
function pagePathOf(url: URL): string {
  const path = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  if (!url.searchParams.has("_routes")) return `${path}${url.search}`;
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
