// Cookie-carried writes that another site or origin started are refused. The session cookie is
// SameSite=Lax, but a sibling subdomain counts as the same site, and browsers without
// Sec-Fetch-Site still send Origin. No page of ours posts from elsewhere (Steam and YooKassa come
// back with GETs; the webhook and the game API carry no cookie), and a bearer token can't be
// forged by a form, so only requests whose session rides in the cookie are checked.
import type { Context, MiddlewareHandler } from "hono";
import { FORBIDDEN } from "#core/messages/common.ts";
import type { Config } from "../config.ts";
import type { AppEnv } from "../hono-env.ts";
import { isSafeMethod } from "../http-methods.ts";
import { readSessionCookie, readSessionToken } from "../services/auth/sessions.ts";

function sessionFromCookie(request: Request, config: Config): boolean {
  const fromCookie = readSessionCookie(request, config);
  return fromCookie !== null && readSessionToken(request, config) === fromCookie;
}

function startedElsewhere(c: Context<AppEnv>, config: Config): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") return true;
  const origin = c.req.header("origin");
  // "null" (sandboxed frames, some redirects) is another origin too.
  return origin !== undefined && origin !== new URL(config.publicUrl).origin;
}

export const crossSiteWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isSafeMethod(c.req.method)) return next();
  const config = c.get("deps").config;
  if (sessionFromCookie(c.req.raw, config) && startedElsewhere(c, config)) {
    return c.req.path.startsWith("/api/") ? c.json({ error: FORBIDDEN }, 403) : c.text(FORBIDDEN, 403);
  }
  await next();
};
