import { parseCookie } from "cookie";

type Cookies = Record<string, string | undefined>;

const parsed = new WeakMap<Request, Cookies>();

/**
 * The cookies a request carries, parsed once: the page cache, the session, the chosen server type and
 * the cache-control rule each read them on every page.
 */
export function requestCookies(request: Request): Cookies {
  let cookies = parsed.get(request);
  if (!cookies) {
    const header = request.headers.get("cookie");
    cookies = header ? parseCookie(header) : {};
    parsed.set(request, cookies);
  }
  return cookies;
}
