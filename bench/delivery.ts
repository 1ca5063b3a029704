// `npm run bench:delivery`: how soon a purchase reaches an online player (issue 48, decision 148). Serves
// the site as tests/plugin/run.ts does (the Worker build, then the Node server, each over fresh seeded
// data) and runs bench/delivery/measure.ts against it with the doorbell on and off: the real plugin under
// mono at its default intervals, time from the purchase's HTTP 201 to the item in the player's inventory.
// BENCH_RUNTIMES=node (or worker), BENCH_DOORBELL=on (or off), BENCH_PURCHASES (100), BENCH_SPACING_MS (300).
// Not a test: numbers to read.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import { buildNodeSite, freePort, freshNodeDatabase, localSiteEnv, serveNodeSite } from "../tests/e2e/node-site.ts";
import { buildSite, d1File, E2E_ORIGIN, freshState, serveSite, stopSite } from "../tests/e2e/site.ts";
import { buildHarness, monoAvailable } from "../tests/plugin/harness.ts";
import { machineDescription } from "./machine.ts";
import { median } from "./stats.ts";

if (!monoAvailable())
  throw new Error("mono not found (apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev)");
buildHarness();
const reuse = process.env.PLUGIN_REUSE_BUILD === "1";

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Measured {
  doorbell: boolean;
  purchases: number;
  delivered: number;
  spacingMs: number;
  latencies: number[];
}

function measure(runtime: string, origin: string, databaseUrl: string, doorbell: boolean) {
  const output = execFileSync(process.execPath, ["bench/delivery/measure.ts"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      PLUGIN_RUNTIME: runtime,
      PLUGIN_SITE_ORIGIN: origin,
      PLUGIN_DATABASE_URL: databaseUrl,
      BENCH_DOORBELL: doorbell ? "on" : "off",
    },
  });
  const run = JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Measured;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return {
    runtime,
    doorbell: doorbell ? "on" : "off",
    "delivered / bought": `${run.delivered} / ${run.purchases}`,
    "every, ms": run.spacingMs,
    "median, s": seconds(median(run.latencies)),
    "p95, s": seconds(percentile(run.latencies, 95)),
    "max, s": seconds(Math.max(...run.latencies)),
  };
}

const rows: ReturnType<typeof measure>[] = [];
const runtimes = (process.env.BENCH_RUNTIMES ?? "worker,node").split(",");
const modes = (process.env.BENCH_DOORBELL ?? "on,off").split(",").map((mode) => mode === "on");
console.log(
  `${machineDescription()}; load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);

if (runtimes.includes("worker")) {
  if (!reuse || !existsSync("build/server")) buildSite();
  const stateDir = freshState(".bench-delivery-state");
  const worker = await serveSite(stateDir);
  try {
    for (const doorbell of modes) rows.push(measure("worker", E2E_ORIGIN, d1File(stateDir), doorbell));
  } finally {
    stopSite(worker);
  }
}

if (runtimes.includes("node")) {
  if (!reuse || !existsSync("build-node/server")) buildNodeSite();
  const port = process.env.PLUGIN_NODE_PORT ? Number(process.env.PLUGIN_NODE_PORT) : await freePort();
  const databaseUrl = freshNodeDatabase(".bench-delivery-node-state");
  const node = await serveNodeSite(localSiteEnv(port, databaseUrl));
  try {
    for (const doorbell of modes) rows.push(measure("node", `http://localhost:${port}`, databaseUrl, doorbell));
  } finally {
    stopSite(node.process);
  }
}
console.table(rows);
console.log(
  `load average after: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
