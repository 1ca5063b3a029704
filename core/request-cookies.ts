import { parseCookie } from "cookie";
import { oncePer } from "./once-per.ts";

type Cookies = Record<string, string | undefined>;

const parsed = new WeakMap<Request, Cookies>();

const parse = (request: Request): Cookies => {
  const header = request.headers.get("cookie");
  return header ? parseCookie(header) : {};
};

/**
 * The cookies a request carries, parsed once: the page cache, the session, the chosen server type and
 * the cache-control rule each read them on every page.
 */
export function requestCookies(request: Request): Cookies {
  return oncePer(parsed, request, parse);
}
