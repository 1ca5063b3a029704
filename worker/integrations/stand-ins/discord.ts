import { Hono } from "hono";
import { z } from "zod";
import type { StandInEnv } from "./env.ts";

// A local Discord webhook endpoint: POST /__standins/discord/api/webhooks/{id}/{token} with
// `{ content }` answers 204 as Discord does, and keeps the messages a webhook received in KV
// (standin-discord:{id}), readable with GET on the same address. A test (or a developer) scripts the
// next answers by PUTting a JSON list such as `[{"status":500},{"status":429,"retry_after":2.5}]`:
// each request takes the first one, a 429 carrying Discord's body with `retry_after` in seconds.
export const discordStandIn = new Hono<{ Bindings: StandInEnv }>();

const received = (id: string) => `standin-discord:${id}`;
const script = (id: string) => `standin-discord-script:${id}`;
const TTL_SECONDS = 7 * 24 * 60 * 60;

const messageSchema = z.object({ content: z.string().min(1).max(2000) });
const scriptSchema = z.array(z.object({ status: z.number().int(), retry_after: z.number().optional() }));

async function readJson<T>(env: StandInEnv, key: string, fallback: T): Promise<T> {
  const value = await env.kv.get(key);
  return value ? (JSON.parse(value) as T) : fallback;
}

discordStandIn.put("/api/webhooks/:id/:token/script", async (c) => {
  const parsed = scriptSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json({ message: "Invalid script", code: 50035 }, 400);
  await c.env.kv.put(script(c.req.param("id")), JSON.stringify(parsed.data), { expirationTtlSeconds: TTL_SECONDS });
  return c.body(null, 204);
});

discordStandIn.get("/api/webhooks/:id/:token", async (c) =>
  c.json(await readJson<string[]>(c.env, received(c.req.param("id")), [])),
);

discordStandIn.post("/api/webhooks/:id/:token", async (c) => {
  const id = c.req.param("id");
  const queue = await readJson<z.infer<typeof scriptSchema>>(c.env, script(id), []);
  const next = queue.shift();
  if (next) {
    await c.env.kv.put(script(id), JSON.stringify(queue), { expirationTtlSeconds: TTL_SECONDS });
    if (next.status === 429) {
      const retryAfter = next.retry_after ?? 1;
      return c.json({ message: "You are being rate limited.", retry_after: retryAfter, global: false }, 429);
    }
    if (next.status >= 400) return c.json({ message: "Stand-in failure", code: 0 }, next.status as 500);
  }
  const parsed = messageSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json({ message: "Cannot send an empty message", code: 50006 }, 400);
  const messages = await readJson<string[]>(c.env, received(id), []);
  messages.push(parsed.data.content);
  await c.env.kv.put(received(id), JSON.stringify(messages), { expirationTtlSeconds: TTL_SECONDS });
  return c.body(null, 204);
});
