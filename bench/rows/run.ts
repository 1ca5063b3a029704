// `npm run bench:rows`: the rows each hot path reads and writes, over 10 000, 100 000 and 1 000 000
// purchases of generated history (tests/support/history.ts), on D1 (workerd's local D1, whose `meta`
// carries D1's own `rows_read` and `rows_written`, what Cloudflare bills) and on Node over a libSQL
// file (which reports only the rows a write changed; there the bench gives those and this process's
// CPU). Then a busy project's day (BUSY_DAY) priced against the free plan's limits (issue 37).
//   node bench/rows/run.ts [--sizes 10000,100000,1000000] [--runs 3] [--skip-d1] [--skip-node] [--only "name,name"] [--player 200]
// Writes .bench-state/rows.json; prints the tables docs/PERFORMANCE.md quotes.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { machineDescription } from "../machine.ts";

// What tests/support/rows-measure.ts prints (RowsResult, HistoryResult there), as far as this report reads it.
interface RowsResult {
  runtime: "D1" | "libSQL";
  purchases: number;
  path: string;
  rowsRead: number | null;
  rowsWritten: number | null;
  changes: number;
  cpuMs: number | null;
}
interface HistoryResult {
  runtime: RowsResult["runtime"];
  purchases: number;
  rows: Record<string, number>;
  bytes: number | null;
  generateMs: number;
}

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000,1000000" },
    runs: { type: "string", default: "3" },
    "skip-d1": { type: "boolean", default: false },
    "skip-node": { type: "boolean", default: false },
    only: { type: "string" },
    // The purchases of the player whose pages are read (200 by default): their own history, not everyone's.
    player: { type: "string" },
  },
});
const sizes = args.sizes.split(",").map(Number);
const options = JSON.stringify({
  sizes,
  runs: Number(args.runs),
  only: args.only ? args.only.split(",").map((name) => name.trim()) : undefined,
  playerPurchases: args.player ? Number(args.player) : undefined,
});
const MARK = "ROWS-RESULT ";

/** Runs one runtime's vitest config and gathers its result lines. */
function runRuntime(config: string): Promise<{ rows: RowsResult[]; histories: HistoryResult[] }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("node_modules/.bin/vitest", ["run", "--config", config, "--reporter", "dot"], {
      env: { ...process.env, ROWS_OPTIONS: options, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const rows: RowsResult[] = [];
    const histories: HistoryResult[] = [];
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const at = line.indexOf(MARK);
        if (at < 0) {
          if (/FAIL|Error|✗|×/.test(line)) console.log(line);
          continue;
        }
        const parsed = JSON.parse(line.slice(at + MARK.length)) as RowsResult | { history: HistoryResult };
        if ("history" in parsed) {
          histories.push(parsed.history);
          console.log(`  ${parsed.history.runtime}: ${parsed.history.purchases} purchases of history written`);
        } else rows.push(parsed);
      }
    });
    child.on("exit", (code) =>
      code === 0 ? resolvePromise({ rows, histories }) : reject(new Error(`${config} exited ${code}`)),
    );
  });
}

const results: RowsResult[] = [];
const histories: HistoryResult[] = [];
if (!args["skip-d1"]) {
  console.log("D1 (workerd's local D1)…");
  const run = await runRuntime("bench/rows/vitest.d1.config.ts");
  results.push(...run.rows);
  histories.push(...run.histories);
}
if (!args["skip-node"]) {
  console.log("Node (libSQL file)…");
  const run = await runRuntime("bench/rows/vitest.libsql.config.ts");
  results.push(...run.rows);
  histories.push(...run.histories);
}
mkdirSync(".bench-state", { recursive: true });
writeFileSync(
  ".bench-state/rows.json",
  `${JSON.stringify({ at: new Date().toISOString(), results, histories }, null, 2)}\n`,
);

// ---- Report -----------------------------------------------------------------
const num = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : value.toLocaleString("en-US");
const paths = [...new Set(results.map((row) => row.path))];
const find = (runtime: string, path: string, purchases: number) =>
  results.find((row) => row.runtime === runtime && row.path === path && row.purchases === purchases);

