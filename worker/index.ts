import { cloudflarePlatform } from "./adapters/cloudflare.ts";
import { createWorkerApp } from "./cloudflare/worker-app.ts";
import { runScheduled } from "./cron/index.ts";
import type { Env } from "./env.ts";
import { pageHandlerOf } from "./page-handler.ts";
import { wireDeps } from "./wiring.ts";

const app = createWorkerApp({
  pageHandler: pageHandlerOf(() => import("virtual:react-router/server-build"), import.meta.env.MODE),
});

// The doorbell's Durable Object class (decision 146): wrangler finds it among the entry's exports.
export { GameDoorbell } from "./cloudflare/doorbell-object.ts";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    const deps = wireDeps(cloudflarePlatform(env), {
      overrides: { waitUntil: (promise) => ctx.waitUntil(promise) },
      notify: (request) => app.fetch(request, env, ctx),
    });
    ctx.waitUntil(runScheduled(controller.cron, deps));
  },
} satisfies ExportedHandler<Env>;
