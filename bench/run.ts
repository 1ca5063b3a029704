// `npm run bench`: build the site, serve it locally with fresh seeded state, and measure
// every target of bench/targets.ts (throughput, latency, JS/CSS sizes), the Worker bundle,
// and a bare React Router page (bench/baseline) built and served in the same run.
// Exits non-zero when a size budget is exceeded. Usage:
// The Node server (build-node/, libSQL) is measured on the same targets in the same run.
// --scale also measures the shop over catalogs of CATALOG_SIZES items on the Worker build and the Node
// server (--runs short runs each, medians reported); --skip-worker leaves the Worker build out.
// The baseline is served beside the Worker build and each target is measured in --rounds rounds,
// each round the target then the baseline, so a ratio compares two runs seconds apart, not minutes:
// the report gives the medians of the rounds.
//   node bench/run.ts [--duration 10] [--connections 10] [--rounds 3] [--skip-baseline] [--skip-node]
//                     [--skip-worker] [--scale] [--runs 3] [--scale-duration 3] [--only name,name]
// Ports: E2E_PORT (the Worker build, default 8788), BENCH_BASELINE_PORT (8789), BENCH_NODE_PORT (8792).

import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildNodeSite, freshNodeDatabase, localSiteEnv, serveNodeSite } from "../tests/e2e/node-site.ts";
import { buildSite, E2E_ORIGIN, fireCron, freshState, servePreview, serveSite, stopSite } from "../tests/e2e/site.ts";
import { loadAdminVolume } from "./admin-volume.ts";
import { workerdCpuMs } from "./cpu.ts";
import { type ExportRun, exportReport, loadAdminVolumeLibsql, measureExport } from "./export.ts";
import { type LoadResult, runLoad } from "./load.ts";
import { machineDescription } from "./machine.ts";
import { measureScale, type ScaleRow, scaleReport } from "./scale.ts";
import { FIRST_VIEW_BUDGET, measurePage, measureWorkerBundle, type PageSizes } from "./sizes.ts";
import { median } from "./stats.ts";
import { firstViewPages, type Target, targets, WORKER_BUNDLE_BUDGET } from "./targets.ts";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    "skip-baseline": { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    "skip-node": { type: "boolean", default: false },
    // Measure only these targets (comma-separated names), e.g. --only admin.
    only: { type: "string" },
    "skip-worker": { type: "boolean", default: false },
    scale: { type: "boolean", default: false },
    runs: { type: "string", default: "3" },
    "scale-duration": { type: "string", default: "3" },
  },
});
const durationMs = Number(args.duration) * 1000;
const rounds = Math.max(1, Number(args.rounds) || 1);
const connections = Number(args.connections);
const WARMUP_MS = 2000;
const BASELINE_PORT = Number(process.env.BENCH_BASELINE_PORT ?? 8789);
const BASELINE_ORIGIN = `http://localhost:${BASELINE_PORT}`;
const NODE_PORT = Number(process.env.BENCH_NODE_PORT ?? 8792);
const NODE_ORIGIN = `http://localhost:${NODE_PORT}`;

// The console's CSV export of the 100 000 purchases (decision 110), measured once per runtime after the
// targets; `--only export` measures it alone.
const measureExports = !args.only || args.only.split(",").includes("export");
const exportRuns: [string, ExportRun][] = [];

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "–");

interface Row {
  target: Target;
  load: LoadResult;
  /** Worker CPU milliseconds per request, when it can be read. */
  cpuMs: number | null;
  sizes?: PageSizes;
  /** Medians over the rounds of the target's requests/s over the baseline's, and the baseline's CPU per request over the target's. */
  vsBaseline?: { requests: number; cpu: number | undefined };
}

