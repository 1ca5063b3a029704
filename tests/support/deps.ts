import { env } from "cloudflare:test";
import { buildDeps, type Deps, type DepsOverrides } from "../../worker/deps.ts";

/** The services' dependencies over the test's real local D1 and KV. */
export function testDeps(overrides: DepsOverrides = {}): Deps {
  return buildDeps(env, overrides);
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
