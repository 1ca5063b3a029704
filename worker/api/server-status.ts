import { Hono } from "hono";
import { SERVER_STATUS_FAILED } from "#core/messages/server-status.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { AppEnv } from "../hono-env.ts";
import { readServerStatus } from "../services/server-status.ts";

export const serverStatusApi = new Hono<AppEnv>();

// The document changes at most about once a minute; browsers keep it 15 s, shared caches
// 30 s, and may serve it a minute stale while refetching. At Cloudflare a Worker's own answers
// are cached only with Workers Cache turned on (docs/PERFORMANCE.md); the KV read behind it
// is cached at the edge either way (cacheTtl).
const DOCUMENT_CACHE = "public, max-age=15, s-maxage=30, stale-while-revalidate=60";
// No document yet (the cron has not run): look again soon.
const EMPTY_CACHE = "public, max-age=5, s-maxage=5";

// KV only, never D1: this is the most-requested endpoint.
serverStatusApi.get("/server-status", async (c) => {
  const status = await readServerStatus(c.get("deps"));
  if (status.state === "unavailable") {
    c.header("Cache-Control", "no-store");
    return c.json({ servers: [], error: SERVER_STATUS_FAILED }, 503);
  }
  if (status.state === "empty") {
    c.header("Cache-Control", EMPTY_CACHE);
    return c.json({ servers: [] });
  }
  const etag = `W/"${status.updatedAt}"`;
  c.header("Cache-Control", DOCUMENT_CACHE);
  c.header("ETag", etag);
  if (status.updatedAt !== null) c.header("Last-Modified", new Date(status.updatedAt).toUTCString());
  if (c.req.header("If-None-Match") === etag) return c.body(null, 304);
  return c.json({ servers: status.servers });
});

serverStatusApi.get("/server-types", (c) => {
  c.header("Cache-Control", "public, max-age=300, s-maxage=3600");
  return c.json({ types: [...SERVER_TYPES] });
});