console.log(`\n## Rows per request and job (${new Date().toISOString()})\nMachine: ${machineDescription()}.\n`);
console.log("History written:\n");
console.log(`| runtime | purchases | ${Object.keys(histories[0]?.rows ?? {}).join(" | ")} | database | written in |`);
console.log(
  `|---|---:|${Object.keys(histories[0]?.rows ?? {})
    .map(() => "---:")
    .join("|")}|---:|---:|`,
);
for (const history of histories) {
  console.log(
    `| ${history.runtime} | ${num(history.purchases)} | ${Object.values(history.rows).map(num).join(" | ")} | ` +
      `${history.bytes === null ? "–" : `${(history.bytes / 1e6).toFixed(0)} MB`} | ${(history.generateMs / 1000).toFixed(0)} s |`,
  );
}

if (results.some((row) => row.runtime === "D1")) {
  console.log("\nD1, rows read / rows written per request or job run (D1's `meta`, medians of the runs):\n");
  console.log(`| path | ${sizes.map((size) => `${num(size)}`).join(" | ")} |`);
  console.log(`|---|${sizes.map(() => "---:").join("|")}|`);
  for (const path of paths) {
    const cells = sizes.map((size) => {
      const row = find("D1", path, size);
      return row ? `${num(row.rowsRead)} / ${num(row.rowsWritten)}` : "–";
    });
    console.log(`| ${path} | ${cells.join(" | ")} |`);
  }
}
if (results.some((row) => row.runtime === "libSQL")) {
  console.log("\nNode over libSQL, rows changed and CPU ms (this process, the embedded database included) per run:\n");
  console.log(`| path | ${sizes.map((size) => `${num(size)}`).join(" | ")} |`);
  console.log(`|---|${sizes.map(() => "---:").join("|")}|`);
  for (const path of paths) {
    const cells = sizes.map((size) => {
      const row = find("libSQL", path, size);
      return row ? `${num(row.changes)} · ${row.cpuMs === null ? "–" : row.cpuMs.toFixed(1)} ms` : "–";
    });
    console.log(`| ${path} | ${cells.join(" | ")} |`);
  }
}

// ---- A busy project's day ------------------------------------------------------
// 2 000 players, 20 000 page views, 1 000 purchases, 200 top-ups, 10 game servers, the minutely jobs.
// `requests`: Worker invocations each makes (a cron run is one). The plugin's cadence is priced at its
// defaults (a poll every 30 s, a heartbeat every 60 s, decision 126) and at 3.0's (15 s / 30 s).
const SERVERS = 10;
const DAY_S = 86_400;
/** Deliveries a day: a grant per purchase (800 kits, 200 ranks) and a revoke for each of 200 ranks ending. */
const KITS = 800;
const RANKS = 200;
const REVOKES = 200;
const DELIVERIES = KITS + RANKS + REVOKES;

