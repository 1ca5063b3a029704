/** The key-value port: small documents with an optional expiry (the server list, the payment stand-in). */
export interface KeyValueStore {
  /** `cacheTtlSeconds` lets a store with edge caching keep the value that long (KV's cacheTtl); others ignore it. */
  get(key: string, options?: { cacheTtlSeconds?: number }): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtlSeconds?: number }): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every live key that starts with `prefix`, in the keys' order (KV's list; the payment stand-in's list). */
  list(prefix: string): Promise<string[]>;
}
