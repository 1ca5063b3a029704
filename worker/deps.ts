import { createDb, type Db } from "#db/client.ts";
import { type Config, loadConfig } from "./config.ts";
import type { Env } from "./env.ts";
import { routeStandIns } from "./integrations/stand-ins/outbound.ts";

// Everything a service may touch, built once per request (or cron run).
export interface Deps {
  db: Db;
  d1: D1Database;
  kv: KVNamespace;
  env: Env;
  config: Config;
  now: () => Date;
  // Outbound HTTP. Locally it routes the stand-ins' URLs in-process.
  fetch: typeof fetch;
  waitUntil: (promise: Promise<unknown>) => void;
}

export interface DepsOverrides {
  now?: () => Date;
  fetch?: typeof fetch;
  waitUntil?: (promise: Promise<unknown>) => void;
}

export function buildDeps(env: Env, overrides: DepsOverrides = {}): Deps {
  const config = loadConfig(env);
  const baseFetch = overrides.fetch ?? ((input, init) => fetch(input, init));
  return {
    db: createDb(env.DB),
    d1: env.DB,
    kv: env.STATUS_KV,
    env,
    config,
    now: overrides.now ?? (() => new Date()),
    fetch: routeStandIns(config, baseFetch, env),
    waitUntil: overrides.waitUntil ?? (() => {}),
  };
}
