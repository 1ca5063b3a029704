import { env, SELF } from "cloudflare:test";
import { platformFor } from "#tests/support/platform.ts";
import type { Deps, DepsOverrides } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";
import type { KeyValueStore } from "#worker/ports/key-value.ts";
import { wireDeps } from "#worker/wiring.ts";

/** The services' dependencies over a test environment's settings, on the runtime under test. */
export function depsFor(workerEnv: Env, overrides: DepsOverrides = {}): Deps {
  return wireDeps(platformFor(workerEnv), { overrides, notify: (request) => SELF.fetch(request) });
}

/** The services' dependencies over the test's real database and key-value store. */
export function testDeps(overrides: DepsOverrides = {}): Deps {
  return depsFor(env, overrides);
}

/** The payment stand-in's own store (outside the site's database on Node, KV on Workers; decision 135). */
export function standInPaymentsKv(): KeyValueStore {
  const platform = platformFor(env);
  return platform.standInKv ?? platform.kv;
}

/** A fixed clock that tests can move. */
export function testClock(start = Date.parse("2026-11-22T12:00:00Z")) {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}
