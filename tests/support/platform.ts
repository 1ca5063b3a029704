// The runtime the worker-side tests run on. This is the Worker's (D1 and KV); the Node project
// (vitest.node.config.ts) swaps in tests/runtime/node/platform.ts, libSQL in a temporary file.
import { cloudflarePlatform } from "#worker/adapters/cloudflare.ts";
import { workerPageCache } from "#worker/cloudflare/page-cache.ts";
import type { Platform } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";
import type { PageCache } from "#worker/ports/page-cache.ts";

export function platformFor(env: Env): Platform {
  return cloudflarePlatform(env);
}

/** The Worker's page cache: the isolate's LRU, then the Cache API. */
export function pageCacheFor(): PageCache {
  return workerPageCache();
}
