import { describe, expect, it } from "vitest";
import { LOCAL_DEV_KEY_HASHES, localDevKey, serverKeysSeedSql } from "#db/seed/server-keys.ts";
import { seedServers } from "#db/seed/servers.ts";
import { renderCommand, sanitizeCommandValue } from "#worker/services/game/commands.ts";
import { generateServerKey, hashServerKey, hmacHex, importSigningKey } from "#worker/services/game/keys.ts";
import { queueResponseSignature, queueResponseSignatureV2 } from "#worker/services/game/response-signature.ts";
import { canonicalRequest } from "#worker/services/game/signature.ts";
import { signRequest } from "./support/plugin-simulator.ts";

describe("server keys", () => {
  it("seeds every demo server with the hash of its documented local key", async () => {
    for (const server of seedServers) {
      expect(await hashServerKey(localDevKey(server.id))).toBe(LOCAL_DEV_KEY_HASHES[server.id]);
    }
    expect(serverKeysSeedSql()).toHaveLength(seedServers.length);
  });

  it("generates distinct random keys and stores only a 64-hex hash", async () => {
    const a = generateServerKey();
    const b = generateServerKey();
    expect(a).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await hashServerKey(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("command templates", () => {
  it("fills every placeholder and leaves a command on one line", () => {
    expect(
      renderCommand("inventory.giveto {steamid} rifle.ak 1; say {nickname} {days} {server}\n", {
        steamId: "76561198000000001",
        nickname: "Игрок\r\nquit",
        days: 7,
        server: "Свобода #3 | MAX 2",
      }),
    ).toBe("inventory.giveto 76561198000000001 rifle.ak 1; say Игрок quit 7 Свобода #3 | MAX 2");
  });

  it("removes quotes, semicolons and backslashes from values, and caps their length", () => {
    expect(sanitizeCommandValue(`a"b'c\`d;e\\f`)).toBe("abcdef");
    expect(sanitizeCommandValue("x".repeat(100))).toHaveLength(64);
  });
});

// The same vector is checked against the C# plugin's own code by plugins/oxide/check/SigningVector.cs.
describe("signing vector shared with the C# plugin", () => {
  const body = '{"online":["76561198000000001"]}';
  const requestSignature = "487b64eafd21d141ede51e3c41cd2ad3c5c024a8cbb06c2c635d362bed82d0eb";

  it("signs a request the same way on the site and in the simulator", async () => {
    const key = await importSigningKey(await hashServerKey("local-dev-key-3"));
    if (!key) throw new Error("no key");
    expect(await hmacHex(key, canonicalRequest("1795000000", "post", "/api/game/queue", body))).toBe(requestSignature);
    expect((await signRequest("local-dev-key-3", "/api/game/queue", body, 1795000000)).signature).toBe(
      requestSignature,
    );
  });

  it("signs the queue answer over the request signature and the deliveries, line by line", async () => {
    const key = await importSigningKey(await hashServerKey("local-dev-key-3"));
    if (!key) throw new Error("no key");
    const delivery = {
      delivery_id: "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11",
      kind: "grant" as const,
      steam_id: "76561198000000001",
      requires_online: true,
      title: "VIP",
      duration_days: 30,
      commands: ["oxide.usergroup add 76561198000000001 vip", "say Игрок получил VIP"],
    };
    expect(await queueResponseSignature(key, requestSignature, [delivery])).toBe(
      "815c2e80c4fc7328b40b2c330bf0f9fd6da39e07b97f5b645c46674a2e878434",
    );
    expect(await queueResponseSignature(key, requestSignature, [])).toBe(
      "b8ccedfc1f2e26dbba128d112a4b10e676cbbfab0191ef05ac11ef2945f917c0",
    );
  });

  it("signs version 2 of the queue answer over the title and duration too, as the plugin checks it", async () => {
    const key = await importSigningKey(await hashServerKey("local-dev-key-3"));
    if (!key) throw new Error("no key");
    const delivery = {
      delivery_id: "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11",
      kind: "grant" as const,
      steam_id: "76561198000000001",
      requires_online: true,
      title: "VIP",
      duration_days: 30,
      commands: ["oxide.usergroup add 76561198000000001 vip", "say Игрок получил VIP"],
    };
    expect(await queueResponseSignatureV2(key, requestSignature, [delivery])).toBe(
      "fe7caaef1feba4e493d24c92eb53b4cb15bedf86887e4a1eab36223093e946a1",
    );
    expect(await queueResponseSignatureV2(key, requestSignature, [])).toBe(
      "3d571a4c23f74e41075d76b2f5cfe3f8c9727b1da59a06dbb0f75075789b69fa",
    );
  });
});