function busyDay(pollSeconds: number, heartbeatSeconds: number) {
  const polls = (DAY_S / pollSeconds) * SERVERS;
  const heartbeats = (DAY_S / heartbeatSeconds) * SERVERS;
  // A heartbeat is written when the stored one is 50 s old (HEARTBEAT_REWRITE_AFTER_MS).
  const written = heartbeats / Math.ceil(50 / heartbeatSeconds);
  return [
    { path: "plugin poll, nothing due", perDay: polls - DELIVERIES, requests: 1 },
    { path: "plugin poll, one delivery due", perDay: DELIVERIES, requests: 1 },
    // Plugin 3 reports each delivery twice (decision 124): given after it ran, saved after the world's
    // next save. A request each here, an upper bound: the saved reports of the deliveries a server gave
    // between two saves (every 10 minutes) go in one request. A revoke's reports cost about a kit's
    // (no rank to stack, no revoke to write).
    { path: "plugin ack, a kit given", perDay: DELIVERIES, requests: 1 },
    { path: "plugin ack, a kit saved", perDay: KITS + REVOKES, requests: 1 },
    { path: "plugin ack, a rank saved", perDay: RANKS, requests: 1 },
    { path: "plugin heartbeat, written", perDay: written, requests: 1 },
    { path: "plugin heartbeat, not written", perDay: heartbeats - written, requests: 1 },
    { path: "plugin /store (what waits for a player)", perDay: 200, requests: 1 },
    { path: "page / (home)", perDay: 4_000, requests: 1 },
    { path: "page /shop (signed in)", perDay: 7_000, requests: 1 },
    { path: "page /shop/items/:id (signed in)", perDay: 4_500, requests: 1 },
    { path: "page /profile (Корзина)", perDay: 2_000, requests: 1 },
    { path: "page /purchases", perDay: 800, requests: 1 },
    { path: "page /statement", perDay: 400, requests: 1 },
    { path: "page /deposits", perDay: 300, requests: 1 },
    { path: "page /balance (signed in)", perDay: 1_000, requests: 1 },
    { path: "purchase", perDay: KITS + RANKS, requests: 1 },
    { path: "top-up: create", perDay: 200, requests: 1 },
    // The provider's notification, and the player's way back through /api/payment/return.
    { path: "top-up: provider's notification", perDay: 200, requests: 2 },
    // A session lasts 30 days: a quarter of the day's players sign in (the start, the callback, and
    // /auth-success trading the code).
    { path: "sign-in through Steam", perDay: 500, requests: 3 },
    { path: "minutely: deliveries' upkeep", perDay: 1_440 - 24, requests: 1 },
    { path: "hourly: deliveries' backstop", perDay: 24, requests: 1 },
    { path: "minutely: the wipe's jobs", perDay: 1_440, requests: 0 },
    { path: "minutely: pending payments", perDay: 1_440, requests: 0 },
    { path: "minutely: Discord outbox", perDay: 1_440, requests: 0 },
    { path: "minutely: server list", perDay: 1_440, requests: 0 },
  ];
}
/** The home page asks /api/server-status every 30 s while open (decision 011): a minute open on average. */
const SERVER_STATUS_REFRESHES = 4_000 * 2;
const FREE = { rowsRead: 5_000_000, rowsWritten: 100_000, requests: 100_000 };

const largest = sizes[sizes.length - 1] as number;
const share = (value: number, limit: number) => `${((value / limit) * 100).toFixed(0)} %`;
if (results.some((row) => row.runtime === "D1" && row.purchases === largest)) {
  for (const [poll, beat] of [
    [30, 60],
    [15, 30],
  ] as const) {
    console.log(
      `\nA busy project's day over ${num(largest)} purchases of history, the plugin polling every ${poll} s and beating every ${beat} s (D1's counters × the day's counts):\n`,
    );
    console.log("| request or job | a day | rows read | rows written | Worker requests |");
    console.log("|---|---:|---:|---:|---:|");
    let read = 0;
    let written = 0;
    let requests = SERVER_STATUS_REFRESHES;
    for (const entry of busyDay(poll, beat)) {
      const row = find("D1", entry.path, largest);
      const dayRead = (row?.rowsRead ?? 0) * entry.perDay;
      const dayWritten = (row?.rowsWritten ?? 0) * entry.perDay;
      read += dayRead;
      written += dayWritten;
      requests += entry.perDay * entry.requests;
      console.log(
        `| ${entry.path} | ${num(entry.perDay)} | ${num(dayRead)} | ${num(dayWritten)} | ${num(entry.perDay * entry.requests)} |`,
      );
    }
    console.log(
      `| /api/server-status (the home page's refresh, KV only) | ${num(SERVER_STATUS_REFRESHES)} | 0 | 0 | ${num(SERVER_STATUS_REFRESHES)} |`,
    );
    console.log(
      `| **the day** | | **${num(read)}** (${share(read, FREE.rowsRead)} of 5 000 000) | **${num(written)}** (${share(written, FREE.rowsWritten)} of 100 000) | **${num(requests)}** (${share(requests, FREE.requests)} of 100 000) |`,
    );
  }
}
