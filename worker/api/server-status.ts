import { Hono } from "hono";
import { SERVER_TYPES } from "#db/schema.ts";
import type { AppEnv } from "../hono-env.ts";
import { listPublicServers } from "../services/server-status.ts";

export const serverStatusApi = new Hono<AppEnv>();

// KV only, never D1: this is the most-requested endpoint. Edges may keep it briefly.
serverStatusApi.get("/server-status", async (c) => {
  const servers = await listPublicServers(c.var.deps);
  c.header("Cache-Control", "public, max-age=15, s-maxage=30, stale-while-revalidate=60");
  return c.json({ servers });
});

serverStatusApi.get("/server-types", (c) => {
  c.header("Cache-Control", "public, max-age=300");
  return c.json({ types: [...SERVER_TYPES] });
});
