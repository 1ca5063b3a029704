// `npm run bench:rows`: the rows each hot path reads and writes, over 10 000, 100 000 and 1 000 000
// purchases of generated history (tests/support/history.ts), on D1 (workerd's local D1, whose `meta`
// carries D1's own `rows_read` and `rows_written`, what Cloudflare bills) and on Node over a libSQL
// file (which reports only the rows a write changed; there the bench gives those and this process's
// CPU). Then a busy project's day (BUSY_DAY) priced against the free plan's limits (issue 37).
//   node bench/rows/run.ts [--sizes 10000,100000,1000000] [--runs 3] [--skip-d1] [--skip-node] [--only "name,name"] [--player 200]
//   node bench/rows/run.ts --from-state   (no run: the tables and the day again from the last run's rows, after a change to bench/rows/day.ts)
// Writes .bench-state/rows.json; prints the tables docs/PERFORMANCE.md quotes.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { machineDescription } from "../machine.ts";
import {
  busyDay,
  type Cadence,
  DOORBELL_HEARTBEAT_S,
  DOORBELL_POLL_S,
  doorbellObjects,
  FREE,
  rowsAtServers,
  serverStatusRefreshes,
  THIRTY_SERVERS,
} from "./day.ts";

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
    "from-state": { type: "boolean", default: false },
  },
});
const STATE = ".bench-state/rows.json";
const saved = args["from-state"]
  ? (JSON.parse(readFileSync(STATE, "utf8")) as { results: RowsResult[]; histories: HistoryResult[] })
  : null;
const sizes = saved
  ? [...new Set(saved.results.map((row) => row.purchases))].sort((a, b) => a - b)
  : args.sizes.split(",").map(Number);
