// Builds the site for the "e2e" wrangler environment and serves it with
// `vite preview` (workerd) on its own port and its own fresh local D1/KV.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

// The Worker build's e2e settings (wrangler.jsonc env "e2e") name port 8788; E2E_PORT builds and serves it
// on another (vite.config.ts). The Node server takes any.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
export const E2E_ORIGIN = `http://localhost:${E2E_PORT}`;

const env = { ...process.env, CLOUDFLARE_ENV: "e2e", WRANGLER_SEND_METRICS: "false" };

/**
 * Builds the e2e site; `exportRowsPerFile` replaces wrangler.jsonc's EXPORT_ROWS_PER_FILE in the build,
 * `port` builds it for another port than E2E_PORT, `cwd` builds another checkout (bench/compare.ts).
 */
export function buildSite(options: { exportRowsPerFile?: number; port?: number; cwd?: string } = {}): void {
  const rows =
    options.exportRowsPerFile === undefined ? {} : { E2E_EXPORT_ROWS_PER_FILE: String(options.exportRowsPerFile) };
  const port = options.port === undefined ? {} : { E2E_PORT: String(options.port) };
  execFileSync(resolve("node_modules/.bin/react-router"), ["build"], {
    cwd: options.cwd,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...env, ...rows, ...port },
  });
}

/** Rows a CSV file holds in the browser tests' builds: the seed's two ledger rows already make two parts. */
export const E2E_EXPORT_ROWS_PER_FILE = 1;

/**
 * Fresh seeded local D1/KV in `dir`; `catalogSize`: SOLO items (bench/scale.ts); `cwd`: seeded by another
 * checkout's own script and migrations (bench/compare.ts).
 */
export function freshState(dir: string, catalogSize?: number, cwd?: string): string {
  const path = resolve(dir);
  rmSync(path, { recursive: true, force: true });
  const size = catalogSize === undefined ? [] : ["--catalog-size", String(catalogSize)];
  // Wrangler keeps D1/KV under <persist-to>/v3; the Vite plugin expects the same parent.
  execFileSync(process.execPath, ["scripts/seed-local.ts", "--persist-to", path, "--env", "e2e", ...size], {
    cwd,
    stdio: ["ignore", "ignore", "inherit"],
    env,
  });
  return path;
}

/** Local D1 keeps each database as a SQLite file under the state folder: its `file:` URL. */
export function d1File(stateDir: string): string {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (!file) throw new Error(`no local D1 database in ${dir}`);
  return `file:${resolve(dir, file)}`;
}

export async function serveSite(stateDir: string): Promise<ChildProcess> {
  return servePreview({ stateDir, port: E2E_PORT, readyUrl: `${E2E_ORIGIN}/api/server-types`, env });
}

export interface PreviewOptions {
  /** Where the built project is (its vite config and build/). */
  cwd?: string;
  port: number;
  /** Local D1/KV state (SITE_STATE_DIR). */
  stateDir: string;
  /** Answers 200 once the Worker serves. */
  readyUrl: string;
  /** Whether it serves yet, when a plain fetch of readyUrl can't tell (a certificate of the test's own). */
  ready?: () => Promise<boolean>;
  env?: NodeJS.ProcessEnv;
}

/** Serves a built project with `vite preview` (the Worker in workerd) in its own process group. */
export async function servePreview(options: PreviewOptions): Promise<ChildProcess> {
  const cwd = resolve(options.cwd ?? ".");
  const server = spawn(resolve("node_modules/.bin/vite"), ["preview", "--port", String(options.port), "--strictPort"], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...(options.env ?? process.env), WRANGLER_SEND_METRICS: "false", SITE_STATE_DIR: options.stateDir },
    detached: true,
  });
  let output = "";
  server.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`vite preview in ${cwd} exited:\n${output}`);
    try {
      if (options.ready ? await options.ready() : (await fetch(options.readyUrl)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  stopSite(server);
  throw new Error(`vite preview in ${cwd} did not start:\n${output}`);
}

export function stopSite(server: ChildProcess): void {
  if (server.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

/** Runs the Worker's cron once, as Cloudflare would each minute. */
export async function fireCron(): Promise<void> {
  const response = await fetch(`${E2E_ORIGIN}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  if (!response.ok) throw new Error(`cron answered ${response.status}`);
}