/** One row of several rounds' runs: the median of each figure, the errors of all. */
function medianOf(runs: Row[]): Row {
  const first = runs[0] as Row;
  const cpu = runs.flatMap((run) => (run.cpuMs === null ? [] : [run.cpuMs]));
  const of = (pick: (load: LoadResult) => number) => median(runs.map((run) => pick(run.load)));
  return {
    target: first.target,
    sizes: first.sizes,
    cpuMs: cpu.length > 0 ? median(cpu) : null,
    load: {
      requests: runs.reduce((sum, run) => sum + run.load.requests, 0),
      errors: runs.reduce((sum, run) => sum + run.load.errors, 0),
      requestsPerSecond: of((load) => load.requestsPerSecond),
      p50Ms: of((load) => load.p50Ms),
      p99Ms: of((load) => load.p99Ms),
      maxMs: Math.max(...runs.map((run) => run.load.maxMs)),
    },
  };
}

async function measureTarget(
  origin: string,
  target: Target,
  serverGroup: number | undefined,
  command = "workerd",
  measureMs = durationMs,
  weigh = true,
): Promise<Row> {
  const request = (await target.prepare?.({ origin })) ?? {};
  const url = `${origin}${target.path}`;
  const common = { url, request, connections, expectStatus: target.expectStatus };
  await runLoad({ ...common, durationMs: Math.min(WARMUP_MS, measureMs) });
  const cpuBefore = workerdCpuMs(serverGroup, command);
  const load = await runLoad({ ...common, durationMs: measureMs });
  const cpuAfter = workerdCpuMs(serverGroup, command);
  const cpuMs =
    cpuBefore === null || cpuAfter === null || load.requests === 0 ? null : (cpuAfter - cpuBefore) / load.requests;
  const sizes = weigh && target.kind === "page" ? await measurePage(url, request.headers) : undefined;
  return { target, load, cpuMs, sizes };
}

