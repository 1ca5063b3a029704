// A site on a real host sees every request at PUBLIC_URL, whatever address the request came to: the
// Node server behind a TLS proxy gets `http://` and the proxy's Host, yet a signed plugin request and a
// form posted from the https page must both work (issue 34). Only a visitor who came in plain text
// keeps `http:`. The whole shape, through Caddy, is tests/server/production-shape.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { depsFor } from "#tests/support/deps.ts";
import { createGameServer } from "#tests/support/game-fixtures.ts";
import { platformFor } from "#tests/support/platform.ts";
import { signRequest } from "#tests/support/plugin-simulator.ts";
import { firstRow } from "#tests/support/sql.ts";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import type { Settings } from "#worker/settings.ts";

const PUBLIC_URL = "https://shop.example.ru";

const production: Settings = {
  ...(env as unknown as Settings),
  APP_ENV: "production",
  PUBLIC_URL,
  STEAM_WEBAPI_BASE: "https://api.steampowered.com",
  STEAM_OPENID_ENDPOINT: "https://steamcommunity.com/openid/login",
  STEAM_API_KEY: "0123456789ABCDEF0123456789ABCDEF",
  SESSION_SECRET: "a-production-session-secret-of-48-characters-xx",
  GAME_KEY_SECRET: "a-production-game-key-secret-of-48-characters-x",
  PAYMENT_PROVIDER: "yookassa",
  YOOKASSA_SHOP_ID: "123456",
  YOOKASSA_SECRET_KEY: "live_0123456789",
};

/** The site with production settings; `plainText` is what the runtime knows of how the visitor came. */
function productionSite(plainText?: (request: Request) => boolean) {
  const seen: string[] = [];
  const platform = { ...platformFor(env as Env), settings: production };
  const app = createApp({
    pageHandler: async (request) => {
      seen.push(request.url);
      return new Response("page");
    },
    platform: () => platform,
    ...(plainText ? { plainText } : {}),
  });
  return { app, seen, deps: depsFor(env as Env, {}), platform };
}

async function signedHeartbeat(url: string, serverId: number, key: string): Promise<Request> {
  const beat = { hostname: "h", players: 1, max_players: 10, queue: 0, map: "Procedural Map", online: [] };
  const signed = await signRequest(key, "/api/game/heartbeat", JSON.stringify(beat), Math.floor(Date.now() / 1000));
  return new Request(`${url}${signed.path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-server-id": String(serverId),
      "x-timestamp": String(signed.timestamp),
      "x-signature": signed.signature,
    },
    body: signed.body,
  });
}

describe("the public origin in production", () => {
  it("puts a page request at PUBLIC_URL's scheme and host, as React Router and the pages read it", async () => {
    // As the Node server sees a request that Caddy passed on: plain HTTP, the Host kept or the proxy's own.
    const site = productionSite(() => false);
    await site.app.fetch(new Request("http://127.0.0.1:3000/shop?server_type=MAX2"));
    await site.app.fetch(new Request("http://shop.example.ru/profile"));
    expect(site.seen).toEqual([`${PUBLIC_URL}/shop?server_type=MAX2`, `${PUBLIC_URL}/profile`]);
  });

  it("accepts a signed plugin request that a TLS proxy passed on as plain HTTP", async () => {
    const site = productionSite(() => false);
    const deps = depsFor(env as Env, {});
    const server = await createGameServer({
      ...deps,
      config: { ...deps.config, gameKeySecret: production.GAME_KEY_SECRET ?? "" },
    });
    const response = await site.app.fetch(await signedHeartbeat("http://shop.example.ru", server.id, server.key));
    expect(response.status).toBe(200);
    expect(await firstRow("SELECT players FROM server_heartbeats WHERE server_id = ?", server.id)).toEqual({
      players: 1,
    });
  });

  it("still refuses a plugin request that came in plain text, even to a loopback name", async () => {
    const deps = depsFor(env as Env, {});
    const server = await createGameServer({
      ...deps,
      config: { ...deps.config, gameKeySecret: production.GAME_KEY_SECRET ?? "" },
    });
    // The Worker's own URL says how the visitor came (the default rule), and so does a trusted proxy on Node.
    for (const site of [productionSite(), productionSite(() => true)]) {
      const response = await site.app.fetch(await signedHeartbeat("http://localhost", server.id, server.key));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "Требуется HTTPS" });
    }
    expect(await firstRow("SELECT players FROM server_heartbeats WHERE server_id = ?", server.id)).toBeNull();
  });

  it("keeps a plain-text visitor's page at http, so a form posted over it is checked against its own origin", async () => {
    const site = productionSite(() => true);
    await site.app.fetch(new Request("http://127.0.0.1:3000/terms"));
    expect(site.seen).toEqual(["http://shop.example.ru/terms"]);
  });
});
