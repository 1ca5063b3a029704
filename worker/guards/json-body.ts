// Every /api write that has a body takes JSON. Requiring the type says so at the door: a form or
// text/plain post (what another site can send without CORS asking first) never reaches a handler,
// and a bodyless post such as sign-out still passes. YooKassa and the game plugin send
// application/json.

import type { MiddlewareHandler } from "hono";
import { NOT_JSON } from "#core/messages/common.ts";
import type { AppEnv } from "../hono-env.ts";
import { isSafeMethod } from "../http-methods.ts";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

function hasBody(request: Request): boolean {
  return request.body !== null && request.headers.get("content-length") !== "0";
}

export const jsonApiBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.path.startsWith("/api/") || isSafeMethod(c.req.method) || !hasBody(c.req.raw)) return next();
  if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) return c.json({ error: NOT_JSON }, 415);
  await next();
};
