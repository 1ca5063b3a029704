// The server type a player chose in the shop's selector, kept in a cookie so every link into the shop,
// the header and the pages rendered on the server (with or without JavaScript) use the same one.

import { z } from "zod";
import { requestCookies } from "../request-cookies.ts";
import { DEFAULT_SERVER_TYPE, SERVER_TYPES, type ServerType } from "./server-types.ts";

export const SERVER_TYPE_COOKIE = "server_type";
/** A year: the choice lasts until the player picks another type. */
export const SERVER_TYPE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const serverTypeSchema = z.enum(SERVER_TYPES);

/** `value` when it is a known server type, else null. */
export function knownServerType(value: unknown): ServerType | null {
  const parsed = serverTypeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The type a request's cookie keeps, or null when there is none or it is not a known type. */
export function keptServerType(request: Request): ServerType | null {
  return knownServerType(requestCookies(request)[SERVER_TYPE_COOKIE]);
}

/** The `Set-Cookie` value that keeps `type` (not HttpOnly: the page's script may read it; it is no secret). */
export function serverTypeSetCookie(type: ServerType, secure: boolean): string {
  return `${SERVER_TYPE_COOKIE}=${type}; Path=/; Max-Age=${SERVER_TYPE_COOKIE_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The type a request for the page at `url` (React Router's address, never a ".data" one) is about: a
 * known `server_type` in the shop's own address (the selector's links), else the cookie's. Null when
 * neither names one.
 */
export function chosenServerType(request: Request, url: URL): ServerType | null {
  if (isShopListPath(url.pathname)) {
    const fromAddress = knownServerType(url.searchParams.get("server_type"));
    if (fromAddress) return fromAddress;
  }
  return keptServerType(request);
}

/** The shop's list. */
export function isShopListPath(pathname: string): boolean {
  return pathname === "/shop" || pathname === "/shop/";
}

/**
 * The cookie to set after a request to the shop's list (`url` as React Router hands it): when its
 * address names a known type other than the one kept (the default type needs no cookie when none is
 * kept). Null when nothing changes.
 */
export function serverTypeCookieUpdate(request: Request, url: URL): string | null {
  if (!isShopListPath(url.pathname)) return null;
  const wanted = knownServerType(url.searchParams.get("server_type"));
  if (!wanted) return null;
  const kept = keptServerType(request);
  if (kept === wanted || (kept === null && wanted === DEFAULT_SERVER_TYPE)) return null;
  return serverTypeSetCookie(wanted, url.protocol === "https:");
}
