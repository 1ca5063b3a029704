import { createRequestHandler } from "react-router";
import { createApp } from "./app.ts";
import { runScheduled } from "./cron/index.ts";
import type { Env } from "./env.ts";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const app = createApp({ pageHandler: (request, context) => requestHandler(request, context) });

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
