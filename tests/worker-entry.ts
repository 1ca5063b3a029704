import { cloudflarePlatform } from "../worker/adapters/cloudflare.ts";
import { createWorkerApp } from "../worker/cloudflare/worker-app.ts";
import { runScheduled } from "../worker/cron/index.ts";
import type { Env } from "../worker/env.ts";
import { wireDeps } from "../worker/wiring.ts";

const app = createWorkerApp({
  pageHandler: async () => new Response("Pages are rendered by the built site in tests/e2e.", { status: 501 }),
});

// The doorbell's Durable Object class (decision 146): wrangler finds it among the entry's exports.
export { GameDoorbell } from "../worker/cloudflare/doorbell-object.ts";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    const deps = wireDeps(cloudflarePlatform(env), {
      notify: (request) => app.fetch(request, env, ctx),
    });
    ctx.waitUntil(runScheduled(controller.cron, deps));
  },
} satisfies ExportedHandler<Env>;
