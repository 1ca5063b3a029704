// The doorbell on Workers (decision 146): a signed upgrade reaches the type's Durable Object and gets
// a hibernatable WebSocket; a purchase rings the type's sockets with a ring signed by the server's key.
// The Node server's endpoint is tested through real HTTP in tests/server/doorbell.test.ts.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GAME_ERRORS } from "#core/messages/game.ts";
import { testDeps } from "./support/deps.ts";
import { DOORBELL_PATH, doorbellHeaders, probeRequest, type Ring, ringVerifies } from "./support/doorbell.ts";
import { createGameServer } from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";
import { buy, createItem } from "./support/shop-fixtures.ts";
import { firstRow } from "./support/sql.ts";

/** The socket of a signed upgrade, with its text frames in order. */
async function connect(server: { id: number; key: string }) {
  const answer = await SELF.fetch(`http://localhost${DOORBELL_PATH}`, {
    headers: { Upgrade: "websocket", ...(await doorbellHeaders(server.id, server.key)) },
  });
  expect(answer.status).toBe(101);
  const socket = answer.webSocket;
  if (!socket) throw new Error("no WebSocket in the 101");
  socket.accept();
  const frames: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  socket.addEventListener("message", (event) => {
    const text = String(event.data);
    const next = waiting.shift();
    if (next) next(text);
    else frames.push(text);
  });
  const next = () =>
    new Promise<string>((done) => {
      const text = frames.shift();
      if (text !== undefined) done(text);
      else waiting.push(done);
    });
  return { socket, next };
}

describe("the doorbell's Durable Object", () => {
  it("answers a signed upgrade with 101 and a ping with pong", async () => {
    const server = await createGameServer(testDeps());
    const { socket, next } = await connect(server);
    socket.send("ping");
    expect(await next()).toBe("pong");
    socket.close(1000, "done");
  });

  it("rings the purchased type's sockets with a signed ring, and another type's not at all", async () => {
    const deps = testDeps();
    // A type the shop sells (the purchase's schema names them), and another.
    const serverType = "NO_LIMIT";
    const first = await createGameServer(deps, { serverType });
    const second = await createGameServer(deps, { serverType });
    const other = await createGameServer(deps, { serverType: "MAX2" });
    const [a, b, c] = await Promise.all([connect(first), connect(second), connect(other)]);

    const player = await createPlayer({ balance: 100_000 });
    const itemId = await createItem({ serverType, price: 5_000 });
    expect((await buy(player.token, itemId, { server_type: serverType })).status).toBe(201);

    for (const [socket, server] of [
      [a, first],
      [b, second],
    ] as const) {
      const ring = JSON.parse(await socket.next()) as Ring;
      expect(ring.ring).toBe(1);
      expect(await ringVerifies(server.key, server.id, ring)).toBe(true);
    }
    // The other type's object was never rung: its socket's first frame is the answer to its ping.
    c.socket.send("ping");
    expect(await c.next()).toBe("pong");
    for (const { socket } of [a, b, c]) socket.close(1000, "done");
  });

  it("refuses the same upgrade sent again (409): a copy can't push the plugin's socket out", async () => {
    const server = await createGameServer(testDeps());
    const headers = { Upgrade: "websocket", ...(await doorbellHeaders(server.id, server.key)) };
    const first = await SELF.fetch(`http://localhost${DOORBELL_PATH}`, { headers });
    expect(first.status).toBe(101);
    first.webSocket?.accept();
    const copy = await SELF.fetch(`http://localhost${DOORBELL_PATH}`, { headers });
    expect(copy.status).toBe(409);
    expect(copy.webSocket ?? null).toBeNull();
    expect(await copy.json()).toEqual({ error: GAME_ERRORS.replayed });
    first.webSocket?.close(1000, "done");
  });

  it("closes a server's older socket when it connects again (4000 replaced)", async () => {
    const server = await createGameServer(testDeps());
    const older = await connect(server);
    const closed = new Promise<[number, string]>((done) =>
      older.socket.addEventListener("close", (event) => done([event.code, event.reason])),
    );
    const newer = await connect(server);
    expect(await closed).toEqual([4000, "replaced"]);
    newer.socket.close(1000, "done");
  });

  it("a socket that closes takes «connected» from its server's heartbeat: one that died is gone after 3 minutes, not 9 (decision 151)", async () => {
    const server = await createGameServer(testDeps());
    const plugin = new PluginSimulator({
      transport: (request) => SELF.fetch(request),
      serverId: server.id,
      serverKey: server.key,
      now: () => new Date(),
    });
    expect((await plugin.heartbeat([], { doorbell: true })).status).toBe(200);
    const { socket } = await connect(server);
    socket.close(1001, "the game server stops");
    expect(await storedDoorbellBecomes(server.id, 0)).toBe(true);
  });
});

describe("the doorbell's probe (decision 149)", () => {
  const probe = async (server: { id: number; key: string }, upgradeSignedAt: number) => {
    const { path, headers } = await probeRequest(server.id, server.key, upgradeSignedAt);
    return SELF.fetch(`http://localhost${path}`, { headers });
  };

  it("answers 204 for an upgrade the site would take, and the upgrade's own refusal for one it took", async () => {
    const server = await createGameServer(testDeps());
    const signedAt = Math.floor(Date.now() / 1000);
    const untaken = await probe(server, signedAt);
    expect(untaken.status).toBe(204);

    const upgraded = await SELF.fetch(`http://localhost${DOORBELL_PATH}`, {
      headers: { Upgrade: "websocket", ...(await doorbellHeaders(server.id, server.key, signedAt)) },
    });
    expect(upgraded.status).toBe(101);
    upgraded.webSocket?.accept();
    // The same upgrade sent again is refused 409: so is the probe for it, and the plugin backs off.
    const taken = await probe(server, signedAt);
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: GAME_ERRORS.replayed });
    upgraded.webSocket?.close(1000, "done");
  });

  it("refuses as the upgrade would: a wrong key, an upgrade signed out of the window", async () => {
    const server = await createGameServer(testDeps());
    const now = Math.floor(Date.now() / 1000);
    const wrongKey = await probe({ id: server.id, key: `${server.key}x` }, now);
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({ error: GAME_ERRORS.badSignature });
    const stale = await probe(server, now - 600);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ error: GAME_ERRORS.timestampOutOfWindow });
  });
});

/** Whether the server's stored heartbeat comes to say `doorbell = value` within 5 s (the object's close handler writes it). */
async function storedDoorbellBecomes(serverId: number, value: number): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    const row = await firstRow<{ doorbell: number | null }>(
      "SELECT doorbell FROM server_heartbeats WHERE server_id = ?",
      serverId,
    );
    if (row?.doorbell === value) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}
