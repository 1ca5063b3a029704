// Every /api write that has a body takes JSON. Requiring the type says so at the door: a form or
// text/plain post (what another site can send without CORS asking first) never reaches a handler,
// and a bodyless post such as sign-out still passes. YooKassa and the game plugin send
// application/json.

import type { MiddlewareHandler } from "hono";
import { NOT_JSON } from "#core/messages/common.ts";
import type { AppEnv } from "../hono-env.ts";
import { isSafeMethod } from "../http-methods.ts";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Whether the request carries at least one byte. A body stream can be there and empty: Node's
 * server gives every POST one (also `curl -X POST`, which sends no Content-Length), and an empty
 * chunked body is one on either runtime. So unless the length says 0, a copy of the stream is read
 * up to its first byte; the request keeps its own.
 */
async function hasBody(request: Request): Promise<boolean> {
  if (request.body === null || request.headers.get("content-length") === "0") return false;
  const reader = request.clone().body?.getReader();
  if (!reader) return false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    // Only the copy is dropped; the request's own stream stays whole for the handler.
    void reader.cancel().catch(() => {});
  }
}

export const jsonApiBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.path.startsWith("/api/") || isSafeMethod(c.req.method)) return next();
  if (JSON_TYPE.test(c.req.header("content-type") ?? "") || !(await hasBody(c.req.raw))) return next();
  return c.json({ error: NOT_JSON }, 415);
};
