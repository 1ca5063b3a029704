import { lruPageCache } from "../adapters/memory-page-cache.ts";
import type { PageCache } from "../ports/page-cache.ts";

/**
 * Pages in the data centre's cache (the Cache API). It keeps answers only on a custom domain, not on
 * workers.dev, where every page is rendered as before.
 */
// Workers' CacheStorage has `default`; the DOM typings the project also loads don't know it.
const dataCentreCache = () => (caches as unknown as { default: Cache }).default;

export function cachesPageCache(): PageCache {
  return {
    async get(key) {
      const kept = await dataCentreCache().match(key);
      if (!kept) return null;
      // The cache's answers have immutable headers, and the site's middleware still sets its own.
      const page = new Response(kept.body, kept);
      page.headers.delete("cache-control");
      return page;
    },
    async put(key, response, ttlSeconds) {
      const copy = new Response(response.body, response);
      // The Cache API keeps an answer as long as its Cache-Control says; `get` takes it off again.
      copy.headers.set("cache-control", `public, max-age=${ttlSeconds}`);
      await dataCentreCache().put(key, copy);
    },
  };
}

/**
 * The isolate's own LRU first, then the data centre's cache. A hit in the isolate needs no I/O (the
 * Cache API costs a subrequest); the Cache API shares answers with the location's other isolates.
 */
export function workerPageCache(isolateEntries = 100): PageCache {
  const isolate = lruPageCache(isolateEntries);
  const dataCentre = cachesPageCache();
  return {
    async get(key) {
      return (await isolate.get(key)) ?? (await dataCentre.get(key));
    },
    async put(key, response, ttlSeconds) {
      await Promise.all([isolate.put(key, response.clone(), ttlSeconds), dataCentre.put(key, response, ttlSeconds)]);
    },
  };
}