const options = JSON.stringify({
  sizes,
  runs: Number(args.runs),
  // Paths' names hold ", " ("plugin poll, nothing due"): a comma with no space after it separates them.
  only: args.only ? args.only.split(/,(?=\S)/).map((name) => name.trim()) : undefined,
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

const results: RowsResult[] = [...(saved?.results ?? [])];
const histories: HistoryResult[] = [...(saved?.histories ?? [])];
if (!saved && !args["skip-d1"]) {
  console.log("D1 (workerd's local D1)…");
  const run = await runRuntime("bench/rows/vitest.d1.config.ts");
  results.push(...run.rows);
  histories.push(...run.histories);
}
if (!saved && !args["skip-node"]) {
  console.log("Node (libSQL file)…");
  const run = await runRuntime("bench/rows/vitest.libsql.config.ts");
  results.push(...run.rows);
  histories.push(...run.histories);
}
if (!saved) {
  mkdirSync(".bench-state", { recursive: true });
  writeFileSync(STATE, `${JSON.stringify({ at: new Date().toISOString(), results, histories }, null, 2)}\n`);
}

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
// bench/rows/day.ts: the day's counts, the plugins' cadence with the doorbell and without, Durable Objects.
const largest = sizes[sizes.length - 1] as number;
const share = (value: number, limit: number) => `${((value / limit) * 100).toFixed(0)} %`;
/** D1's rows of a path at `servers` game servers (the jobs that grow with servers drawn through 10 and 30). */
function measured(path: string, servers: number) {
  const at10 = find("D1", path, largest);
  const at30 = find("D1", `${path}${THIRTY_SERVERS}`, largest);
  return {
    read: rowsAtServers(at10?.rowsRead ?? 0, at30?.rowsRead ?? undefined, servers),
    written: rowsAtServers(at10?.rowsWritten ?? 0, at30?.rowsWritten ?? undefined, servers),
  };
}
function priceDay(cadence: Cadence) {
  let read = 0;
  let written = 0;
  let requests = serverStatusRefreshes(cadence);
  const lines = busyDay(cadence).map((entry) => {
    const rows = measured(entry.path, cadence.servers);
    read += rows.read * entry.perDay;
    written += rows.written * entry.perDay;
    requests += entry.perDay * entry.requests;
    return { ...entry, read: rows.read * entry.perDay, written: rows.written * entry.perDay };
  });
  return { lines, read, written, requests, objects: doorbellObjects(cadence) };
}
/** The share of each daily limit a day takes, the largest first. */
function shares(day: ReturnType<typeof priceDay>) {
  return [
    { limit: "Worker requests", used: day.requests / FREE.requests },
    { limit: "rows written", used: day.written / FREE.rowsWritten },
    { limit: "rows read", used: day.read / FREE.rowsRead },
    { limit: "Durable Object requests", used: day.objects.requests / FREE.doRequests },
    { limit: "Durable Object GB-s", used: day.objects.gbSeconds / FREE.doGbSeconds },
  ].sort((a, b) => b.used - a.used);
}
/** The most servers whose day stays within `fraction` of every limit, and the limit that stops one more. */
function mostServers(cadence: Omit<Cadence, "servers">, fraction: number) {
  for (let servers = 1; servers <= 500; servers++) {
    const over = shares(priceDay({ ...cadence, servers })).find((entry) => entry.used > fraction);
    if (over) return { servers: servers - 1, stoppedBy: over.limit };
  }
  return { servers: 500, stoppedBy: "none" };
}
const describe = (cadence: Cadence) =>
  `${cadence.servers} servers, ${cadence.doorbell ? "doorbell connected, safety poll" : "no doorbell, poll"} every ${cadence.poll} s, heartbeat every ${cadence.heartbeat} s${cadence.busy ? `, the day ×${cadence.busy}` : ""}`;

const withBell = { doorbell: true, poll: DOORBELL_POLL_S, heartbeat: DOORBELL_HEARTBEAT_S };
const withoutBell = { doorbell: false, poll: 30, heartbeat: 60 };
const detailed: Cadence[] = [
  { servers: 10, ...withoutBell },
  { servers: 10, ...withBell },
  { servers: 30, ...withBell },
];
const summarized: Cadence[] = [
  ...detailed,
  { servers: 30, ...withoutBell },
  { servers: 10, doorbell: false, poll: 15, heartbeat: 30 },
  // Decision 126's margin: a day half again as busy still under every limit.
  { servers: 30, ...withBell, busy: 1.5 },
];

if (results.some((row) => row.runtime === "D1" && row.purchases === largest)) {
  for (const cadence of detailed) {
    const day = priceDay(cadence);
    console.log(
      `\nA busy project's day over ${num(largest)} purchases of history, ${describe(cadence)} (D1's counters × the day's counts):\n`,
    );
    console.log("| request or job | a day | rows read | rows written | Worker requests |");
    console.log("|---|---:|---:|---:|---:|");
    for (const line of day.lines) {
      if (line.perDay === 0) continue;
      console.log(
        `| ${line.path} | ${num(line.perDay)} | ${num(Math.round(line.read))} | ${num(Math.round(line.written))} | ${num(line.perDay * line.requests)} |`,
      );
    }
    console.log(
      `| /api/server-status (the home page's refresh, KV only) | ${num(serverStatusRefreshes(cadence))} | 0 | 0 | ${num(serverStatusRefreshes(cadence))} |`,
    );
    console.log(
      `| **the day** | | **${num(Math.round(day.read))}** (${share(day.read, FREE.rowsRead)} of 5 000 000) | **${num(Math.round(day.written))}** (${share(day.written, FREE.rowsWritten)} of 100 000) | **${num(day.requests)}** (${share(day.requests, FREE.requests)} of 100 000) |`,
    );
    if (cadence.doorbell) {
      const o = day.objects;
      console.log(
        `\nDurable Objects: ${num(o.rings)} rings + ${num(o.connects)} connects and closes + ${num(o.pings)} (pings at 20:1) = **${num(o.requests)} requests** (${share(o.requests, FREE.doRequests)} of 100 000); at most ${num(Math.round(o.gbSeconds))} GB-s (${share(o.gbSeconds, FREE.doGbSeconds)} of 13 000).`,
      );
    }
  }
  console.log(
    `\nThe day by cadence and servers, over ${num(largest)} purchases of history (share of the free plan's daily limit):\n`,
  );
  console.log("| cadence | rows read | rows written | Worker requests | DO requests | DO GB-s |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const cadence of summarized) {
    const day = priceDay(cadence);
    const o = day.objects;
    console.log(
      `| ${describe(cadence)} | ${num(Math.round(day.read))} (${share(day.read, FREE.rowsRead)}) | ${num(Math.round(day.written))} (${share(day.written, FREE.rowsWritten)}) | ${num(day.requests)} (${share(day.requests, FREE.requests)}) | ${num(o.requests)} (${share(o.requests, FREE.doRequests)}) | ${num(Math.round(o.gbSeconds))} (${share(o.gbSeconds, FREE.doGbSeconds)}) |`,
    );
  }
  console.log("");
  for (const [label, cadence] of [
    ["with the doorbell", withBell],
    ["without it", withoutBell],
  ] as const) {
    const at80 = mostServers(cadence, 0.8);
    const at100 = mostServers(cadence, 1);
    console.log(
      `The busy day ${label} carries ${at80.servers} servers within 80 % of every limit (one more passes it in ${at80.stoppedBy}) and ${at100.servers} within 100 % (${at100.stoppedBy}).`,
    );
  }
}
