import type { Config } from "../../config.ts";

// On HTTPS the cookies carry the __Host- prefix: browsers accept such a cookie only from this exact
// host, Secure, with Path=/ and no Domain, so a sibling subdomain can't plant a session or a
// sign-in state. Browsers refuse the prefix without TLS, so plain-http localhost keeps bare names.
// Every reader and writer takes the name from here.

export function hostOnlyCookies(config: Pick<Config, "publicUrl">): boolean {
  return config.publicUrl.startsWith("https://");
}

/** The session cookie's two names: a request carrying either names a player. */
export const SESSION_COOKIE_NAMES = ["__Host-session", "__session"] as const;

export function sessionCookieName(config: Pick<Config, "publicUrl">): string {
  return hostOnlyCookies(config) ? SESSION_COOKIE_NAMES[0] : SESSION_COOKIE_NAMES[1];
}

export function signInStateCookieName(config: Pick<Config, "publicUrl">): string {
  return hostOnlyCookies(config) ? "__Host-steam_signin" : "__steam_signin";
}
