import { createApp } from "../worker/app.ts";
import { runScheduled } from "../worker/cron/index.ts";
import type { Env } from "../worker/env.ts";

const app = createApp({
  pageHandler: async () => new Response("Pages are rendered by the built site in tests/e2e.", { status: 501 }),
});

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
