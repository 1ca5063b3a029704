/**
 * The page cache port: whole answers kept under a key for a while. On Workers the Cache API of the
 * data centre, on Node an in-process LRU; the runtime's entry supplies it.
 */
export interface PageCache {
  /** A copy of the answer kept under `key` (an absolute URL), with headers the caller may change, or null. */
  get(key: string): Promise<Response | null>;
  /** Keeps `response` under `key` for at most `ttlSeconds`. */
  put(key: string, response: Response, ttlSeconds: number): Promise<void>;
}