/** Waits until nothing answers at `origin` any more (a stopped server's port is free for the next). */
async function untilClosed(origin: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(origin, { signal: AbortSignal.timeout(500) });
    } catch {
      return;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${origin} still answers`);
}

const only = args.only?.split(",").map((name) => name.trim());
const rows: Row[] = [];
const baselineTarget: Target = { name: "baseline", path: "/", kind: "page" };
const baselineRuns: Row[] = [];
let baselineSizes: PageSizes | undefined;
let workerScaleRows: ScaleRow[] = [];
let worker: ReturnType<typeof measureWorkerBundle> | undefined;

async function serveBaseline() {
  console.log("Building the bare React Router baseline…");
  execFileSync("../../node_modules/.bin/react-router", ["build"], {
    cwd: "bench/baseline",
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  const baselineState = resolve(".bench-state/baseline");
  rmSync(baselineState, { recursive: true, force: true });
  return servePreview({
    cwd: "bench/baseline",
    port: BASELINE_PORT,
    stateDir: baselineState,
    readyUrl: BASELINE_ORIGIN,
  });
}

if (!args["skip-worker"]) {
  console.log("Building the site…");
  buildSite();
  const stateDir = freshState(".bench-state/site");
  console.log("Loading 100 000 purchases and 20 000 top-ups for /admin…");
  loadAdminVolume(stateDir);
  const baselineServer = args["skip-baseline"] ? undefined : await serveBaseline();
  const site = await serveSite(stateDir);
  try {
    await fireCron();
    for (const target of targets.filter((candidate) => !only || only.includes(candidate.name))) {
      console.log(`Measuring ${target.path} (${connections} connections, ${rounds} × ${durationMs / 1000} s)…`);
      const runs: Row[] = [];
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const run = await measureTarget(E2E_ORIGIN, target, site.pid, "workerd", durationMs, round === 0);
        runs.push(run);
        if (!baselineServer) continue;
        const base = await measureTarget(
          BASELINE_ORIGIN,
          baselineTarget,
          baselineServer.pid,
          "workerd",
          durationMs,
          false,
        );
        baselineRuns.push(base);
        ratios.push(run.load.requestsPerSecond / base.load.requestsPerSecond);
        if (run.cpuMs && base.cpuMs) cpuRatios.push(base.cpuMs / run.cpuMs);
      }
      const row = medianOf(runs);
      if (ratios.length > 0) {
        row.vsBaseline = { requests: median(ratios), cpu: cpuRatios.length > 0 ? median(cpuRatios) : undefined };
      }
      rows.push(row);
    }
    if (measureExports) {
      console.log("Exporting 100 000 purchases as CSV from the Worker build…");
      exportRuns.push(["Worker build (workerd, local D1)", await measureExport(E2E_ORIGIN, site.pid, "workerd")]);
    }
    if (baselineServer) baselineSizes = await measurePage(`${BASELINE_ORIGIN}/`);
  } finally {
    stopSite(site);
    if (baselineServer) stopSite(baselineServer);
  }
  worker = measureWorkerBundle("build/server");
  if (args.scale) {
    workerScaleRows = await measureScale({
      runs: Math.max(1, Number(args.runs) || 1),
      durationMs: Number(args["scale-duration"]) * 1000,
      serve: async (size) => {
        await untilClosed(E2E_ORIGIN);
        const server = await serveSite(freshState(`.bench-state/site-${size}`, size));
        return { origin: E2E_ORIGIN, pid: server.pid, stop: () => stopSite(server) };
      },
      measure: (origin, target, pid, ms) => measureTarget(origin, target, pid, "workerd", ms),
    });
  }
}

/** First views weighed without load: [name, path, sizes]. */
const firstViews: { name: string; path: string; sizes: PageSizes }[] = [];
let scaleRows: ScaleRow[] = [];

const nodeRows: Row[] = [];
if (!args["skip-node"]) {
  console.log("Building the Node server…");
  buildNodeSite();
  const databaseUrl = freshNodeDatabase(".bench-state/node");
  if (measureExports) {
    console.log("Loading 100 000 purchases and 20 000 top-ups into the Node server's database…");
    await loadAdminVolumeLibsql(databaseUrl);
  }
  const server = await serveNodeSite(localSiteEnv(NODE_PORT, databaseUrl));
  try {
    if (measureExports) {
      console.log("Exporting 100 000 purchases as CSV from the Node server…");
      const pid = server.process.pid;
      exportRuns.push(["Node server (libSQL file)", await measureExport(NODE_ORIGIN, pid, "node", pid)]);
    }
    for (const target of targets.filter((candidate) => !only || only.includes(candidate.name))) {
      console.log(`Measuring ${target.path} on the Node server (${connections} connections, ${durationMs / 1000} s)…`);
      nodeRows.push(await measureTarget(NODE_ORIGIN, target, server.process.pid, "node"));
    }
    for (const page of firstViewPages) {
      const request = (await page.prepare?.({ origin: NODE_ORIGIN })) ?? {};
      firstViews.push({ ...page, sizes: await measurePage(`${NODE_ORIGIN}${page.path}`, request.headers) });
    }
  } finally {
    stopSite(server.process);
  }
  if (args.scale) {
    scaleRows = await measureScale({
      runs: Math.max(1, Number(args.runs) || 1),
      durationMs: Number(args["scale-duration"]) * 1000,
      serve: async (size) => {
        const server = await serveNodeSite(
          localSiteEnv(NODE_PORT, freshNodeDatabase(`.bench-state/node-${size}`, size)),
        );
        return { origin: NODE_ORIGIN, pid: server.process.pid, stop: () => stopSite(server.process) };
      },
      measure: (origin, target, pid, ms) => measureTarget(origin, target, pid, "node", ms),
    });
  }
}

let baseline:
  | { load: LoadResult; cpuMs: number | null; sizes: PageSizes; worker: ReturnType<typeof measureWorkerBundle> }
  | undefined;
if (!args["skip-baseline"] && baselineRuns.length === 0) {
  // Without the Worker build there is nothing to interleave with: the baseline alone.
  const server = await serveBaseline();
  try {
    console.log(`Measuring the baseline page (${connections} connections, ${durationMs / 1000} s)…`);
    baselineRuns.push(await measureTarget(BASELINE_ORIGIN, baselineTarget, server.pid));
  } finally {
    stopSite(server);
  }
}
if (baselineRuns.length > 0) {
  const row = medianOf(baselineRuns);
  baseline = {
    load: row.load,
    cpuMs: row.cpuMs,
    sizes: (baselineSizes ?? row.sizes) as PageSizes,
    worker: measureWorkerBundle("bench/baseline/build/server"),
  };
}

// ---- Report ---------------------------------------------------------------
if (exportRuns.length > 0) {
  console.log(
    "\n## CSV export of 100 000 purchases (POST /admin/exports/csv, in parts where EXPORT_ROWS_PER_FILE is set)",
  );
  console.log(
    "| runtime | rows | size | time | server CPU | files | server CPU per file | server memory (RSS before → peak) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const [runtime, run] of exportRuns) console.log(exportReport(runtime, run));
}
const failures: string[] = [];
const warnings: string[] = [];
console.log(`\n## Results ${new Date().toISOString()}`);
console.log(
  `Machine: ${machineDescription()}. Load: ${connections} keep-alive connections, ` +
    `${durationMs / 1000} s after ${WARMUP_MS / 1000} s warm-up, ${rounds} rounds each interleaved with the baseline ` +
    "(medians), against `vite preview` (workerd) on localhost.\n",
);
// "CPU vs baseline" is the baseline's CPU per request over the target's: the throughput ratio
// one core would give, without the load generator's noise.
console.log(
  "| target | path | req/s | p50 ms | p99 ms | errors | CPU ms/req | JS gzip | CSS gzip | vs baseline | CPU vs baseline |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
const ratioText = (ratio: number | undefined) => (ratio === undefined ? "–" : `${ratio.toFixed(2)}×`);
const line = (
  name: string,
  path: string,
  row: Pick<Row, "load" | "cpuMs" | "sizes">,
  ratio?: number,
  cpuRatio?: number,
) =>
  console.log(
    `| ${name} | \`${path}\` | ${fmt(row.load.requestsPerSecond)} | ${fmt(row.load.p50Ms)} | ${fmt(row.load.p99Ms)} | ` +
      `${row.load.errors} | ${row.cpuMs === null ? "–" : row.cpuMs.toFixed(2)} | ` +
      `${row.sizes ? kb(row.sizes.js.gzip) : "–"} | ${row.sizes ? kb(row.sizes.css.gzip) : "–"} | ` +
      `${ratioText(ratio)} | ${ratioText(cpuRatio)} |`,
  );
for (const row of rows) {
  const { target, load, sizes, cpuMs } = row;
  const ratio =
    row.vsBaseline?.requests ?? (baseline ? load.requestsPerSecond / baseline.load.requestsPerSecond : undefined);
  const cpuRatio = row.vsBaseline ? row.vsBaseline.cpu : baseline?.cpuMs && cpuMs ? baseline.cpuMs / cpuMs : undefined;
  line(target.name, target.path, row, ratio, cpuRatio);
  if (load.errors > 0) failures.push(`${target.path}: ${load.errors} answers were not ${target.expectStatus ?? 200}`);
  if (sizes && target.budget?.jsGzip !== undefined && sizes.js.gzip > target.budget.jsGzip) {
    failures.push(`${target.path}: JS ${kb(sizes.js.gzip)} gzip exceeds its budget of ${kb(target.budget.jsGzip)}`);
  }
  if (sizes && target.budget?.cssGzip !== undefined && sizes.css.gzip > target.budget.cssGzip) {
    failures.push(`${target.path}: CSS ${kb(sizes.css.gzip)} gzip exceeds its budget of ${kb(target.budget.cssGzip)}`);
  }
  if (ratio !== undefined && target.minThroughputVsBaseline !== undefined && ratio < target.minThroughputVsBaseline) {
    warnings.push(
      `${target.name} (${target.path}): ${ratio.toFixed(2)}× the baseline's requests/s (${ratioText(cpuRatio)} by CPU per request), below ${target.minThroughputVsBaseline}×`,
    );
  }
}
if (baseline) line("bare React Router (baseline)", "/", baseline, 1, 1);

if (nodeRows.length > 0) {
  // "vs Worker" is the Node server's requests/s over the Worker build's on the same target, same run.
  console.log("\nThe Node server (build-node/, libSQL file) on the same targets:\n");
  console.log("| target | path | req/s | p50 ms | p99 ms | errors | CPU ms/req | vs Worker | vs baseline |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const [index, row] of nodeRows.entries()) {
    const workerRow = rows[index];
    const vsWorker = workerRow ? row.load.requestsPerSecond / workerRow.load.requestsPerSecond : undefined;
    const vsBaseline = baseline ? row.load.requestsPerSecond / baseline.load.requestsPerSecond : undefined;
    console.log(
      `| ${row.target.name} | \`${row.target.path}\` | ${fmt(row.load.requestsPerSecond)} | ${fmt(row.load.p50Ms)} | ` +
        `${fmt(row.load.p99Ms)} | ${row.load.errors} | ${row.cpuMs === null ? "–" : row.cpuMs.toFixed(2)} | ` +
        `${ratioText(vsWorker)} | ${ratioText(vsBaseline)} |`,
    );
    if (row.load.errors > 0) {
      failures.push(`Node ${row.target.path}: ${row.load.errors} answers were not ${row.target.expectStatus ?? 200}`);
    }
    if (row.target.kind === "page" && vsWorker !== undefined && vsWorker < 1) {
      warnings.push(`Node ${row.target.path}: ${vsWorker.toFixed(2)}× the Worker build's requests/s, below 1×`);
    }
  }
}

if (worker) {
  console.log(
    `\nWorker bundle (build/server/**/*.js): ${kib(worker.raw)} raw, **${kib(worker.gzip)} gzip** ` +
      `(budget ${kib(WORKER_BUNDLE_BUDGET)})${baseline ? `; baseline ${kib(baseline.worker.gzip)} gzip` : ""}.`,
  );
  if (worker.gzip > WORKER_BUNDLE_BUDGET) {
    failures.push(`Worker bundle ${kib(worker.gzip)} gzip exceeds its budget of ${kib(WORKER_BUNDLE_BUDGET)}`);
  }
}

// The first view over a connection cut after ~16 KB: the HTML (brotli) and the CSS (brotli) must each fit.
const weighed = [
  ...(rows.length > 0 ? rows : nodeRows).flatMap((row) =>
    row.sizes ? [{ name: row.target.name, path: row.target.path, sizes: row.sizes }] : [],
  ),
  ...firstViews,
];
if (weighed.length > 0) {
  console.log(
    `\nFirst view (${rows.length > 0 ? "Worker build" : "Node server"}; budget ${kb(FIRST_VIEW_BUDGET)} each, brotli):\n`,
  );
  console.log("| page | path | HTML raw | HTML brotli | CSS raw | CSS brotli | CSS files | fits |");
  console.log("|---|---|---:|---:|---:|---:|---:|---|");
  for (const { name, path, sizes } of weighed) {
    const fits = sizes.html.brotli <= FIRST_VIEW_BUDGET && sizes.css.brotli <= FIRST_VIEW_BUDGET;
    console.log(
      `| ${name} | \`${path}\` | ${kb(sizes.html.raw)} | ${kb(sizes.html.brotli)} | ${kb(sizes.css.raw)} | ` +
        `${kb(sizes.css.brotli)} | ${sizes.css.files.length} | ${fits ? "yes" : "**no**"} |`,
    );
    if (!fits) warnings.push(`${path} (${name}): the first view's HTML or CSS is over ${kb(FIRST_VIEW_BUDGET)} brotli`);
  }
}
if (workerScaleRows.length > 0) warnings.push(...scaleReport(workerScaleRows, "Worker"));
if (scaleRows.length > 0) warnings.push(...scaleReport(scaleRows));

for (const { target, sizes } of rows) {
  if (!sizes) continue;
  console.log(`\n${target.path} loads ${sizes.js.files.length} JS files, ${sizes.css.files.length} CSS files:`);
  for (const file of [...sizes.js.files, ...sizes.css.files]) {
    console.log(`  ${kb(file.gzip).padStart(9)} gzip  ${new URL(file.url).pathname}`);
  }
}
for (const warning of warnings) console.log(`WARNING ${warning}`);
for (const failure of failures) console.log(`FAIL ${failure}`);
if (failures.length > 0) process.exit(1);
console.log("\nAll size budgets met.");
