import { oncePer } from "#core/once-per.ts";
import { type Config, loadConfig } from "./config.ts";
import type { Database } from "./ports/database.ts";
import { type Doorbell, noDoorbell } from "./ports/doorbell.ts";
import type { KeyValueStore } from "./ports/key-value.ts";
import type { WitnessStore } from "./ports/witness.ts";
import type { Settings } from "./settings.ts";

/** What a runtime hands the site: its two ports and its settings. */
export interface Platform {
  db: Database;
  kv: KeyValueStore;
  settings: Settings;
  /** Where the site keeps the witness of its progress (decision 133); absent on Workers, where the status document carries it. */
  witness?: WitnessStore;
  /**
   * Where the local payment stand-in keeps its payments when `kv` lives in the site's own database
   * (Node): a restore of that database must not take the provider's payments back (decision 135).
   * Unset: `kv` (on Workers KV is outside D1 already).
   */
  standInKv?: KeyValueStore;
  /** The plugins' doorbell (decision 146); unset: none, plugins poll on their timer. */
  doorbell?: Doorbell;
}

// Everything a service may touch, built once per request (or cron run).
export interface Deps {
  db: Database;
  kv: KeyValueStore;
  /** The witness of the site's progress outside its database (Node); null: the status document in KV carries it. */
  witness: WitnessStore | null;
  config: Config;
  now: () => Date;
  // Outbound HTTP. Locally it routes the stand-ins' URLs in-process.
  fetch: typeof fetch;
  waitUntil: (promise: Promise<unknown>) => void;
  doorbell: Doorbell;
}

export interface DepsOverrides {
  now?: () => Date;
  fetch?: typeof fetch;
  waitUntil?: (promise: Promise<unknown>) => void;
}

// Settings don't change while a runtime serves (the Worker's env, the Node server's environment), so
// each settings object is parsed once, not on every request.
const parsedConfigs = new WeakMap<Settings, Config>();

export function buildDeps(platform: Platform, overrides: DepsOverrides = {}): Deps {
  return {
    db: platform.db,
    kv: platform.kv,
    witness: platform.witness ?? null,
    config: oncePer(parsedConfigs, platform.settings, loadConfig),
    now: overrides.now ?? (() => new Date()),
    fetch: overrides.fetch ?? ((input, init) => fetch(input, init)),
    waitUntil: overrides.waitUntil ?? (() => {}),
    doorbell: platform.doorbell ?? noDoorbell,
  };
}
