// The cookies of sign-in: the session cookie pages use, and the short-lived
// state cookie that ties a Steam callback to the browser that started it.
import { stringifySetCookie } from "cookie";
import { type Config, isLoopbackUrl } from "../../config.ts";
import { hostOnlyCookies, sessionCookieName, signInStateCookieName } from "./cookie-names.ts";
import { SESSION_TTL_MS } from "./sessions.ts";

export const SIGNIN_STATE_TTL_S = 10 * 60;
export const CALLBACK_PATH = "/api/auth/steam/callback";

/** Secure everywhere but plain-http localhost (local development and the browser tests). */
export function cookiesSecure(config: Pick<Config, "publicUrl">): boolean {
  return !(config.publicUrl.startsWith("http:") && isLoopbackUrl(config.publicUrl));
}

function serialize(config: Pick<Config, "publicUrl">, name: string, value: string, path: string, maxAge: number) {
  return stringifySetCookie(name, value, {
    path,
    maxAge,
    httpOnly: true,
    sameSite: "lax",
    secure: cookiesSecure(config),
  });
}

/** `Set-Cookie` for a new session; it lives as long as the session row. */
export function sessionCookie(config: Pick<Config, "publicUrl">, token: string, ttlMs = SESSION_TTL_MS): string {
  return serialize(config, sessionCookieName(config), token, "/", Math.max(0, Math.round(ttlMs / 1000)));
}

/** `Set-Cookie` that removes the session cookie. */
export function clearSessionCookie(config: Pick<Config, "publicUrl">): string {
  return serialize(config, sessionCookieName(config), "", "/", 0);
}

/** A __Host- cookie must have Path=/; without the prefix the state goes to the callback only. */
function signInStatePath(config: Pick<Config, "publicUrl">): string {
  return hostOnlyCookies(config) ? "/" : CALLBACK_PATH;
}

export function signInStateCookie(config: Pick<Config, "publicUrl">, state: string): string {
  return serialize(config, signInStateCookieName(config), state, signInStatePath(config), SIGNIN_STATE_TTL_S);
}

export function clearSignInStateCookie(config: Pick<Config, "publicUrl">): string {
  return serialize(config, signInStateCookieName(config), "", signInStatePath(config), 0);
}
