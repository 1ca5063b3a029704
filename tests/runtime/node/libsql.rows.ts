// The rows bench on Node over a libSQL file (bench/rows/run.ts). libSQL reports only the rows a write
// changed, so here the bench counts statements, rows changed and the CPU this process spent, the
// embedded database's work included (it runs on the event loop).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { it } from "vitest";
import { libsqlDatabase, libsqlKeyValueStore, migrateLibsql, openLibsql } from "#worker/adapters/libsql.ts";
import { rowsOptions } from "../../rows/options.ts";
import { hotSite } from "../../support/hot-paths.ts";
import { recordingLibsql, statementLog } from "../../support/recording-database.ts";
import { measureRows } from "../../support/rows-measure.ts";
import { testSettings } from "./settings.ts";

const options = rowsOptions(process.env.ROWS_OPTIONS);

for (const purchases of options.sizes) {
  it(`libSQL over ${purchases} purchases of history`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "rows-bench-"));
    const client = await openLibsql({ url: `file:${join(dir, "site.db")}` });
    try {
      await migrateLibsql(client, resolve("migrations"));
      const log = statementLog();
      const site = hotSite({
        db: libsqlDatabase(recordingLibsql(client, log)),
        kv: libsqlKeyValueStore(client),
        settings: testSettings,
      });
      await measureRows({
        runtime: "libSQL",
        purchases,
        site,
        log,
        runs: options.runs,
        only: options.only,
        verbose: options.verbose,
        playerPurchases: options.playerPurchases,
        cpuNow: () => {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1000;
        },
        databaseBytes: async () => {
          const result = await client.execute(
            "SELECT page_count * page_size AS bytes FROM pragma_page_count, pragma_page_size",
          );
          return Number(result.rows[0]?.bytes ?? 0);
        },
      });
    } finally {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
