import { describe, expect, it } from "vitest";
import { LOCAL_DEV_KEY_HASHES, localDevKey, serverKeysSeedSql } from "#db/seed/server-keys.ts";
import { seedServers } from "#db/seed/servers.ts";
import { renderCommand, sanitizeCommandValue } from "#worker/services/game/commands.ts";
import { generateServerKey, hashServerKey } from "#worker/services/game/keys.ts";

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
