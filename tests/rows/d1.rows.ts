// The rows bench on D1 (bench/rows/run.ts): each history size in a D1 database of its own, every
// statement's `meta.rows_read` and `meta.rows_written` summed per hot path.
import { applyD1Migrations, env } from "cloudflare:test";
import { it } from "vitest";
import { d1Database, kvStore } from "#worker/adapters/cloudflare.ts";
import type { Settings } from "#worker/settings.ts";
import { hotSite } from "../support/hot-paths.ts";
import { recordingD1 } from "../support/recording-d1.ts";
import { statementLog } from "../support/recording-database.ts";
import { measureRows } from "../support/rows-measure.ts";
import { rowsOptions } from "./options.ts";

const bench = env as unknown as Settings & {
  DB_0: D1Database;
  DB_1: D1Database;
  DB_2: D1Database;
  STATUS_KV: KVNamespace;
  TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
  ROWS_OPTIONS: string;
};
const options = rowsOptions(bench.ROWS_OPTIONS);
const databases = [bench.DB_0, bench.DB_1, bench.DB_2];

options.sizes.forEach((purchases, index) => {
  it(`D1 over ${purchases} purchases of history`, async () => {
    const d1 = databases[index];
    if (!d1) throw new Error("no database for this size: add one to bench/rows/wrangler.jsonc");
    await applyD1Migrations(d1, bench.TEST_MIGRATIONS);
    const log = statementLog();
    const site = hotSite({ db: d1Database(recordingD1(d1, log)), kv: kvStore(bench.STATUS_KV), settings: bench });
    await measureRows({
      runtime: "D1",
      purchases,
      site,
      log,
      runs: options.runs,
      only: options.only,
      verbose: options.verbose,
      playerPurchases: options.playerPurchases,
      databaseBytes: async () => (await d1.prepare("SELECT 1").all()).meta.size_after ?? null,
    });
  });
});
