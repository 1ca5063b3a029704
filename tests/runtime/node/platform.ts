// tests/support/platform.ts on Node: the test file's libSQL database under the given settings.
import { join } from "node:path";

import { lruPageCache } from "#worker/adapters/memory-page-cache.ts";
import { witnessFile } from "#worker/adapters/witness-file.ts";
import type { Platform } from "#worker/deps.ts";
import type { PageCache } from "#worker/ports/page-cache.ts";
import type { Settings } from "#worker/settings.ts";
import { databaseDir, ports, standInKv } from "./database.ts";

export function platformFor(settings: Settings): Platform {
  // The witness beside the test's database file, as the Node server keeps it (decision 133).
  return { ...ports, standInKv, settings, witness: witnessFile(join(databaseDir, "site.db.witness")) };
}

/** The Node server's page cache: an LRU in this process. */
export function pageCacheFor(): PageCache {
  return lruPageCache();
}
