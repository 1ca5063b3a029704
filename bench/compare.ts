// Compares this checkout's Worker build with another commit's on one bench target, in interleaved
// rounds on the same machine: each build's workerd CPU per request and requests per second, and the
// ratio of the two round by round (medians). A profile says where time goes, but on a shared machine
// it charges a wait to whatever runs next (PERFORMANCE.md run 12); this says what a change saved.
//   node bench/compare.ts --base <commit> [--target profile] [--rounds 12] [--seconds 2.5]
// Ports: BENCH_COMPARE_PORT (the base's, default 8871) and the next one (this checkout's).
// The other commit is checked out in .bench-state/compare-base (a git worktree, removed afterwards)
// and built, seeded and served from there with this checkout's node_modules.
import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildSite, freshState, servePreview, stopSite } from "../tests/e2e/site.ts";
import { loadAdminVolume } from "./admin-volume.ts";
import { workerdCpuMs } from "./cpu.ts";
import { runLoad } from "./load.ts";
import { median } from "./stats.ts";
import { targets } from "./targets.ts";

const { values: args } = parseArgs({
  options: {
    base: { type: "string" },
    target: { type: "string", default: "profile" },
    rounds: { type: "string", default: "12" },
    seconds: { type: "string", default: "2.5" },
  },
});
if (!args.base) throw new Error("--base <commit> names the build to compare with");
const target = targets.find((candidate) => candidate.name === args.target);
if (!target) throw new Error(`no target named ${args.target}; see bench/targets.ts`);
const rounds = Number(args.rounds);
const measureMs = Number(args.seconds) * 1000;

const BASE_DIR = resolve(".bench-state/compare-base");
const BASE_PORT = Number(process.env.BENCH_COMPARE_PORT ?? 8871);

interface Build {
  name: string;
  dir: string;
  port: number;
  server?: ChildProcess;
  request?: Awaited<ReturnType<NonNullable<typeof target.prepare>>>;
  cpuMs: number[];
  perSecond: number[];
}

const builds: Build[] = [
  { name: `base ${args.base}`, dir: BASE_DIR, port: BASE_PORT, cpuMs: [], perSecond: [] },
  { name: "this checkout", dir: resolve("."), port: BASE_PORT + 1, cpuMs: [], perSecond: [] },
];

checkOutBase(args.base);
try {
  for (const build of builds) await start(build);
  for (let round = 0; round < rounds; round++) {
    // Alternate which build goes first, so neither always runs on the warmer machine.
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) await measure(build, round === 0);
  }
  report();
} finally {
  for (const build of builds) if (build.server) stopSite(build.server);
  execFileSync("git", ["worktree", "remove", "--force", BASE_DIR]);
}

function checkOutBase(commit: string): void {
  if (existsSync(BASE_DIR)) execFileSync("git", ["worktree", "remove", "--force", BASE_DIR]);
  execFileSync("git", ["worktree", "add", "--detach", BASE_DIR, commit], { stdio: "ignore" });
  symlinkSync(resolve("node_modules"), resolve(BASE_DIR, "node_modules"));
}

async function start(build: Build): Promise<void> {
  console.log(`Building and seeding ${build.name}…`);
  buildSite({ cwd: build.dir, port: build.port });
  // Each commit seeds with its own script and migrations.
  const stateDir = freshState(`.bench-state/compare-${build.port}`, undefined, build.dir);
  // The console's summary is measured over the store-sized history, as `npm run bench` measures it.
  if (target?.name === "admin") loadAdminVolume(stateDir);
  const origin = `http://localhost:${build.port}`;
  build.server = await servePreview({
    cwd: build.dir,
    port: build.port,
    stateDir,
    readyUrl: `${origin}/api/server-types`,
    env: { ...process.env, CLOUDFLARE_ENV: "e2e", E2E_PORT: String(build.port) },
  });
  build.request = (await target?.prepare?.({ origin })) ?? {};
}

async function measure(build: Build, first: boolean): Promise<void> {
  const load = (durationMs: number) =>
    runLoad({
      url: `http://localhost:${build.port}${target?.path}`,
      request: build.request,
      connections: 10,
      durationMs,
      expectStatus: target?.expectStatus,
    });
  // The first round warms the JIT up for longer than the rest.
  await load(first ? 6000 : 500);
  const before = workerdCpuMs(build.server?.pid);
  const result = await load(measureMs);
  const after = workerdCpuMs(build.server?.pid);
  if (result.errors > 0) throw new Error(`${build.name}: ${result.errors} errors on ${target?.path}`);
  if (before !== null && after !== null) build.cpuMs.push((after - before) / result.requests);
  build.perSecond.push(result.requestsPerSecond);
}

function report(): void {
  const [base, current] = builds as [Build, Build];
  const pairs = (of: (build: Build) => number[]) => of(current).map((value, i) => value / (of(base)[i] ?? value));
  console.log(`\n${target?.name} (${target?.path}), ${rounds} interleaved rounds of ${args.seconds} s each\n`);
  console.log("| build | CPU ms/req (median) | req/s (median) |");
  console.log("|---|---:|---:|");
  for (const build of builds) {
    const cpu = build.cpuMs.length > 0 ? median(build.cpuMs).toFixed(2) : "–";
    console.log(`| ${build.name} | ${cpu} | ${median(build.perSecond).toFixed(0)} |`);
  }
  const rounded = (values: number[]) => values.map((value) => value.toFixed(3)).join(" ");
  console.log(`\nRound by round, CPU per request: ${rounded(pairs((build) => build.cpuMs))}`);
  console.log(`requests per second: ${rounded(pairs((build) => build.perSecond))}`);
  const cpuRatio = base.cpuMs.length > 0 ? median(pairs((build) => build.cpuMs)).toFixed(3) : "–";
  console.log(`\nThis checkout over the base, median of the rounds' ratios: CPU per request ${cpuRatio}, `);
  console.log(`requests per second ${median(pairs((build) => build.perSecond)).toFixed(3)}.`);
}
