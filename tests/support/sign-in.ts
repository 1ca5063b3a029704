// Signing in, for worker tests: a session token as cookie or bearer headers, and
// a browser's whole Steam sign-in through the Worker (start, the Steam stand-in's
// page and its approve form, the callback), cookies carried by hand the way a
// browser would (per path, as Set-Cookie said).
import { SELF } from "cloudflare:test";
import { approveAtStandIn as approve, type Fetcher, walkStandIn } from "./steam-stand-in.ts";

export type { Fetcher };

export const selfFetch: Fetcher = (url, init) => SELF.fetch(url, { redirect: "manual", ...init });

/** Submits the Steam stand-in's approve form (or its cancel) for `providerPage`, to the Worker unless told otherwise. */
export function approveAtStandIn(
  providerPage: URL,
  steamId: string | "cancel",
  fetcher: Fetcher = selfFetch,
): Promise<Response> {
  return approve(providerPage, steamId, fetcher);
}

/** Headers that present `token` as the browser's session cookie. */
export function sessionCookie(token: string): { cookie: string } {
  return { cookie: `__session=${token}` };
}

/** Headers that present `token` as a bearer token, as API clients other than the browser send it. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** `name=value` pairs of a response's Set-Cookie headers (a cleared cookie has an empty value). */
export function setCookies(response: Response): Map<string, { value: string; attributes: string }> {
  const cookies = new Map<string, { value: string; attributes: string }>();
  for (const header of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = header.split(";");
    const [name = "", ...value] = pair.trim().split("=");
    cookies.set(name, { value: decodeURIComponent(value.join("=")), attributes: attributes.join(";").trim() });
  }
  return cookies;
}

export interface SignInResult {
  /** The callback's answer (302). */
  callback: Response;
  /** Where the callback sent the browser. */
  location: string;
  /** The session cookie's value (also the bearer token), or null. */
  cookie: string | null;
  /** The one-time code handed to /auth-success, or null. */
  code: string | null;
  /** The bearer token the code was exchanged for (POST /api/auth/exchange with the cookie), or null. */
  token: string | null;
}

/** `POST /api/auth/exchange` as /auth-success sends it: the code in JSON, the session cookie if any. */
export function exchangeCode(
  code: string,
  cookie: string | null,
  fetcher: Fetcher = selfFetch,
  cookieName = "__session",
): Promise<Response> {
  return fetcher("http://localhost:5173/api/auth/exchange", {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie: `${cookieName}=${cookie}` } : {}) },
    body: JSON.stringify({ code }),
  });
}

/**
 * Signs in through the local stand-in as `steamId` (or cancels), starting at
 * `startPath` (e.g. `/api/auth/steam?return_to=/terms`), then trades the code for the token as
 * /auth-success does.
 */
export async function signInThroughStandIn(
  steamId: string | "cancel",
  startPath = "/api/auth/steam",
  fetcher: Fetcher = selfFetch,
  /** Rewrites the address the provider sends the browser back to, as an attacker would. */
  tamper: (callback: string) => string = (callback) => callback,
  /** `exchange: false` leaves the code unused, as a browser without JavaScript does. */
  options: { exchange?: boolean } = {},
): Promise<SignInResult> {
  const callback = await walkStandIn(`http://localhost:5173${startPath}`, steamId, fetcher, tamper);
  const location = callback.headers.get("location") ?? "";
  const cookie = setCookies(callback).get("__session")?.value || null;
  const code = new URL(location, "http://localhost").searchParams.get("code");
  let token: string | null = null;
  if (code && options.exchange !== false) {
    const exchanged = await exchangeCode(code, cookie, fetcher);
    if (exchanged.status !== 200) throw new Error(`the code exchange answered ${exchanged.status}`);
    token = ((await exchanged.json()) as { token: string }).token;
  }
  return { callback, location, cookie, code, token };
}
