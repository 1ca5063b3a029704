// The doorbell on the built Node server (decision 146), through real HTTP: the plugin's signed upgrade
// is refused as a poll is (same status, same JSON, no upgrade) or upgraded, and a purchase rings the
// plugins of its type with a signed ring. Needs `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { seedItemId } from "#db/seed/catalog.ts";
import { localDevKeySalt } from "#db/seed/server-keys.ts";
import { LOCAL_GAME_KEY_SECRET } from "#worker/config.ts";
import { deriveServerKey } from "#worker/services/game/keys.ts";
import { freePort, freshNodeDatabase, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { DOORBELL_PATH, doorbellHeaders, probeRequest, type Ring, ringVerifies } from "../support/doorbell.ts";
import { hmacHex, PluginSimulator } from "../support/plugin-simulator.ts";
import { rows } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

/** The bench player: 1 000 000 ₽ to buy with (db/seed/players.ts). */
const BUYER = "76561198000000009";
/** Seeded servers №1 (SOLO) and №2 (VANILLA), with their local keys. */
const SOLO = 1;
const VANILLA = 2;
const keyOf = (id: number) => deriveServerKey(LOCAL_GAME_KEY_SECRET, id, localDevKeySalt(id));

type Opened = { socket: WebSocket; frames: AsyncIterator<string> } | { status: number; body: unknown };

/** Opens the doorbell with these headers: the socket and its text frames in order, or the refusal. */
function open(origin: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${origin.replace("http", "ws")}${DOORBELL_PATH}`, { headers });
    const queue: string[] = [];
    const waiting: ((text: string) => void)[] = [];
    socket.on("message", (data) => {
      const text = data.toString();
      const next = waiting.shift();
      if (next) next(text);
      else queue.push(text);
    });
    const frames: AsyncIterator<string> = {
      next: () =>
        new Promise((done) => {
          const text = queue.shift();
          if (text !== undefined) done({ value: text, done: false });
          else waiting.push((value) => done({ value, done: false }));
        }),
    };
    socket.on("open", () => resolve({ socket, frames }));
    socket.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }));
    });
    socket.on("error", reject);
  });
}

/** A plugin's signed requests (heartbeats) to the site at `origin`. */
async function pluginAt(origin: string, serverId: number, clockAheadMs = 0) {
  return new PluginSimulator({
    transport: async (request) =>
      fetch(`${origin}${new URL(request.url).pathname}`, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      }),
    serverId,
    serverKey: await keyOf(serverId),
    now: () => new Date(Date.now() + clockAheadMs),
  });
}

function connected(opened: Opened) {
  assert.ok("socket" in opened, `refused: ${JSON.stringify(opened)}`);
  return opened;
}

describe("the doorbell on the built Node server", () => {
  let server: NodeServer;
  let origin = "";
  let databaseFile = "";
  /** The server's stored heartbeat's doorbell flag. */
  const storedDoorbell = async (serverId: number) =>
    (await rows(databaseFile, `SELECT doorbell FROM server_heartbeats WHERE server_id = ${serverId}`))[0]?.[0];
  const sockets: WebSocket[] = [];

  before(async () => {
    const databaseUrl = freshNodeDatabase(mkdtempSync(join(tmpdir(), "site-doorbell-")));
    databaseFile = databaseUrl.replace(/^file:/, "");
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = await serveNodeSite(localSiteEnv(port, databaseUrl));
  });

  after(() => {
    for (const socket of sockets) socket.terminate();
    if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("refuses an unsigned, a wrongly signed, a stale and a replayed upgrade as it refuses a poll", async () => {
    const key = await keyOf(VANILLA);
    assert.deepEqual(await open(origin, {}), {
      status: 400,
      body: { error: "Нет заголовков подписи X-Server-Id, X-Timestamp, X-Signature" },
    });
    assert.deepEqual(await open(origin, await doorbellHeaders(VANILLA, `${key}x`)), {
      status: 401,
      body: { error: "Неверная подпись запроса" },
    });
    const now = Math.floor(Date.now() / 1000);
    assert.deepEqual(await open(origin, await doorbellHeaders(VANILLA, key, now - 600)), {
      status: 401,
      body: { error: "Метка времени вне допустимого окна ±5 минут" },
    });
    // A heartbeat signed now: an upgrade signed well before it is a replay.
    const beat = JSON.stringify({ hostname: "Ванилла", players: 0, max_players: 100 });
    const beatAnswer = await fetch(`${origin}/api/game/heartbeat`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-Server-Id": String(VANILLA),
        "X-Timestamp": String(now),
        "X-Signature": await hmacHex(key, `${now}\nPOST\n/api/game/heartbeat\n${beat}`),
      },
      body: beat,
    });
    assert.equal(beatAnswer.status, 200, await beatAnswer.text());
    assert.deepEqual(await open(origin, await doorbellHeaders(VANILLA, key, now - 60)), {
      status: 409,
      body: { error: "Этот запрос уже был принят" },
    });
    const fresh = connected(await open(origin, await doorbellHeaders(VANILLA, key, now)));
    sockets.push(fresh.socket);
    fresh.socket.send("ping");
    assert.equal((await fresh.frames.next()).value, "pong");
  });

  it("rings the plugins of a purchase's type with a signed ring, and no other type's", async () => {
    const soloKey = await keyOf(SOLO);
    const solo = connected(await open(origin, await doorbellHeaders(SOLO, soloKey)));
    const vanilla = connected(await open(origin, await doorbellHeaders(VANILLA, await keyOf(VANILLA))));
    sockets.push(solo.socket, vanilla.socket);

    const cookie = await signInThroughStandIn(origin, BUYER);
    const bought = await fetch(`${origin}/api/purchase/items/${seedItemId("SOLO", 6)}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ server_type: "SOLO" }),
    });
    assert.equal(bought.status, 201, await bought.text());

    const ring = JSON.parse((await solo.frames.next()).value) as Ring;
    assert.equal(ring.ring, 1);
    assert.ok(Math.abs(ring.t - Date.now() / 1000) <= 300, `t ${ring.t}`);
    assert.ok(await ringVerifies(soloKey, SOLO, ring), JSON.stringify(ring));
    assert.equal(await ringVerifies(soloKey, VANILLA, ring), false);

    // The ring went out before SOLO's socket had it: a frame for VANILLA would be ahead of its pong.
    vanilla.socket.send("ping");
    assert.equal((await vanilla.frames.next()).value, "pong");
  });

  it("closes a server's older socket when it connects again (4000 replaced)", async () => {
    const key = await keyOf(SOLO);
    const older = connected(await open(origin, await doorbellHeaders(SOLO, key)));
    const closed = new Promise<[number, string]>((done) =>
      older.socket.once("close", (code, reason) => done([code, reason.toString()])),
    );
    const newer = connected(await open(origin, await doorbellHeaders(SOLO, key)));
    sockets.push(older.socket, newer.socket);
    assert.deepEqual(await closed, [4000, "replaced"]);
  });

  it("answers the plugin's probe: 204 for an upgrade it would take, 409 once that upgrade was taken (decision 149)", async () => {
    const key = await keyOf(SOLO);
    const upgrade = await doorbellHeaders(SOLO, key);
    const probe = async () => {
      const { path, headers } = await probeRequest(SOLO, key, Number(upgrade["X-Timestamp"]));
      const answer = await fetch(`${origin}${path}`, { headers });
      return { status: answer.status, body: await answer.text() };
    };
    assert.deepEqual(await probe(), { status: 204, body: "" });
    sockets.push(connected(await open(origin, upgrade)).socket);
    assert.deepEqual(await probe(), { status: 409, body: JSON.stringify({ error: "Этот запрос уже был принят" }) });
  });

  it("a socket that closes takes «connected» from its server's heartbeat: one that died is gone after 3 minutes, not 9 (decision 151)", async () => {
    assert.equal((await (await pluginAt(origin, SOLO)).heartbeat([], { doorbell: true })).status, 200);
    assert.equal(await storedDoorbell(SOLO), 1);
    const plugin = connected(await open(origin, await doorbellHeaders(SOLO, await keyOf(SOLO))));
    plugin.socket.close(1001, "the game server stops");
    // The close's write runs after the socket's close event: wait for it (up to 5 s).
    for (let tries = 0; tries < 100 && (await storedDoorbell(SOLO)) !== 0; tries++) {
      await new Promise((done) => setTimeout(done, 50));
    }
    assert.equal(await storedDoorbell(SOLO), 0);
  });

  it("stops at SIGTERM with plugins connected: their sockets close and the server exits 0", async () => {
    // The first test beat VANILLA signed in its second, and a beat is taken only signed in a later one
    // (recordHeartbeat): this plugin's clock is a few seconds on, as a later beat's would be.
    const beat = await (await pluginAt(origin, VANILLA, 2_000)).heartbeat([], { doorbell: true });
    assert.equal(beat.status, 200, JSON.stringify(beat));
    const plugin = connected(await open(origin, await doorbellHeaders(VANILLA, await keyOf(VANILLA))));
    const dropped = new Promise((done) => plugin.socket.once("close", done));
    const exited = new Promise<number | null>((done) => server.process.once("exit", done));
    server.process.kill("SIGTERM");
    await dropped;
    assert.equal(await exited, 0, server.output());
    // The site's own stop is not the game server gone: its heartbeat still says «connected» (decision 151).
    assert.equal(await storedDoorbell(VANILLA), 1);
  });
});
