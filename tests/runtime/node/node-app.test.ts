// What only the Node runtime does for the site: a key-value store with expiry in libSQL, and the
// client's address taken from the connection or a trusted proxy rather than from the client.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { libsqlKeyValueStore } from "#worker/adapters/libsql.ts";
import { createNodeApp } from "#worker/node/app.ts";
import { client, ports } from "./database.ts";
import { testSettings } from "./settings.ts";

describe("the key-value store in libSQL", () => {
  it("keeps a value until its expiry, then answers null", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const kv = libsqlKeyValueStore(client, () => now);
    await kv.put("server-status:v1", '{"servers":[]}', { expirationTtlSeconds: 120 });
    await kv.put("forever", "1");
    expect(await kv.get("server-status:v1")).toBe('{"servers":[]}');
    now += 121_000;
    expect(await kv.get("server-status:v1")).toBeNull();
    expect(await kv.get("forever")).toBe("1");
    expect(await kv.get("never-written")).toBeNull();
  });
});

describe("the client's address on Node", () => {
  const seen = (trustProxy: boolean) => {
    let address: string | null = "unset";
    const app = createNodeApp({
      pageHandler: async (request) => {
        address = request.headers.get("cf-connecting-ip");
        return new Response("ok");
      },
      platform: { ...ports, settings: testSettings },
      clientDir: mkdtempSync(join(tmpdir(), "site-client-")),
      trustProxy,
    });
    return async (headers: Record<string, string>) => {
      expect((await app.fetch(new Request("http://localhost/terms", { headers }))).status).toBe(200);
      return address;
    };
  };

  it("is never what the client claims in CF-Connecting-IP", async () => {
    expect(await seen(false)({ "cf-connecting-ip": "6.6.6.6" })).toBeNull();
    expect(await seen(false)({ "x-forwarded-for": "6.6.6.6" })).toBeNull();
  });

  it("is the hop a trusted proxy appended last to X-Forwarded-For", async () => {
    expect(await seen(true)({ "cf-connecting-ip": "6.6.6.6", "x-forwarded-for": "6.6.6.6, 203.0.113.7" })).toBe(
      "203.0.113.7",
    );
  });
});

describe("how the visitor came, on Node behind a proxy", () => {
  const production = {
    ...testSettings,
    APP_ENV: "production",
    PUBLIC_URL: "https://shop.example.ru",
    STEAM_WEBAPI_BASE: "https://api.steampowered.com",
    STEAM_OPENID_ENDPOINT: "https://steamcommunity.com/openid/login",
    SESSION_SECRET: "a-production-session-secret-of-48-characters-xx",
    GAME_KEY_SECRET: "a-production-game-key-secret-of-48-characters-x",
    PAYMENT_PROVIDER: "yookassa",
  } as const;
  const seen = (trustProxy: boolean) => {
    let url = "unset";
    const app = createNodeApp({
      pageHandler: async (request) => {
        url = request.url;
        return new Response("ok");
      },
      platform: { ...ports, settings: production },
      clientDir: mkdtempSync(join(tmpdir(), "site-client-")),
      trustProxy,
    });
    return async (headers: Record<string, string>) => {
      await app.fetch(new Request("http://shop.example.ru/terms", { headers }));
      return url;
    };
  };

  it("is PUBLIC_URL's scheme when nothing trusted says otherwise", async () => {
    expect(await seen(true)({ "x-forwarded-proto": "https" })).toBe("https://shop.example.ru/terms");
    expect(await seen(true)({})).toBe("https://shop.example.ru/terms");
    // Without TRUST_PROXY a client's own header counts for nothing.
    expect(await seen(false)({ "x-forwarded-proto": "http" })).toBe("https://shop.example.ru/terms");
  });

  it("is plain HTTP when the trusted proxy says the visitor came in plain text", async () => {
    expect(await seen(true)({ "x-forwarded-proto": "https, http" })).toBe("http://shop.example.ru/terms");
  });
});
