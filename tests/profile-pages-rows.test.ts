// A player's own pages cost the same whatever their history (issue 48, decisions 150 and 156): D1's own
// `rows_read` for a view of the Корзина and of /purchases, their first and next pages, and for the
// plugin's /store, by a player
// with 10, 200 and 1 000 purchases of their own, measured as `npm run bench:rows` does (tests/support/rows-measure.ts). Only
// on workerd: libSQL doesn't count the rows a read reads (the query-plan guard holds both runtimes'
// plans). Not a timing: the counts are the database's own.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { d1Database, kvStore } from "#worker/adapters/cloudflare.ts";
import type { Settings } from "#worker/settings.ts";
import { playerHistorySql } from "./support/history.ts";
import { createHotFixture, hotPaths, hotSite } from "./support/hot-paths.ts";
import { uniqueSteamId } from "./support/players.ts";
import { recordingD1 } from "./support/recording-d1.ts";
import { statementLog } from "./support/recording-database.ts";
import { measurePath } from "./support/rows-measure.ts";

const worker = env as unknown as Settings & { DB: D1Database; STATUS_KV: KVNamespace };
const PAGES = [
  "page /profile (Корзина)",
  "page /purchases",
  "page /profile?before= (the Корзина's next page)",
  "page /purchases?before= (the next page)",
  // The plugin's /store chat command: what waits for the player, not their history (decision 156).
  "plugin /store (what waits for a player)",
];

/** Rows read by one view of each page, for players with each count of purchases of their own. */
async function rowsPerView(counts: number[]): Promise<Record<string, number | null>[]> {
  const log = statementLog();
  log.on = false;
  const site = hotSite({
    db: d1Database(recordingD1(worker.DB, log)),
    kv: kvStore(worker.STATUS_KV),
    settings: worker,
  });
  // Every player first: each fixture adds a game server, which the Корзина's links read. And one more
  // after them, so each measured player's rows end where another's begin: an index range reads the
  // row past its end, when there is one.
  const fixtures = [];
  for (const purchases of [...counts, 10]) {
    const fixture = await createHotFixture(site, uniqueSteamId());
    for (const text of playerHistorySql(purchases, fixture, site.clock.now().getTime())) {
      await site.deps.db.run({ sql: text, params: [] });
    }
    fixtures.push(fixture);
  }
  const results = [];
  for (const fixture of fixtures.slice(0, counts.length)) {
    const result: Record<string, number | null> = {};
    for (const path of hotPaths.filter((candidate) => PAGES.includes(candidate.name))) {
      result[path.name] = (await measurePath(site, fixture, path, { log, runs: 1 })).rowsRead;
    }
    results.push(result);
  }
  return results;
}

describe("a player's own pages (issue 48)", () => {
  it("read as many rows for a player with 1 000 purchases as with 200, and no more with 10", async () => {
    const [few = {}, some = {}, many = {}] = await rowsPerView([10, 200, 1_000]);
    for (const page of PAGES) {
      expect(some[page], page).toBeGreaterThan(0);
      expect(many[page], page).toBe(some[page]);
      expect(few[page] ?? Number.POSITIVE_INFINITY, page).toBeLessThanOrEqual(some[page] ?? 0);
    }
  });
});
