// The shop as an owner runs it on the first day, on an empty database with production settings, with
// Steam and YooKassa at network addresses speaking their real protocols (tests/fakes). Nothing here
// is on the stand-ins, which production refuses. Two shapes:
// - node: the Node build behind Caddy terminating TLS with the README's Caddyfile, migrated at start;
// - worker: the Worker build in workerd (`vite preview`) over TLS, as Cloudflare's edge hands it
//   https requests, on a local D1 that only the migrations have touched.
import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { servePreview, stopSite } from "../e2e/site.ts";
import { type BoundaryServer, startBoundaryServer } from "./boundary-server.ts";
import { type Caddy, startCaddy } from "./caddy.ts";
import { ownerEnvInCheckout } from "./owner-env.ts";
import { rows as rowsOf } from "./owner-site.ts";

/** The shop's public name; browsers and the notification sender resolve it to this machine. */
export const SHOP_HOST = "shop.example.ru";
export const ADMIN_STEAM_ID = "76561198000000001";

export type Shape = "node" | "worker";

export interface ProductionSite {
  shape: Shape;
  publicUrl: string;
  /** The same site under a name the game server's machine resolves by itself. */
  pluginUrl: string;
  /** The certificate served for pluginUrl (PEM, leaf first): what the game server's machine trusts. */
  pluginCertificate: string;
  /** The authority that certificate chains to (PEM; the certificate itself when self-signed). */
  pluginAuthority: string;
  boundary: BoundaryServer;
  /** Rows of a query on the site's database, read from its file. */
  rows(sql: string): Promise<unknown[][]>;
  /** A request to the public address, trusting its certificate as a visitor trusts a real one. */
  https(path: string, init?: HttpsInit): Promise<HttpsAnswer>;
  /** Node only: stops the server (SIGTERM), runs `meanwhile` while none listens, and starts it again. */
  restart<T>(meanwhile: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export interface HttpsInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Production's settings, with Steam and YooKassa at the boundary server. */
function productionSettings(publicUrl: string, boundary: BoundaryServer): Record<string, string> {
  return {
    APP_ENV: "production",
    PUBLIC_URL: publicUrl,
    DISCORD_URL: "https://discord.gg/rustfree",
    SESSION_SECRET: "production-shape-session-secret-0123456789abcdef",
    GAME_KEY_SECRET: "production-shape-game-key-secret-0123456789abcdef",
    ADMIN_STEAM_IDS: ADMIN_STEAM_ID,
    SELLER_NAME: "ИП Петров Пётр Петрович",
    SELLER_INN: "500100732259",
    SUPPORT_EMAIL: "support@shop.example.ru",
    ...boundary.env(),
  };
}

function httpsTo(publicUrl: string, trusted: string) {
  const ca = readFileSync(trusted);
  return (path: string, init: HttpsInit = {}) =>
    new Promise<HttpsAnswer>((done, fail) => {
      const request = httpsRequest(
        new URL(path, publicUrl),
        {
          method: init.method ?? "GET",
          headers: init.headers,
          ca,
          // The shop's name is this machine, as DNS would say for a real one.
          lookup: (_host, options, callback) => {
            if ((options as { all?: boolean }).all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
            else (callback as (error: null, address: string, family: number) => void)(null, "127.0.0.1", 4);
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => done({ status: response.statusCode ?? 0, headers: response.headers, text }));
        },
      );
      request.on("error", fail);
      request.end(init.body);
    });
}

/** A boundary server whose «Оплатить» notifies the site once `https` is known. */
async function boundaryFor(): Promise<{ boundary: BoundaryServer; connect(https: ReturnType<typeof httpsTo>): void }> {
  let send: ((body: string) => Promise<number>) | null = null;
  const boundary = await startBoundaryServer(async (body) => {
    if (!send) throw new Error("the site is not up yet");
    return send(body);
  });
  return {
    boundary,
    connect(https) {
      send = async (body) =>
        (
          await https("/api/payment/webhook/yookassa", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          })
        ).status;
    },
  };
}

export function startProductionSite(shape: Shape): Promise<ProductionSite> {
  return shape === "node" ? nodeBehindCaddy() : workerOverTls();
}

async function nodeBehindCaddy(): Promise<ProductionSite> {
  const nodePort = await freePort();
  const folder = mkdtempSync(join(tmpdir(), "site-production-"));
  const { boundary, connect } = await boundaryFor();
  const caddy: Caddy = await startCaddy([SHOP_HOST, "localhost"], nodePort);
  const publicUrl = `https://${SHOP_HOST}:${caddy.port}`;
  const https = httpsTo(publicUrl, caddy.rootCertificate);
  connect(https);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: String(nodePort),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${join(folder, "data", "site.db")}`,
    MIGRATE_ON_START: "1",
    TRUST_PROXY: "1",
    ...productionSettings(publicUrl, boundary),
  };
  let node: NodeServer = await serveNodeSite(env, folder);
  const stopNode = async () => {
    if (node.process.exitCode !== null || !node.process.pid) return;
    const exited = new Promise((done) => node.process.once("exit", done));
    process.kill(-node.process.pid, "SIGTERM");
    await exited;
  };
  return {
    shape: "node",
    publicUrl,
    pluginUrl: `https://localhost:${caddy.port}`,
    pluginCertificate: caddy.certificateOf("localhost"),
    pluginAuthority: caddy.rootCertificate,
    boundary,
    rows: (sql) => rowsOf(join(folder, "data", "site.db"), sql),
    https,
    async restart(meanwhile) {
      await stopNode();
      const waiting = meanwhile();
      node = await serveNodeSite(env, folder);
      return waiting;
    },
    async stop() {
      await stopNode();
      await caddy.stop();
      await boundary.stop();
    },
  };
}

/** A certificate of the test's own for the shop's name and localhost, as Cloudflare's edge has a real one. */
function edgeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "edge.crt");
  const key = join(dir, "edge.key");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      `/CN=${SHOP_HOST}`,
      "-addext",
      `subjectAltName=DNS:${SHOP_HOST},DNS:localhost`,
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

