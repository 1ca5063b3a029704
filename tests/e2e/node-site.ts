// Builds the Node server (npm run build:node) and runs it on its own port over a fresh seeded libSQL
// file, with the local stand-ins as the Worker's e2e build has them.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export function buildNodeSite(): void {
  execFileSync("npm", ["run", "--silent", "build:node"], { stdio: ["ignore", "ignore", "inherit"] });
}

/** A fresh seeded database in `dir`; answers its DATABASE_URL. `catalogSize`: SOLO items (bench/scale.ts). */
export function freshNodeDatabase(dir: string, catalogSize?: number): string {
  const path = resolve(dir);
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  const url = `file:${join(path, "site.db")}`;
  const size = catalogSize === undefined ? [] : ["--catalog-size", String(catalogSize)];
  execFileSync(process.execPath, ["scripts/seed-local.ts", "--libsql", ...size], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url },
  });
  return url;
}

/** The settings of a Node server on this machine with the stand-ins, as `npm run dev` has them. */
export function localSiteEnv(port: number, databaseUrl: string): NodeJS.ProcessEnv {
  const origin = `http://localhost:${port}`;
  return {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    APP_ENV: "development",
    PUBLIC_URL: origin,
    STEAM_WEBAPI_BASE: `${origin}/__standins/steam-webapi`,
    STEAM_OPENID_ENDPOINT: `${origin}/__standins/steam-openid/login`,
    PAYMENT_PROVIDER: "standin",
    // The seller's details, as the Worker build's e2e vars set them (wrangler.jsonc env.e2e).
    SELLER_NAME: "ИП Иванов Иван Иванович",
    SELLER_INN: "500100732259",
    SUPPORT_EMAIL: "support@rust.example",
  };
}

export interface NodeServer {
  process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

/** Where `npm run build:node` put the server, in the checkout `build` (this one unless told). */
function serverEntry(build = "."): string {
  return resolve(build, "build-node/server/index.js");
}

/**
 * Starts `build-node/server/index.js` (of the checkout `build`, this one unless told) in `cwd`, in its
 * own process group, and waits until it answers.
 */
export async function serveNodeSite(env: NodeJS.ProcessEnv, cwd = ".", build?: string): Promise<NodeServer> {
  const server = spawn(process.execPath, [serverEntry(build)], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  stopWithThisProcess(server);
  let output = "";
  server.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const ready = `http://127.0.0.1:${env.PORT}/api/server-types`;
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`the Node server exited (${server.exitCode}):\n${output}`);
    try {
      if ((await fetch(ready)).ok) return { process: server, output: () => output };
    } catch {
      // not up yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  server.kill("SIGKILL");
  throw new Error(`the Node server did not start:\n${output}`);
}

const running = new Set<ChildProcess>();
let killsOnExit = false;

/**
 * A server a failed test left running dies with the test file's process: its own process group would
 * outlive it, hold its port and keep the runner's pipes open (a CI run once waited out its limit so).
 */
function stopWithThisProcess(server: ChildProcess): void {
  if (!killsOnExit) {
    killsOnExit = true;
    process.once("exit", () => {
      for (const child of running) {
        if (child.exitCode === null && child.signalCode === null && child.pid) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }
    });
  }
  running.add(server);
  server.once("exit", () => running.delete(server));
}

/** Starts the built server where it must refuse to start and waits for it to exit: its code and its stderr. */
export async function refusedStart(
  env: NodeJS.ProcessEnv,
  cwd: string,
  as?: { uid: number; gid: number },
): Promise<{ code: number | null; stderr: string; lines: string[] }> {
  const child = spawn(process.execPath, [serverEntry()], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    ...(as ?? {}),
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  return { code, stderr, lines: stderr.trim().split("\n") };
}

/** A port nobody on this machine listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
