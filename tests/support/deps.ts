import { env, SELF } from "cloudflare:test";
import { cloudflarePlatform } from "#worker/adapters/cloudflare.ts";
import type { Deps, DepsOverrides } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";
import { wireDeps } from "#worker/wiring.ts";

/** The services' dependencies over a Worker environment: its D1 and KV, its settings. */
export function depsFor(workerEnv: Env, overrides: DepsOverrides = {}): Deps {
  return wireDeps(cloudflarePlatform(workerEnv), { overrides, notify: (request) => SELF.fetch(request) });
}

/** The services' dependencies over the test's real local D1 and KV. */
export function testDeps(overrides: DepsOverrides = {}): Deps {
  return depsFor(env, overrides);
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
