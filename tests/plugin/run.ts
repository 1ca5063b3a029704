// `npm run test:plugin:e2e`: the real plugin (compiled by mono) against the running site, on the
// Worker build (workerd, local D1) and then on the Node server (libSQL), each with fresh seeded
// data. Runs tests/plugin/*.test.ts once per runtime. Without mono it skips with a notice, unless
// REQUIRE_MCS=1 (CI), where that is a failure. PLUGIN_REUSE_BUILD=1 serves the builds that
// `npm run test:e2e` and `test:e2e:node` just made instead of building again. While working on one
// scenario: PLUGIN_RUNTIMES=node (or worker) runs one runtime, PLUGIN_TEST_PATTERN=… only the
// scenarios whose names match. Ports: E2E_PORT for the Worker build (8788 unless set), PLUGIN_NODE_PORT
// for the Node server (a free one unless set); the control address and the proxies take free ones.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { buildNodeSite, freePort, freshNodeDatabase, localSiteEnv, serveNodeSite } from "../e2e/node-site.ts";
import { buildSite, d1File, E2E_ORIGIN, freshState, serveSite, stopSite } from "../e2e/site.ts";
import { NODE_TEST_ARGS } from "../support/node-test-args.ts";
import { buildHarness, monoAvailable } from "./harness.ts";

if (!monoAvailable()) {
  if (process.env.REQUIRE_MCS === "1") {
    console.error("tests/plugin: mono not found (apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev)");
    process.exit(1);
  }
  console.log(
    "tests/plugin: mono not found, skipping the real-plugin scenarios (apt-get install mono-mcs mono-runtime)",
  );
  process.exit(0);
}
buildHarness();

const only = process.argv.slice(2);
const files = (only.length ? only : readdirSync("tests/plugin").filter((file) => file.endsWith(".test.ts"))).map(
  (file) => (file.startsWith("tests/") ? file : `tests/plugin/${file}`),
);
const reuse = process.env.PLUGIN_REUSE_BUILD === "1";

/**
 * Scenarios about the plugin's own work (its answers to the site's answers, Rust's save, its journal,
 * Oxide's rules, a power loss): the site's side of them is one request at a time, the same on both
 * runtimes, so they run against the Worker build only (decision 145). Every other file, a new one too,
 * runs on Node as well: the chaos run, exactly once across a restore, split ranks, «до вайпа».
 */
const WORKER_BUILD_ONLY = [
  "answers.test.ts",
  "faults.test.ts",
  "oxide-semantics.test.ts",
  "power-loss.test.ts",
  "saves.test.ts",
];
const filesFor = (runtime: string) =>
  only.length || runtime === "worker"
    ? files
    : files.filter((file) => !WORKER_BUILD_ONLY.some((name) => file.endsWith(`/${name}`)));

/**
 * The chaos run (chaos.test.ts) kills the site and starts it again over the same data: POST /restart
 * on this control address SIGKILLs the site's process group and answers once it serves again.
 */
async function siteControl(restart: () => Promise<void>): Promise<{ url: string; close: () => void }> {
  const control = createServer((request, response) => {
    if (request.method !== "POST" || request.url !== "/restart") {
      response.writeHead(404).end();
      return;
    }
    restart().then(
      () => response.writeHead(200).end("restarted"),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((done) => control.listen(0, "127.0.0.1", () => done()));
  const { port } = control.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => control.close() };
}

async function killHard(site: ChildProcess): Promise<void> {
  if (!site.pid || site.exitCode !== null) return;
  const exited = new Promise((done) => site.once("exit", done));
  try {
    process.kill(-site.pid, "SIGKILL");
  } catch {
    // already gone
  }
  await exited;
}

function runScenarios(runtime: string, origin: string, databaseUrl: string, control: string): Promise<number> {
  console.log(`\n# the real plugin against the ${runtime} runtime (${origin})`);
  const pattern = process.env.PLUGIN_TEST_PATTERN ? [`--test-name-pattern=${process.env.PLUGIN_TEST_PATTERN}`] : [];
  // Asynchronous, so this process keeps answering the control address while the scenarios run.
  const child = spawn(process.execPath, [...NODE_TEST_ARGS, ...pattern, ...filesFor(runtime)], {
    stdio: "inherit",
    env: {
      ...process.env,
      PLUGIN_RUNTIME: runtime,
      PLUGIN_SITE_ORIGIN: origin,
      PLUGIN_DATABASE_URL: databaseUrl,
      PLUGIN_SITE_CONTROL: control,
    },
  });
  return new Promise((done) => child.once("exit", (code) => done(code ?? 1)));
}

let status = 0;
const runtimes = (process.env.PLUGIN_RUNTIMES ?? "worker,node").split(",");

if (runtimes.includes("worker")) {
  if (!reuse || !existsSync("build/server")) buildSite();
  const stateDir = freshState(".plugin-state");
  let worker = await serveSite(stateDir);
  const control = await siteControl(async () => {
    await killHard(worker);
    worker = await serveSite(stateDir);
  });
  try {
    status = (await runScenarios("worker", E2E_ORIGIN, d1File(".plugin-state"), control.url)) || status;
  } finally {
    control.close();
    stopSite(worker);
  }
}

if (runtimes.includes("node")) {
  if (!reuse || !existsSync("build-node/server")) buildNodeSite();
  // PLUGIN_NODE_PORT keeps two runs on one machine apart; unset, any free port.
  const port = process.env.PLUGIN_NODE_PORT ? Number(process.env.PLUGIN_NODE_PORT) : await freePort();
  const databaseUrl = freshNodeDatabase(".plugin-node-state");
  const env = localSiteEnv(port, databaseUrl);
  let node = await serveNodeSite(env);
  const control = await siteControl(async () => {
    await killHard(node.process);
    node = await serveNodeSite(env);
  });
  try {
    status = (await runScenarios("node", `http://localhost:${port}`, databaseUrl, control.url)) || status;
  } finally {
    control.close();
    stopSite(node.process);
  }
}
process.exit(status);
