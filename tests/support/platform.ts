// The runtime the worker-side tests run on. This is the Worker's (D1 and KV); the Node project
// (vitest.node.config.ts) swaps in tests/runtime/node/platform.ts, libSQL in a temporary file.
import { cloudflarePlatform } from "#worker/adapters/cloudflare.ts";
import type { Platform } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";

export function platformFor(env: Env): Platform {
  return cloudflarePlatform(env);
}
