// tests/support/platform.ts on Node: the test file's libSQL database under the given settings.

import { lruPageCache } from "#worker/adapters/memory-page-cache.ts";
import type { Platform } from "#worker/deps.ts";
import type { PageCache } from "#worker/ports/page-cache.ts";
import type { Settings } from "#worker/settings.ts";
import { ports, standInKv } from "./database.ts";

export function platformFor(settings: Settings): Platform {
  return { ...ports, standInKv, settings };
}

/** The Node server's page cache: an LRU in this process. */
export function pageCacheFor(): PageCache {
  return lruPageCache();
}
