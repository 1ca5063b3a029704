import { describe, expect, it } from "vitest";
import { localDevKeySalt, serverKeysSeedSql } from "#db/seed/server-keys.ts";
import { seedServers } from "#db/seed/servers.ts";
import { LOCAL_GAME_KEY_SECRET } from "#worker/config.ts";
import { renderCommand, sanitizeCommandValue } from "#worker/services/game/commands.ts";
import {
  deriveServerKey,
  generateKeySalt,
  hashServerKey,
  hmacHex,
  importSigningKey,
} from "#worker/services/game/keys.ts";
import {
  ackResponseSignature,
  canonicalAck,
  canonicalPending,
  pendingResponseSignature,
  queueResponseSignature,
  queueResponseSignatureV2,
  queueResponseSignatureV3,
  refusedAckResponseSignature,
} from "#worker/services/game/response-signature.ts";
import { canonicalRequest, requestTarget } from "#worker/services/game/signature.ts";
import wrangler from "../wrangler.jsonc?raw";
import {
  ackAnswerText,
  answerSignature,
  pendingAnswerText,
  refusedAnswerText,
  signRequest,
} from "./support/plugin-simulator.ts";

describe("server keys (decision 103)", () => {
  it("derives a key from the secret, the id and the salt: a fixed vector", async () => {
    expect(await deriveServerKey(LOCAL_GAME_KEY_SECRET, 3, "local-dev-salt-3")).toBe(
      "rsk_Z8edfuWf6HvoWTkDzyjyrAdb_AeAgjnoouHWlyXHTtw",
    );
    // What the plugin signs with: SHA-256 of the key string.
    expect(await hashServerKey("rsk_Z8edfuWf6HvoWTkDzyjyrAdb_AeAgjnoouHWlyXHTtw")).toBe(
      "8f3571a7d04e225fa058ac54b329ae7f3743402309d2ffc1418dd574abab3d92",
    );
  });

  it("gives another key for another secret, id or salt", async () => {
    const base = await deriveServerKey(LOCAL_GAME_KEY_SECRET, 3, "salt");
    expect(base).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(await deriveServerKey(`${LOCAL_GAME_KEY_SECRET}x`, 3, "salt")).not.toBe(base);
    expect(await deriveServerKey(LOCAL_GAME_KEY_SECRET, 4, "salt")).not.toBe(base);
    expect(await deriveServerKey(LOCAL_GAME_KEY_SECRET, 3, "salt2")).not.toBe(base);
    expect(generateKeySalt()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(generateKeySalt()).not.toBe(generateKeySalt());
  });

  it("seeds every demo server with a salt, and wrangler.jsonc's local secret is the one the scripts use", () => {
    const sql = serverKeysSeedSql();
    expect(sql).toHaveLength(seedServers.length);
    for (const server of seedServers) expect(sql.join("\n")).toContain(`'${localDevKeySalt(server.id)}'`);
    expect(wrangler.split(`"GAME_KEY_SECRET": "${LOCAL_GAME_KEY_SECRET}"`)).toHaveLength(3); // local and e2e
  });
});

describe("command templates", () => {
  it("fills every placeholder and leaves a command on one line", () => {
    expect(
      renderCommand("say {steamid}; {nickname} {days} {server}\n", {
        steamId: "76561198000000001",
        nickname: "Игрок\r\nquit",
        days: 7,
        server: "Свобода #3 | MAX 2",
      }),
    ).toBe("say 76561198000000001; Игрок quit 7 Свобода #3 | MAX 2");
  });

  it("puts a nickname only in a chat message: anywhere else it is the player's SteamID", () => {
    const values = { steamId: "76561198000000001", nickname: "76561198999999999", days: null, server: "S" };
    expect(renderCommand("say {nickname} купил VIP", values)).toBe("say 76561198999999999 купил VIP");
    expect(renderCommand("addmoney {nickname} 100", values)).toBe("addmoney 76561198000000001 100");
  });

  it("removes quotes, semicolons and backslashes from values, and caps their length", () => {
    expect(sanitizeCommandValue(`a"b'c\`d;e\\f`)).toBe("abcdef");
    expect(sanitizeCommandValue("x".repeat(100))).toHaveLength(64);
  });
});

// The same vector is checked against the C# plugin's own code by plugins/oxide/check/SigningVector.cs.
// Its key is a fixed string: how a key is made (decision 103) doesn't change how it signs.
describe("signing vector shared with the C# plugin", () => {
  const body = '{"online":["76561198000000001"]}';
  const requestSignature = "487b64eafd21d141ede51e3c41cd2ad3c5c024a8cbb06c2c635d362bed82d0eb";
  const delivery = {
    delivery_id: "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11",
    kind: "grant" as const,
    steam_id: "76561198000000001",
    requires_online: true,
    title: "VIP",
    duration_days: 30,
    commands: ["oxide.usergroup add 76561198000000001 vip", "say Игрок получил VIP"],
    done: [0],
    lease: 3,
    retry: 1,
  };

  async function vectorKey(): Promise<CryptoKey> {
    const key = await importSigningKey(await hashServerKey("local-dev-key-3"));
    if (!key) throw new Error("no key");
    return key;
  }

  it("signs a request the same way on the site and in the simulator", async () => {
    const key = await vectorKey();
    expect(await hmacHex(key, canonicalRequest("1795000000", "post", "/api/game/queue", body))).toBe(requestSignature);
    expect((await signRequest("local-dev-key-3", "/api/game/queue", body, 1795000000)).signature).toBe(
      requestSignature,
    );
  });

  it("signs the path and the query of a request, as the plugin's RequestTarget gives them (decision 142)", async () => {
    const key = await vectorKey();
    const target = requestTarget(new URL("https://shop.example/api/game/queue?online=76561198000000001"));
    expect(target).toBe("/api/game/queue?online=76561198000000001");
    expect(await hmacHex(key, canonicalRequest("1795000000", "POST", target, body))).toBe(
      "e7ffc7f65a66acda8cdc89e5d4a581e70663b7fcf33af76ff482cd9781d8f708",
    );
  });

  it("signs the queue answer over the request signature and the deliveries, line by line", async () => {
    const key = await vectorKey();
    expect(await queueResponseSignature(key, requestSignature, [delivery])).toBe(
      "815c2e80c4fc7328b40b2c330bf0f9fd6da39e07b97f5b645c46674a2e878434",
    );
    expect(await queueResponseSignature(key, requestSignature, [])).toBe(
      "b8ccedfc1f2e26dbba128d112a4b10e676cbbfab0191ef05ac11ef2945f917c0",
    );
  });

  it("signs version 2 of the queue answer over the title and duration too, as the plugin checks it", async () => {
    const key = await vectorKey();
    expect(await queueResponseSignatureV2(key, requestSignature, [delivery])).toBe(
      "fe7caaef1feba4e493d24c92eb53b4cb15bedf86887e4a1eab36223093e946a1",
    );
    expect(await queueResponseSignatureV2(key, requestSignature, [])).toBe(
      "3d571a4c23f74e41075d76b2f5cfe3f8c9727b1da59a06dbb0f75075789b69fa",
    );
  });

  it("signs version 3 of the queue answer over the lease, the retries and what is done, as plugin 3 checks it", async () => {
    const key = await vectorKey();
    // The same vector as plugins/oxide/check/SigningVector.cs.
    expect(await queueResponseSignatureV3(key, requestSignature, [delivery], null)).toBe(
      "36b3a6d6a04e26b90097c5cc27081ce7c8e3523b5512e42f54c592aaf5f2569c",
    );
    expect(await queueResponseSignatureV3(key, requestSignature, [], null)).toBe(
      "9b2833b04a7cf81997c0f31315154369dc52edc5f31cccc9464781190031ae69",
    );
  });

  const results = [
    { delivery_id: "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11", status: "done" as const },
    { delivery_id: "5d2e9f10-7a3b-4c8d-8e1f-0a9b8c7d6e5f", status: "failed" as const },
  ];
  const items = [
    { name: "VIP", duration_days: 30, failed: false },
    { name: "Набор «Старт»", duration_days: null, failed: true },
  ];

  it("signs the ack answer over the request signature and each result's id and status", async () => {
    const key = await vectorKey();
    expect(canonicalAck(results)).toBe(
      "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11\ndone\n5d2e9f10-7a3b-4c8d-8e1f-0a9b8c7d6e5f\nfailed",
    );
    const signature = "1b1b7a7714ee2aa095e3706202a8a7a926bb95cf0b031f124b48221854ad585e";
    expect(await ackResponseSignature(key, requestSignature, results)).toBe(signature);
    expect(await answerSignature("local-dev-key-3", ackAnswerText(requestSignature, results))).toBe(signature);
    expect(await ackResponseSignature(key, requestSignature, [])).toBe(
      "732e8a106e87bf2dcfe332e38de1d0770b7064aa938c6258a5a5fb31ed29c7fc",
    );
  });

  it("signs a refused ack (403/404) over the refused ids", async () => {
    const key = await vectorKey();
    const ids = results.map((result) => result.delivery_id);
    const signature = "8c931e450049a15100af2d39d614b8453128a04ba27a83fb58010fc8d9b961be";
    expect(await refusedAckResponseSignature(key, requestSignature, ids)).toBe(signature);
    expect(await answerSignature("local-dev-key-3", refusedAnswerText(requestSignature, ids))).toBe(signature);
  });

  it("signs the pending answer over each item's name, days (empty when none) and failed flag", async () => {
    const key = await vectorKey();
    expect(canonicalPending(items)).toBe("VIP\n30\n0\nНабор «Старт»\n\n1");
    const signature = "cd2e74e4553e56da7c8383cce86fe00299b7200aa77eb75e3d72b74c3322ff20";
    expect(await pendingResponseSignature(key, requestSignature, items)).toBe(signature);
    expect(await answerSignature("local-dev-key-3", pendingAnswerText(requestSignature, items))).toBe(signature);
    expect(await pendingResponseSignature(key, requestSignature, [])).toBe(
      "3caac0ec11512a23759b55a10746ed2be911569b570ddd373e3e4c87eafefbe9",
    );
  });
});
