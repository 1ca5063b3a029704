import { LRUCache } from "lru-cache";
import type { PageCache } from "../ports/page-cache.ts";

interface Kept {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

/** Pages kept in this process (or Worker isolate): at most `maxEntries` answers, the least recently served dropped first. */
export function lruPageCache(maxEntries = 500): PageCache {
  const kept = new LRUCache<string, Kept>({ max: maxEntries });
  return {
    async get(key) {
      const page = kept.get(key);
      return page ? new Response(page.body, { status: page.status, headers: page.headers }) : null;
    },
    async put(key, response, ttlSeconds) {
      const page = { status: response.status, headers: [...response.headers], body: await response.arrayBuffer() };
      kept.set(key, page, { ttl: ttlSeconds * 1000 });
    },
  };
}
