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
