// What the worker-side tests import from "cloudflare:test", for the Node + libSQL run
// (vitest.node.config.ts aliases it here). `env` has the settings; its DB and STATUS_KV refuse use,
// so a test that reaches past the ports fails here instead of passing on one runtime only.
import type { Settings } from "#worker/settings.ts";
import { applyMigrations } from "./database.ts";
import { testSettings } from "./settings.ts";
import { createWorkerApp } from "./worker-app.ts";

const refuse = (name: string) =>
  new Proxy(
    {},
    {
      get() {
        throw new Error(`env.${name} is the Worker's binding; on Node use testDeps().db / .kv (tests/support/sql.ts)`);
      },
    },
  );

export const env: Settings & { DB: unknown; STATUS_KV: unknown; TEST_MIGRATIONS: unknown } = {
  ...testSettings,
  DB: refuse("DB"),
  STATUS_KV: refuse("STATUS_KV"),
  TEST_MIGRATIONS: [],
};

const app = createWorkerApp({
  pageHandler: async () => new Response("Pages are rendered by the built site in tests/e2e.", { status: 501 }),
});

/** The site itself, as SELF is in workerd. */
export const SELF = {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => app.fetch(new Request(input, init), testSettings),
};

export async function applyD1Migrations(): Promise<void> {
  await applyMigrations();
}

interface TestExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: Record<string, never>;
  pending: Promise<unknown>[];
}

export function createExecutionContext(): TestExecutionContext {
  const pending: Promise<unknown>[] = [];
  return { waitUntil: (promise) => void pending.push(promise), passThroughOnException() {}, props: {}, pending };
}

export async function waitOnExecutionContext(context: TestExecutionContext): Promise<void> {
  await Promise.allSettled(context.pending);
}

export function createScheduledController(options: { cron?: string; scheduledTime?: number } = {}) {
  return { cron: options.cron ?? "", scheduledTime: options.scheduledTime ?? Date.now(), noRetry() {} };
}
