// #worker/cloudflare/worker-app.ts on Node: the same app over the test file's libSQL database, with
// the settings a test passes where the Worker would get its bindings.
import type { Context } from "hono";
import { type AppOptions, createApp } from "#worker/app.ts";
import type { DepsOverrides } from "#worker/deps.ts";
import type { AppEnv } from "#worker/hono-env.ts";
import type { Settings } from "#worker/settings.ts";
import { platformFor } from "./platform.ts";
import { testSettings } from "./settings.ts";

export interface WorkerAppOptions {
  pageHandler: AppOptions["pageHandler"];
  overrides?: (env: Settings) => DepsOverrides;
}

const settingsOf = (c: Context<AppEnv>): Settings => ({ ...testSettings, ...(c.env as Partial<Settings> | undefined) });

function waitUntilOf(c: Context<AppEnv>): (promise: Promise<unknown>) => void {
  try {
    const context = c.executionCtx;
    return (promise) => context.waitUntil(promise);
  } catch {
    return (promise) => void promise.catch((error: unknown) => console.error(error));
  }
}

export function createWorkerApp({ pageHandler, overrides }: WorkerAppOptions) {
  return createApp({
    pageHandler,
    platform: (c) => platformFor(settingsOf(c)),
    overrides: (c) => ({ waitUntil: waitUntilOf(c), ...overrides?.(settingsOf(c)) }),
  });
}
