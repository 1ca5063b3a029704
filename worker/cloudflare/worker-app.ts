import type { Context } from "hono";
import { cloudflarePlatform } from "../adapters/cloudflare.ts";
import { type AppOptions, createApp } from "../app.ts";
import type { DepsOverrides } from "../deps.ts";
import type { Env } from "../env.ts";
import type { AppEnv } from "../hono-env.ts";
import { workerPageCache } from "./page-cache.ts";

export interface WorkerAppOptions {
  pageHandler: AppOptions["pageHandler"];
  overrides?: (env: Env) => DepsOverrides;
}

/** The site's app over the Worker's bindings: D1 and KV as the ports, `waitUntil` from the request. */
export function createWorkerApp({ pageHandler, overrides }: WorkerAppOptions) {
  const env = (c: Context<AppEnv>) => c.env as Env;
  return createApp({
    pageHandler,
    platform: (c) => cloudflarePlatform(env(c)),
    overrides: (c) => ({
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      ...overrides?.(env(c)),
    }),
    pageCache: workerPageCache(),
  });
}
