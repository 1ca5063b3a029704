// Samples the server's CPU while one bench target is under load, through its inspector (Chrome DevTools
// protocol), and prints where the time went: by package (or chunk of the build) and by function, self time.
//   node bench/profile.ts --target profile [--runtime worker|node] [--seconds 8] [--skip-build] [--save out.cpuprofile]
// Ports: E2E_PORT (the Worker build), BENCH_NODE_PORT (the Node server), BENCH_INSPECTOR_PORT (the inspector).
// worker (the default): the Worker build in workerd under `vite preview`, as `npm run bench` measures it.
// Its inspector sits behind miniflare's proxy, which accepts a client that names a local Origin (as
// DevTools does); D1's own work runs in another isolate and is not in the samples. node: the Node
// server over libSQL (in the process, so in the samples).
// A profile explains a ratio in docs/PERFORMANCE.md; it is no target.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildNodeSite, freshNodeDatabase, localSiteEnv, serveNodeSite } from "../tests/e2e/node-site.ts";
import { buildSite, E2E_ORIGIN, E2E_PORT, fireCron, freshState, servePreview, stopSite } from "../tests/e2e/site.ts";
import { loadAdminVolume } from "./admin-volume.ts";
import { loadAdminVolumeLibsql } from "./export.ts";
import { runLoad } from "./load.ts";
import { targets } from "./targets.ts";

const { values: args } = parseArgs({
  options: {
    target: { type: "string", default: "profile" },
    runtime: { type: "string", default: "worker" },
    seconds: { type: "string", default: "8" },
    "skip-build": { type: "boolean", default: false },
    save: { type: "string" },
  },
});
const worker = args.runtime === "worker";
if (!worker && args.runtime !== "node") throw new Error("--runtime is worker or node");
const PORT = Number(process.env.BENCH_NODE_PORT ?? 8792);
const ORIGIN = worker ? E2E_ORIGIN : `http://localhost:${PORT}`;
// Node's inspector is opened here; workerd's is opened here too (vite.config.ts's SITE_INSPECTOR_PORT), so a
// profile never samples another checkout's preview that took the Cloudflare plugin's default first.
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT ?? (worker ? 9229 : 9339));

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const target = targets.find((candidate) => candidate.name === args.target);
if (!target) throw new Error(`no target named ${args.target}; see bench/targets.ts`);

const stop = worker ? await startWorker() : await startNode();
try {
  const request = (await target.prepare?.({ origin: ORIGIN })) ?? {};
  const load = (ms: number) =>
    runLoad({ url: ORIGIN + target.path, request, connections: 10, durationMs: ms, expectStatus: target.expectStatus });
  await load(2000);
  const profile = await sampleWhile(() => load(Number(args.seconds) * 1000));
  if (args.save) writeFileSync(args.save, JSON.stringify(profile));
  report(profile);
} finally {
  stop();
}

async function startWorker(): Promise<() => void> {
  if (!args["skip-build"]) buildSite();
  const stateDir = freshState(".bench-state/profile-worker");
  if (target?.name === "admin") loadAdminVolume(stateDir);
  const site = await servePreview({
    stateDir,
    port: E2E_PORT,
    readyUrl: `${E2E_ORIGIN}/api/server-types`,
    env: { ...process.env, CLOUDFLARE_ENV: "e2e", SITE_INSPECTOR_PORT: String(INSPECTOR_PORT) },
  });
  await fireCron();
  return () => stopSite(site);
}

async function startNode(): Promise<() => void> {
  if (!args["skip-build"]) buildNodeSite();
  const databaseUrl = freshNodeDatabase(".bench-state/profile-node");
  if (target?.name === "admin") await loadAdminVolumeLibsql(databaseUrl);
  const server = await serveNodeSite({
    ...localSiteEnv(PORT, databaseUrl),
    NODE_OPTIONS: `--inspect=127.0.0.1:${INSPECTOR_PORT}`,
  });
  return () => process.kill(-(server.process.pid ?? 0));
}

/** Profiles the server while `work` runs. */
async function sampleWhile(work: () => Promise<unknown>): Promise<Profile> {
  const [inspector] = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  if (!inspector) throw new Error(`no inspector on port ${INSPECTOR_PORT}`);
  // Node's WebSocket takes headers beside the standard options; miniflare's proxy refuses a client without a local Origin.
  const socket = new WebSocket(inspector.webSocketDebuggerUrl, {
    headers: { origin: "http://localhost" },
  } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  await send("Profiler.start");
  await work();
  const { profile } = (await send("Profiler.stop")) as { profile: Profile };
  socket.close();
  return profile;
}

/** Self time by package (or our own source folder) and the functions that spent the most. */
function report(profile: Profile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const idle = [...self.entries()]
    .filter(([id]) => ["(idle)", "(program)"].includes(byId.get(id)?.callFrame.functionName ?? ""))
    .reduce((sum, [, value]) => sum + value, 0);
  const busy = total - idle;
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, time] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || ["(idle)", "(program)"].includes(frame.functionName)) continue;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + time);
    const name = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + time);
  }
  const percent = (value: number) => `${((value / busy) * 100).toFixed(1)} %`;
  console.log(`\n${target?.name}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms sampled\n`);
  for (const [group, time] of [...groups].toSorted((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${percent(time).padStart(8)}  ${group}`);
  }
  console.log("\nFunctions, self time:");
  for (const [name, time] of [...functions].toSorted((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${percent(time).padStart(8)}  ${name}`);
  }
}

function shortUrl(url: string): string {
  return url.replace(/^.*\/(build-node|build|node_modules)\//, "$1/");
}

/** A package from node_modules, or the file of the build. */
function groupOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModule) return nodeModule[1] ?? url;
  return shortUrl(url);
}
