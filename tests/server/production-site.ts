// The shop as an owner runs it on the first day: the Node build with production settings over an
// empty database migrated at start, Caddy in front terminating TLS (the README's Caddyfile), and
// Steam and YooKassa at network addresses speaking their real protocols (tests/fakes). Nothing here is
// on the stand-ins, which production refuses.
import { mkdtempSync, readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { type BoundaryServer, startBoundaryServer } from "../fakes/boundary-server.ts";
import { type Caddy, startCaddy } from "./caddy.ts";

/** The shop's public name; browsers and the notification sender resolve it to this machine. */
export const SHOP_HOST = "shop.example.ru";
export const ADMIN_STEAM_ID = "76561198000000001";

export interface ProductionSite {
  publicUrl: string;
  /** The same proxy under a name the game server's machine resolves by itself. */
  pluginUrl: string;
  caddy: Caddy;
  boundary: BoundaryServer;
  node: NodeServer;
  /** Stops the Node server (SIGTERM), runs `meanwhile` while none listens, and starts it again. */
  restart<T>(meanwhile: () => Promise<T>): Promise<T>;
  /** What the site's folder holds: the database file, under data/. */
  folder: string;
  /** A request to the public address through Caddy, trusting its CA as a visitor trusts a real one. */
  https(
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<HttpsAnswer>;
  stop(): Promise<void>;
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function httpsThrough(caddy: Caddy, publicUrl: string) {
  const ca = readFileSync(caddy.rootCertificate);
  return (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<HttpsAnswer>((done, fail) => {
      const url = new URL(path, publicUrl);
      const request = httpsRequest(
        url,
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

export async function startProductionSite(): Promise<ProductionSite> {
  const nodePort = await freePort();
  const folder = mkdtempSync(join(tmpdir(), "site-production-"));
  // The site's address is Caddy's, known only once Caddy has its port; the notification sender needs both.
  let send: ((body: string) => Promise<number>) | null = null;
  const boundary = await startBoundaryServer(async (body) => {
    if (!send) throw new Error("the site is not up yet");
    return send(body);
  });
  const caddy = await startCaddy([SHOP_HOST, "localhost"], nodePort);
  const publicUrl = `https://${SHOP_HOST}:${caddy.port}`;
  const https = httpsThrough(caddy, publicUrl);
  send = async (body) =>
    (
      await https("/api/payment/webhook/yookassa", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      })
    ).status;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: String(nodePort),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${join(folder, "data", "site.db")}`,
    MIGRATE_ON_START: "1",
    TRUST_PROXY: "1",
    APP_ENV: "production",
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: "production-shape-session-secret-0123456789abcdef",
    GAME_KEY_SECRET: "production-shape-game-key-secret-0123456789abcdef",
    ADMIN_STEAM_IDS: ADMIN_STEAM_ID,
    SELLER_NAME: "ИП Петров Пётр Петрович",
    SELLER_INN: "500100732259",
    SUPPORT_EMAIL: "support@shop.example.ru",
    ...boundary.env(),
  };
  let node = await serveNodeSite(env, folder);
  const stopNode = async () => {
    if (node.process.exitCode !== null || !node.process.pid) return;
    const exited = new Promise((done) => node.process.once("exit", done));
    process.kill(-node.process.pid, "SIGTERM");
    await exited;
  };
  return {
    publicUrl,
    pluginUrl: `https://localhost:${caddy.port}`,
    caddy,
    boundary,
    get node() {
      return node;
    },
    folder,
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
