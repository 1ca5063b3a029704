import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createOperator } from "#tests/support/admin-fixtures.ts";
import { LOCAL_GAME_KEY_SECRET } from "#worker/config.ts";
import { rotateServerKey } from "#worker/services/admin/servers.ts";
import { deriveServerKey, hmacHex } from "#worker/services/game/keys.ts";
import { canonicalRequest } from "#worker/services/game/signature.ts";
import { testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  createLegacyGameServer,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator, type QueueDelivery, signRequest } from "./support/plugin-simulator.ts";
import { firstRow } from "./support/sql.ts";

const beat = { hostname: "h", players: 1, max_players: 10, queue: 0, map: "m", online: [] };

async function setup() {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const server = await createGameServer(deps);
  const transport = clockedTransport(clock.now);
  const sim = new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now });
  return { clock, deps, server, transport, sim };
}

async function heartbeatRow(serverId: number) {
  return firstRow("SELECT * FROM server_heartbeats WHERE server_id = ?", serverId);
}

async function marksRow(serverId: number) {
  return firstRow<{ newest: number; recent: string }>(
    "SELECT newest, recent FROM game_request_marks WHERE server_id = ?",
    serverId,
  );
}

describe("signed plugin requests", () => {
  it("accepts a correctly signed heartbeat through the real worker", async () => {
    const deps = testDeps();
    const server = await createGameServer(deps);
    const sim = new PluginSimulator({
      transport: (request) => SELF.fetch(request),
      serverId: server.id,
      serverKey: server.key,
      now: () => new Date(),
    });
    const { status, json } = await sim.heartbeat([]);
    expect(status).toBe(200);
    expect(json).toEqual({ ok: true });
    expect(await heartbeatRow(server.id)).toMatchObject({ hostname: "Симулятор", players: 0, max_players: 100 });
  });

  it("refuses a signature made with another key, and writes nothing", async () => {
    const { server, sim, clock } = await setup();
    const signed = await signRequest(
      "not-the-key",
      "/api/game/heartbeat",
      JSON.stringify(beat),
      clock.now().getTime() / 1000,
    );
    const response = await sim.send(signed);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Неверная подпись запроса" });
    expect(await heartbeatRow(server.id)).toBeNull();
    expect(await marksRow(server.id)).toBeNull();
  });

  it("refuses a body changed after signing", async () => {
    const { server, sim } = await setup();
    const signed = await sim.sign("/api/game/heartbeat", beat);
    const response = await sim.send({ ...signed, body: JSON.stringify({ ...beat, players: 99 }) });
    expect(response.status).toBe(401);
    expect(await heartbeatRow(server.id)).toBeNull();
  });

  it("refuses a signature for another path or another server id", async () => {
    const { server, sim, deps } = await setup();
    const signed = await sim.sign("/api/game/queue", beat);
    expect((await sim.send({ ...signed, path: "/api/game/heartbeat" })).status).toBe(401);
    const other = await createGameServer(deps);
    const forOther = await sim.sign("/api/game/heartbeat", beat);
    expect((await sim.send(forOther, { "x-server-id": String(other.id) })).status).toBe(401);
    expect(await heartbeatRow(server.id)).toBeNull();
    expect(await heartbeatRow(other.id)).toBeNull();
  });

  it("covers the query too: one appended after signing is refused, one signed with the path is taken", async () => {
    const { server, sim } = await setup();
    const signed = await sim.sign("/api/game/heartbeat", beat);
    const appended = await sim.send({ ...signed, path: "/api/game/heartbeat?online=76561198000000001" });
    expect(appended.status).toBe(401);
    expect(await appended.json()).toEqual({ error: "Неверная подпись запроса" });
    expect(await heartbeatRow(server.id)).toBeNull();
    const withQuery = await sim.send(await sim.sign("/api/game/heartbeat?online=76561198000000001", beat));
    expect(withQuery.status).toBe(200);
    expect(await heartbeatRow(server.id)).toMatchObject({ hostname: "h" });
  });

  it("answers an unknown server id like a bad signature", async () => {
    const { sim } = await setup();
    const signed = await sim.sign("/api/game/heartbeat", beat);
    const response = await sim.send(signed, { "x-server-id": "999999999" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Неверная подпись запроса" });
  });

  it("refuses timestamps more than five minutes off, either way", async () => {
    const { server, sim } = await setup();
    for (const skew of [-301, 301]) {
      const response = await sim.send(await sim.sign("/api/game/heartbeat", beat, skew));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Метка времени вне допустимого окна ±5 минут" });
    }
    expect(await heartbeatRow(server.id)).toBeNull();
    const within = await sim.send(await sim.sign("/api/game/heartbeat", beat, -299));
    expect(within.status).toBe(200);
  });

  it("accepts a request once: the same signed request again is refused", async () => {
    const { server, sim, clock } = await setup();
    const signed = await sim.sign("/api/game/heartbeat", { ...beat, players: 3 });
    expect((await sim.send(signed)).status).toBe(200);
    const before = await heartbeatRow(server.id);
    clock.advance(30_000);
    const replay = await sim.send(signed);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toEqual({ error: "Этот запрос уже был принят" });
    expect(await heartbeatRow(server.id)).toEqual(before);
  });

  it("refuses requests without the signature headers", async () => {
    const { transport } = await setup();
    const response = await transport(
      new Request("http://localhost/api/game/heartbeat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(beat),
      }),
    );
    expect(response.status).toBe(400);
  });

  it("refuses plain HTTP outside localhost", async () => {
    const { sim, transport, server } = await setup();
    const signed = await sim.sign("/api/game/heartbeat", beat);
    const response = await transport(
      new Request(`http://shop.example${signed.path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-server-id": String(server.id),
          "x-timestamp": String(signed.timestamp),
          "x-signature": signed.signature,
        },
        body: signed.body,
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Требуется HTTPS" });
    expect(await heartbeatRow(server.id)).toBeNull();
  });

  it("refuses a signed but malformed body with 400 (a heartbeat's odd field is left out, issue 35)", async () => {
    const { sim } = await setup();
    expect((await sim.post("/api/game/heartbeat", ["not", "an", "object"])).status).toBe(400);
    expect((await sim.post("/api/game/heartbeat", { hostname: "h", players: -1 })).status).toBe(200);
    expect((await sim.post("/api/game/queue", { online: ["not-a-steam-id"] })).status).toBe(400);
  });

  it("stops accepting the old key once it is rotated (a new salt)", async () => {
    const { server, sim, transport, clock, deps } = await setup();
    await firstRow("UPDATE servers SET key_salt = ? WHERE id = ?", "another-salt", server.id);
    expect((await sim.heartbeat([])).status).toBe(401);
    const newKey = await deriveServerKey(deps.config.gameKeySecret, server.id, "another-salt");
    const rotated = new PluginSimulator({ transport, serverId: server.id, serverKey: newKey, now: clock.now });
    expect((await rotated.heartbeat([])).status).toBe(200);
  });
});

describe("a copy of the database can't sign (decision 103)", () => {
  it("refuses keys made from anything the database holds, or derived with another secret", async () => {
    const { server, transport, clock, deps } = await setup();
    const stored = await firstRow<Record<string, unknown>>("SELECT * FROM servers WHERE id = ?", server.id);
    if (!stored) throw new Error("no server row");
    expect(stored.key_hash).toBeNull();
    expect(Object.values(stored).map(String)).not.toContain(server.key);
    const guesses = [
      ...Object.values(stored).map(String),
      `server-key:${server.id}:${stored.key_salt}`,
      await deriveServerKey("another-secret-another-secret-another-secret", server.id, String(stored.key_salt)),
      await deriveServerKey(LOCAL_GAME_KEY_SECRET, server.id, String(stored.key_salt)),
    ];
    for (const guess of guesses) {
      // The simulator signs with HMAC key = SHA-256(guess), as the plugin does.
      const forger = new PluginSimulator({ transport, serverId: server.id, serverKey: guess, now: clock.now });
      expect((await forger.heartbeat([])).status).toBe(401);
      clock.advance(1000);
    }
    // The stored salt's own bytes as the HMAC key don't sign either.
    const saltKey = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(String(stored.key_salt)),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const body = JSON.stringify(beat);
    const forged = await hmacHex(saltKey, canonicalRequest(String(timestamp), "POST", "/api/game/heartbeat", body));
    const honest = new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now });
    expect((await honest.send({ path: "/api/game/heartbeat", body, timestamp, signature: forged })).status).toBe(401);
    expect(await heartbeatRow(server.id)).toBeNull();

    // The key the secret derives signs.
    expect((await honest.heartbeat([])).status).toBe(200);
    expect(server.key).toBe(await deriveServerKey(deps.config.gameKeySecret, server.id, String(stored.key_salt)));
  });

  it("keeps a legacy key (its SHA-256 stored) working until it is rotated", async () => {
    const { transport, clock, deps } = await setup();
    const legacy = await createLegacyGameServer(deps);
    const old = new PluginSimulator({ transport, serverId: legacy.id, serverKey: legacy.key, now: clock.now });
    expect((await old.heartbeat([])).status).toBe(200);
    const admin = await createOperator(deps, "admin");
    const operator = { userId: admin.id, steamId: admin.steamId, nickname: "Оператор", role: "admin" as const };
    const rotated = await rotateServerKey(deps, operator, legacy.id);
    if (!rotated.ok) throw new Error("not rotated");
    expect(
      await firstRow("SELECT key_hash, key_salt IS NOT NULL AS salted FROM servers WHERE id = ?", legacy.id),
    ).toEqual({ key_hash: null, salted: 1 });
    clock.advance(1000);
    expect((await old.heartbeat([])).status).toBe(401);
    const fresh = new PluginSimulator({ transport, serverId: legacy.id, serverKey: rotated.key, now: clock.now });
    expect((await fresh.heartbeat([])).status).toBe(200);
  });
});

describe("a replayed request changes nothing, and only a request that changes something writes a row (decision 126)", () => {
  async function shop() {
    const world = await setup();
    const item = await createDeliverableItem(world.deps, { serverType: world.server.serverType });
    const player = await createPlayer({ deps: world.deps });
    return { ...world, item, player };
  }
  const recorded = async (serverId: number) => JSON.parse((await marksRow(serverId))?.recent ?? "[]");

  it("answers a poll with nothing due, and a heartbeat within a minute of the last one written, without a write", async () => {
    const { sim, server, clock, player } = await shop();
    expect((await sim.heartbeat([player.steamId])).status).toBe(200);
    const written = await heartbeatRow(server.id);
    expect(written).toMatchObject({ players: 1, received_at: clock.now().getTime() });
    clock.advance(30_000);
    expect(await sim.poll([player.steamId])).toEqual({ status: 200, deliveries: [] });
    expect((await sim.heartbeat([], { players: 0 })).status).toBe(200);
    expect(await heartbeatRow(server.id)).toEqual(written);
    expect(await marksRow(server.id)).toBeNull();
    // A minute after the last one written, or when the server itself changed, it is written again.
    clock.advance(31_000);
    expect((await sim.heartbeat([], { players: 0 })).status).toBe(200);
    expect(await heartbeatRow(server.id)).toMatchObject({ players: 0, received_at: clock.now().getTime() });
    clock.advance(1_000);
    expect((await sim.heartbeat([], { map: "Barren" })).status).toBe(200);
    expect(await heartbeatRow(server.id)).toMatchObject({ map: "Barren", received_at: clock.now().getTime() });
  });

  it("refuses a poll that leased something, and an ack, when either comes again", async () => {
    const { sim, deps, server, item, player } = await shop();
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType: server.serverType });
    const poll = await sim.sign("/api/game/queue", { online: [player.steamId], site_seq: 0 });
    const first = await sim.send(poll);
    expect(first.status).toBe(200);
    const [delivery] = ((await first.json()) as { deliveries: QueueDelivery[] }).deliveries;
    if (!delivery) throw new Error("nothing leased");
    expect(await recorded(server.id)).toEqual([[poll.timestamp, poll.signature]]);
    const again = await sim.send(poll);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Этот запрос уже был принят" });

    const ack = await sim.sign("/api/game/ack", { results: [{ delivery_id: delivery.delivery_id, ok: true }] });
    expect((await sim.send(ack)).status).toBe(200);
    expect((await sim.send(ack)).status).toBe(409);
    expect(await firstRow("SELECT status, used_server_id FROM inventory_entries WHERE id = ?", entry.id)).toEqual({
      status: "used",
      used_server_id: server.id,
    });
  });

  it("refuses a request older than the newest one recorded by more than five seconds", async () => {
    const { sim, server, player } = await shop();
    const newest = await sim.sign("/api/game/pending", { steam_id: player.steamId });
    expect((await sim.send(newest)).status).toBe(200);
    const tooOld = await sim.sign("/api/game/pending", { steam_id: player.steamId }, -6);
    expect((await sim.send(tooOld)).status).toBe(409);
    // Within five seconds a request signed earlier may still arrive later (the plugin's timers run apart).
    const overtaken = await sim.sign("/api/game/pending", { steam_id: player.steamId }, -5);
    expect((await sim.send(overtaken)).status).toBe(200);
    expect((await sim.send(overtaken)).status).toBe(409);
    expect(await recorded(server.id)).toEqual([
      [newest.timestamp, newest.signature],
      [overtaken.timestamp, overtaken.signature],
    ]);
  });

  it("lets one of two copies of a request sent at the same moment through", async () => {
    const { sim, player } = await shop();
    const signed = await sim.sign("/api/game/pending", { steam_id: player.steamId });
    const answers = await Promise.all([sim.send(signed), sim.send(signed), sim.send(signed)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
  });

  it("writes a heartbeat only with a later timestamp: a replayed or overtaken one changes nothing", async () => {
    const { sim, server, clock } = await shop();
    const older = await sim.sign("/api/game/heartbeat", { ...beat, players: 1 });
    clock.advance(2_000);
    const newer = await sim.sign("/api/game/heartbeat", { ...beat, players: 2 });
    expect((await sim.send(newer)).status).toBe(200);
    expect((await sim.send(older)).status).toBe(409);
    // A minute on, when a heartbeat would be written again, the same one still isn't.
    clock.advance(61_000);
    expect((await sim.send(newer)).status).toBe(409);
    expect(await heartbeatRow(server.id)).toMatchObject({ players: 2 });
  });

  it("refuses a poll replayed after something fell due once a newer request was recorded", async () => {
    const { sim, deps, server, item, player, clock } = await shop();
    const idle = await sim.sign("/api/game/queue", { online: [player.steamId], site_seq: 0 });
    expect((await sim.send(idle)).status).toBe(200);
    clock.advance(30_000);
    expect((await sim.heartbeat([player.steamId])).status).toBe(200);
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType: server.serverType });
    const replay = await sim.send(idle);
    expect(replay.status).toBe(409);
    expect(
      await firstRow(
        "SELECT count(*) AS n FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id WHERE e.user_id = ? AND d.leased_server_id IS NOT NULL",
        player.id,
      ),
    ).toEqual({ n: 0 });
    // The plugin's own next poll takes it.
    expect((await sim.poll([player.steamId])).deliveries).toHaveLength(1);
  });
});