/** The Worker's build keeps no copy of `.env`'s secrets (the Cloudflare plugin's build/server/.dev.vars). */
function assertNoEnvCopied(): void {
  const env = readFileSync(".env", "utf8");
  const secrets = env
    .split("\n")
    .map((line) => line.split("=").slice(1).join("=").trim())
    .filter((value) => value.length >= 16);
  for (const folder of ["build/server", "build/client"]) {
    const devVars = join(folder, ".dev.vars");
    const copied = existsSync(devVars) ? readFileSync(devVars, "utf8") : "";
    for (const secret of secrets) {
      if (copied.includes(secret)) throw new Error(`${devVars} holds a secret from .env`);
    }
  }
}

async function workerOverTls(): Promise<ProductionSite> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "site-production-worker-"));
  const state = join(dir, "state");
  const publicUrl = `https://${SHOP_HOST}:${port}`;
  const { boundary, connect } = await boundaryFor();
  const tls = edgeCertificate(dir);
  const https = httpsTo(publicUrl, tls.cert);
  connect(https);
  // On Workers the client's address is Cloudflare's CF-Connecting-IP, which no local server sets: the
  // notification's sender is checked by asking YooKassa about the payment instead.
  const vars = { ...productionSettings(publicUrl, boundary), YOOKASSA_TRUSTED_IPS: "", EXPORT_ROWS_PER_FILE: "10000" };
  const env = {
    ...process.env,
    CLOUDFLARE_ENV: "e2e",
    WRANGLER_SEND_METRICS: "false",
    E2E_VARS: JSON.stringify(vars),
    E2E_TLS_CERT: tls.cert,
    E2E_TLS_KEY: tls.key,
  };
  const removeOwnerEnv = ownerEnvInCheckout();
  let server: ChildProcess;
  try {
    execFileSync(resolve("node_modules/.bin/react-router"), ["build"], { stdio: ["ignore", "ignore", "inherit"], env });
    assertNoEnvCopied();
    // An empty D1: the migrations only, as `wrangler d1 migrations apply` leaves a new database.
    execFileSync(
      resolve("node_modules/.bin/wrangler"),
      ["d1", "migrations", "apply", "DB", "--local", "--env", "e2e", "--persist-to", state],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...env, CI: "true" } },
    );
    server = await servePreview({
      port,
      stateDir: state,
      readyUrl: `${publicUrl}/api/server-types`,
      ready: async () => (await https("/api/server-types")).status === 200,
      env,
    });
  } catch (error) {
    removeOwnerEnv();
    throw error;
  }
  const d1File = () => {
    const folder = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
    const file = existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith(".sqlite")) : undefined;
    if (!file) throw new Error(`no local D1 file in ${folder}`);
    return join(folder, file);
  };
  return {
    shape: "worker",
    publicUrl,
    pluginUrl: `https://localhost:${port}`,
    pluginCertificate: tls.cert,
    pluginAuthority: tls.cert,
    boundary,
    rows: (sql) => rowsOf(d1File(), sql),
    https,
    restart: () => Promise.reject(new Error("a Worker is not restarted by its owner")),
    async stop() {
      stopSite(server);
      await boundary.stop();
      removeOwnerEnv();
    },
  };
}
