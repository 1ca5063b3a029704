// The rows bench's measuring loop, the same on both runtimes (bench/rows/): over a fresh database with
// `purchases` of generated history, each hot path runs a few times (its setup unrecorded) and the
// statements it sent are summed. Results are printed one per line as `ROWS-RESULT {json}` for
// bench/rows/run.ts to gather (a Worker's test can't write files).

import { sql } from "drizzle-orm";
import { type Statement, statement } from "#worker/ports/database.ts";
import { HISTORY_TABLES, historySql } from "./history.ts";
import { createHotFixture, type HotFixture, type HotPath, type HotSite, hotPaths } from "./hot-paths.ts";
import type { StatementLog } from "./recording-database.ts";

export interface RowsResult {
  runtime: "D1" | "libSQL";
  purchases: number;
  path: string;
  kind: HotPath["kind"];
  /** Medians over the runs; null where the runtime doesn't count them. */
  rowsRead: number | null;
  rowsWritten: number | null;
  changes: number;
  statements: number;
  /** Milliseconds of this process's CPU per run (Node only: workerd's clock stands still while code runs). */
  cpuMs: number | null;
  /** The statement that read the most, for the report's notes. */
  heaviest: { sql: string; rowsRead: number | null; changes: number } | null;
}

export interface HistoryResult {
  runtime: RowsResult["runtime"];
  purchases: number;
  rows: Record<string, number>;
  /** The database's size in bytes after the history was written. */
  bytes: number | null;
  generateMs: number;
}

export const ROWS_RESULT = "ROWS-RESULT ";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};

export interface MeasureOptions {
  runtime: RowsResult["runtime"];
  purchases: number;
  /** The purchases of the player whose pages are read (history.ts's PLAYER_PURCHASES when absent). */
  playerPurchases?: number;
  site: HotSite;
  log: StatementLog;
  runs: number;
  /** The database's size in bytes, where the runtime can tell. */
  databaseBytes: () => Promise<number | null>;
  /** This process's CPU time in ms, where the clock moves while code runs. */
  cpuNow?: () => number;
  /** Only these paths (by name), for a quick look. */
  only?: string[];
  /** Print every statement's counters (a quick look at where the rows go). */
  verbose?: boolean;
}

export async function measureRows(options: MeasureOptions): Promise<{ history: HistoryResult; rows: RowsResult[] }> {
  const { site, log, runtime, purchases } = options;
  log.on = false;
  const fixture = await createHotFixture(site);
  const started = Date.now();
  for (const text of historySql(purchases, fixture, site.clock.now().getTime(), options.playerPurchases)) {
    await site.deps.db.run({ sql: text, params: [] } satisfies Statement);
  }
  const generateMs = Date.now() - started;
  const counts: Record<string, number> = {};
  for (const table of HISTORY_TABLES) {
    const [row] = (
      await site.deps.db.run<{ count: number }>(statement(sql.raw(`SELECT COUNT(*) AS count FROM ${table}`)))
    ).rows;
    counts[table] = row?.count ?? 0;
  }
  const history: HistoryResult = {
    runtime,
    purchases,
    rows: counts,
    bytes: await options.databaseBytes(),
    generateMs,
  };

  const rows: RowsResult[] = [];
  for (const path of hotPaths.filter((candidate) => !options.only || options.only.includes(candidate.name))) {
    const result: RowsResult = { runtime, purchases, ...(await measurePath(site, fixture, path, options)) };
    rows.push(result);
    console.log(`${ROWS_RESULT}${JSON.stringify(result)}`);
  }
  console.log(`${ROWS_RESULT}${JSON.stringify({ history })}`);
  return { history, rows };
}

/** One hot path run `runs` times for `fixture` (its setup unrecorded): the medians of what it sent. */
export async function measurePath(
  site: HotSite,
  fixture: HotFixture,
  path: HotPath,
  options: Pick<MeasureOptions, "log" | "runs" | "cpuNow" | "verbose">,
): Promise<Omit<RowsResult, "runtime" | "purchases">> {
  const { log } = options;
  const runs: {
    read: number | null;
    written: number | null;
    changes: number;
    statements: number;
    cpu: number | null;
  }[] = [];
  let heaviest: RowsResult["heaviest"] = null;
  for (let run = 0; run < options.runs; run++) {
    log.on = false;
    // Minutely jobs a minute apart; requests as they come.
    site.clock.advance(path.kind === "job" ? 60_000 : 1_000);
    const prepared = await path.prepare?.(site, fixture);
    log.statements.length = 0;
    log.on = true;
    const cpuBefore = options.cpuNow?.() ?? null;
    await path.run(site, fixture, prepared);
    const cpuAfter = options.cpuNow?.() ?? null;
    log.on = false;
    const recorded = log.statements;
    const sum = (pick: (s: (typeof recorded)[number]) => number | null) =>
      recorded.some((s) => pick(s) === null) ? null : recorded.reduce((total, s) => total + (pick(s) ?? 0), 0);
    runs.push({
      read: sum((s) => s.rowsRead),
      written: sum((s) => s.rowsWritten),
      changes: recorded.reduce((total, s) => total + s.changes, 0),
      statements: recorded.length,
      cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    });
    if (options.verbose) {
      for (const s of recorded) {
        console.log(
          `  [${path.name}] read ${s.rowsRead} written ${s.rowsWritten} changed ${s.changes}: ${s.sql.replace(/\s+/g, " ").slice(0, 220)}`,
        );
      }
    }
    for (const s of recorded) {
      const weight = s.rowsRead ?? s.changes;
      if (!heaviest || weight > (heaviest.rowsRead ?? heaviest.changes)) {
        heaviest = { sql: s.sql.replace(/\s+/g, " ").slice(0, 160), rowsRead: s.rowsRead, changes: s.changes };
      }
    }
  }
  const known = (pick: (r: (typeof runs)[number]) => number | null) =>
    runs.some((r) => pick(r) === null) ? null : median(runs.map((r) => pick(r) as number));
  return {
    path: path.name,
    kind: path.kind,
    rowsRead: known((r) => r.read),
    rowsWritten: known((r) => r.written),
    changes: median(runs.map((r) => r.changes)),
    statements: median(runs.map((r) => r.statements)),
    cpuMs: known((r) => r.cpu),
    heaviest,
  };
}
