import { drizzle } from "drizzle-orm/d1";
import { oncePer } from "#core/once-per.ts";
import * as schema from "#db/schema.ts";
import type { GameDoorbell } from "../cloudflare/doorbell-object.ts";
import type { Database, Orm, Statement, StatementResult } from "../ports/database.ts";
import type { Doorbell } from "../ports/doorbell.ts";
import type { KeyValueStore } from "../ports/key-value.ts";
import type { Settings } from "../settings.ts";
import { durableObjectDoorbell } from "./cloudflare-doorbell.ts";

// The only module that names D1 and KV: the ports over Cloudflare's bindings (the doorbell's in cloudflare-doorbell.ts).

export interface CloudflareBindings {
  DB: D1Database;
  STATUS_KV: KVNamespace;
  /** The plugins' doorbell: one Durable Object per server type (decision 146). */
  DOORBELL: DurableObjectNamespace<GameDoorbell>;
}

function toResult(result: D1Result<Record<string, unknown>>): StatementResult {
  return { rows: result.results ?? [], changes: result.meta?.changes ?? 0 };
}

export function d1Database(d1: D1Database): Database {
  const prepare = (statement: Statement) => d1.prepare(statement.sql).bind(...statement.params);
  return {
    orm: drizzle(d1, { schema }) as unknown as Orm,
    async run<Row>(statement: Statement) {
      return toResult(await prepare(statement).all()) as StatementResult<Row>;
    },
    async batch(statements) {
      if (statements.length === 0) return [];
      // D1 runs a batch as one transaction.
      return (await d1.batch<Record<string, unknown>>(statements.map(prepare))).map(toResult);
    },
    async read(reads) {
      if (reads.length === 0) return [] as never;
      return (await d1.batch<Record<string, unknown>>(reads.map(prepare))).map(
        (result) => result.results ?? [],
      ) as never;
    },
  };
}

export function kvStore(kv: KVNamespace): KeyValueStore {
  return {
    get: (key, options) =>
      kv.get(key, options?.cacheTtlSeconds ? { type: "text", cacheTtl: options.cacheTtlSeconds } : { type: "text" }),
    put: (key, value, options) =>
      kv.put(key, value, options?.expirationTtlSeconds ? { expirationTtl: options.expirationTtlSeconds } : {}),
    delete: (key) => kv.delete(key),
    async list(prefix) {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await kv.list({ prefix, cursor });
        keys.push(...page.keys.map((key) => key.name));
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return keys;
    },
  };
}

// One port per binding for the isolate's life: Drizzle reads the whole schema when it is made.
const databases = new WeakMap<D1Database, Database>();
const stores = new WeakMap<KVNamespace, KeyValueStore>();
const doorbells = new WeakMap<DurableObjectNamespace<GameDoorbell>, Doorbell>();

export function cloudflarePorts(bindings: CloudflareBindings) {
  return {
    db: oncePer(databases, bindings.DB, d1Database),
    kv: oncePer(stores, bindings.STATUS_KV, kvStore),
    doorbell: oncePer(doorbells, bindings.DOORBELL, durableObjectDoorbell),
  };
}

/** The Worker's ports and settings: the bindings name D1 and KV, the rest are settings. */
export function cloudflarePlatform(env: CloudflareBindings & Settings) {
  return { ...cloudflarePorts(env), settings: env };
}
