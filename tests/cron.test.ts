import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { serverHeartbeats, servers } from "#db/schema.ts";
import { depsFor } from "#tests/support/deps.ts";
import type { Deps } from "#worker/deps.ts";
import {
  MIN_WRITE_INTERVAL_MS,
  type PublicServer,
  REWRITE_UNCHANGED_AFTER_MS,
  refreshServerStatus,
  STATUS_KEY,
  type StatusDocument,
} from "#worker/services/server-status.ts";
import { FakeSteamWebApi, type SteamAnswer } from "./fakes/steam-webapi.ts";
import { testClock, testDeps } from "./support/deps.ts";
import worker from "./worker-entry.ts";

const MINUTE = 60_000;
const STEAM_KEY = "TESTSTEAMKEY0123456789";
// A failing lookup must not hold the cron up; the slow fakes are cut off after this.
const FAST_TIMEOUT = { steamTimeoutMs: 25 };

/** The Worker's env as production has it: the real Steam Web API base and a key. */
function steamEnv() {
  return { ...env, STEAM_WEBAPI_BASE: "https://api.steampowered.com", STEAM_API_KEY: STEAM_KEY };
}

function steamDeps(steam: FakeSteamWebApi, clock: ReturnType<typeof testClock>): Deps {
  return depsFor(steamEnv(), { fetch: steam.fetch, now: clock.now });
}

let nextAddress = 1;
/** A server row of our own, on an address no other test uses. */
async function addServer(name = "Тестовый сервер", serverType = "VANILLA") {
  const ipPort = `10.20.${Math.floor(nextAddress / 250)}.${nextAddress++ % 250}:28015`;
  const [row] = await testDeps().db.orm.insert(servers).values({ name, serverType, ipPort, sortOrder: 0 }).returning();
  if (!row) throw new Error("insert returned nothing");
  return row;
}

function find(document: StatusDocument, ipPort: string): PublicServer {
  const server = document.servers.find((entry) => entry.ip_port === ipPort);
  if (!server) throw new Error(`${ipPort} is missing from the document`);
  return server;
}

async function kvDocument(): Promise<StatusDocument | null> {
  return env.STATUS_KV.get<StatusDocument>(STATUS_KEY, "json");
}

beforeEach(async () => {
  await env.STATUS_KV.delete(STATUS_KEY);
});

describe("refreshServerStatus against Steam's GetServerList", () => {
  it("asks Steam for each server by game address with the key, and shows a listed server online", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer("Свобода #9 | SOLO", "SOLO");
    steam.answer(server.ipPort, { players: 42, maxPlayers: 100 });

    const { document, written } = await refreshServerStatus(steamDeps(steam, clock));

    expect(find(document, server.ipPort)).toEqual({
      name: "Свобода #9 | SOLO",
      server_type: "SOLO",
      status: "online",
      players: { current: 42, max: 100 },
      ip_port: server.ipPort,
      // Steam's listing names the map, and Rust's «born» tag the last wipe (issue 36).
      map: { name: "Procedural Map", size: null },
      wiped_at: 1_700_000_000_000,
    });
    const asked = steam.requests.find((request) => request.filter === `\\gameaddr\\${server.ipPort}`);
    expect(asked?.url.pathname).toBe("/IGameServersService/GetServerList/v1/");
    expect(asked?.key).toBe(STEAM_KEY);
    expect(written).toBe(true);
    expect(find((await kvDocument()) as StatusDocument, server.ipPort).status).toBe("online");
  });

  it("leaves the key out when none is configured", async () => {
    const steam = new FakeSteamWebApi();
    const server = await addServer();
    const deps = depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: testClock().now });
    await refreshServerStatus(deps);
    const asked = steam.requests.find((request) => request.filter === `\\gameaddr\\${server.ipPort}`);
    expect(asked).toBeDefined();
    expect(asked?.url.searchParams.has("key")).toBe(false);
  });

  it("shows a server Steam has never listed as offline with no players", async () => {
    const steam = new FakeSteamWebApi();
    const server = await addServer();
    steam.answer(server.ipPort, "offline");
    const { document } = await refreshServerStatus(steamDeps(steam, testClock()));
    expect(find(document, server.ipPort)).toMatchObject({ status: "offline", players: { current: 0, max: 0 } });
  });

  it("ignores a listing for another game port on the same IP", async () => {
    const steam = new FakeSteamWebApi();
    const server = await addServer();
    // Steam answers for the address it was asked; a listing of a neighbour must not count.
    const wrongListing: typeof fetch = async (input, init) => {
      const response = await steam.fetch(input, init);
      const body = await response.text();
      return new Response(body.replaceAll('"gameport":28015', '"gameport":28016'), response);
    };
    steam.answer(server.ipPort, { players: 5, maxPlayers: 50 });
    const deps = depsFor(steamEnv(), { fetch: wrongListing, now: testClock().now });
    const { document } = await refreshServerStatus(deps);
    expect(find(document, server.ipPort).status).toBe("offline");
  });

  it("keeps a server online until it has not been seen for 3 minutes, then shows it offline", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    steam.answer(server.ipPort, { players: 30, maxPlayers: 200 });
    await refreshServerStatus(steamDeps(steam, clock));

    steam.answer(server.ipPort, "offline");
    clock.advance(2 * MINUTE);
    let { document } = await refreshServerStatus(steamDeps(steam, clock));
    expect(find(document, server.ipPort)).toMatchObject({ status: "online", players: { current: 30, max: 200 } });

    clock.advance(MINUTE - 1);
    ({ document } = await refreshServerStatus(steamDeps(steam, clock)));
    expect(find(document, server.ipPort).status).toBe("online");

    clock.advance(1);
    ({ document } = await refreshServerStatus(steamDeps(steam, clock)));
    expect(find(document, server.ipPort)).toMatchObject({ status: "offline", players: { current: 0, max: 200 } });

    steam.answer(server.ipPort, { players: 3, maxPlayers: 200 });
    clock.advance(MINUTE);
    ({ document } = await refreshServerStatus(steamDeps(steam, clock)));
    expect(find(document, server.ipPort)).toMatchObject({ status: "online", players: { current: 3, max: 200 } });
  });

  it("keeps Steam's last sighting in D1", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    steam.answer(server.ipPort, { players: 12, maxPlayers: 150 });
    await refreshServerStatus(steamDeps(steam, clock));
    const [row] = await testDeps().db.orm.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ steamSeenAt: clock.now().getTime(), steamPlayers: 12, steamMaxPlayers: 150 });
  });

  const failures: SteamAnswer[] = [
    "not-found",
    "malformed",
    "wrong-shape",
    "server-error",
    "slow",
    "stalled-body",
    "network-error",
  ];

  it("treats every failed lookup as 'not seen now', without spoiling the other servers", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const healthy = await addServer("Здоровый сервер");
    const failing = await Promise.all(failures.map((kind) => addServer(`Сервер (${kind})`)));
    steam.answer(healthy.ipPort, { players: 50, maxPlayers: 100 });
    for (const server of failing) steam.answer(server.ipPort, { players: 7, maxPlayers: 70 });
    await refreshServerStatus(steamDeps(steam, clock), FAST_TIMEOUT);

    // Steam now fails in every way it can, one way per server.
    failures.forEach((kind, index) => {
      steam.answer(failing[index]?.ipPort as string, kind);
    });
    steam.answer(healthy.ipPort, { players: 51, maxPlayers: 100 });
    clock.advance(MINUTE);
    const first = await refreshServerStatus(steamDeps(steam, clock), FAST_TIMEOUT);
    expect(find(first.document, healthy.ipPort)).toMatchObject({ status: "online", players: { current: 51 } });
    for (const server of failing) {
      // Last seen a minute ago: still online with what Steam last showed.
      expect(find(first.document, server.ipPort)).toMatchObject({ status: "online", players: { current: 7, max: 70 } });
    }
    expect(first.written).toBe(false); // only a minute since the last write
    clock.advance(MINUTE);
    expect((await refreshServerStatus(steamDeps(steam, clock), FAST_TIMEOUT)).written).toBe(true);

    clock.advance(MINUTE);
    const later = await refreshServerStatus(steamDeps(steam, clock), FAST_TIMEOUT);
    expect(find(later.document, healthy.ipPort).status).toBe("online");
    for (const server of failing) {
      expect(find(later.document, server.ipPort)).toMatchObject({ status: "offline", players: { current: 0 } });
    }
    const stored = (await kvDocument()) as StatusDocument;
    expect(find(stored, healthy.ipPort).status).toBe("online");
  });

  it.each(failures)("shows a never-seen server offline when Steam's answer is %s", async (kind) => {
    const steam = new FakeSteamWebApi();
    const server = await addServer();
    steam.answer(server.ipPort, kind);
    const { document, written } = await refreshServerStatus(steamDeps(steam, testClock()), FAST_TIMEOUT);
    expect(find(document, server.ipPort)).toMatchObject({ status: "offline", players: { current: 0, max: 0 } });
    expect(written).toBe(true);
  });
});

describe("merging the plugins' heartbeats", () => {
  async function beat(serverId: number, players: number, maxPlayers: number, receivedAt: number) {
    const values = { serverId, hostname: "rust", players, maxPlayers, onlineSteamIds: [], receivedAt };
    await testDeps()
      .db.orm.insert(serverHeartbeats)
      .values(values)
      .onConflictDoUpdate({ target: serverHeartbeats.serverId, set: values });
  }

  it("a recent heartbeat alone makes a server online, until it is 3 minutes old", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    steam.answer(server.ipPort, "offline");
    await beat(server.id, 17, 50, clock.now().getTime() - 30_000);

    let { document } = await refreshServerStatus(steamDeps(steam, clock));
    expect(find(document, server.ipPort)).toMatchObject({ status: "online", players: { current: 17, max: 50 } });

    clock.advance(2 * MINUTE + 30_000);
    ({ document } = await refreshServerStatus(steamDeps(steam, clock)));
    expect(find(document, server.ipPort)).toMatchObject({ status: "offline", players: { current: 0, max: 50 } });
  });

  it("the freshest sighting wins, whether Steam's or the plugin's", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    steam.answer(server.ipPort, { players: 10, maxPlayers: 100 });
    await beat(server.id, 99, 100, clock.now().getTime() - MINUTE);
    let { document } = await refreshServerStatus(steamDeps(steam, clock));
    expect(find(document, server.ipPort).players.current).toBe(10);

    // Steam stops answering; the plugin reported 90 s after Steam's last sighting.
    steam.answer(server.ipPort, "server-error");
    await beat(server.id, 20, 100, clock.now().getTime() + 90_000);
    clock.advance(2 * MINUTE);
    ({ document } = await refreshServerStatus(steamDeps(steam, clock)));
    expect(find(document, server.ipPort)).toMatchObject({ status: "online", players: { current: 20, max: 100 } });
  });
});

describe("KV writes (decision 001)", () => {
  it("skips unchanged documents, rate-limits changed ones and rewrites every 15 minutes", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const start = clock.now().getTime();
    const server = await addServer();
    // Every other server of this file steady, so only our script changes the document.
    steam.otherwise({ players: 1, maxPlayers: 10 }).answer(server.ipPort, { players: 5, maxPlayers: 100 });
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(true);

    // Same answer a minute later: nothing to write.
    clock.advance(MINUTE);
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(false);
    expect((await kvDocument())?.updated_at).toBe(start);

    // A change right after a write waits until the minimum interval has passed.
    steam.answer(server.ipPort, { players: 6, maxPlayers: 100 });
    clock.set(start + MIN_WRITE_INTERVAL_MS - 1);
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(false);
    expect(find((await kvDocument()) as StatusDocument, server.ipPort).players.current).toBe(5);
    clock.set(start + MIN_WRITE_INTERVAL_MS);
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(true);
    expect(find((await kvDocument()) as StatusDocument, server.ipPort).players.current).toBe(6);

    // Unchanged for a long time: one rewrite after 15 minutes, so updated_at shows the cron is alive.
    const lastWrite = clock.now().getTime();
    for (let minute = 1; minute < REWRITE_UNCHANGED_AFTER_MS / MINUTE; minute++) {
      clock.set(lastWrite + minute * MINUTE);
      expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(false);
    }
    clock.set(lastWrite + REWRITE_UNCHANGED_AFTER_MS);
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(true);
    expect((await kvDocument())?.updated_at).toBe(lastWrite + REWRITE_UNCHANGED_AFTER_MS);
  });

  it("replaces a garbage or foreign document at once", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    steam.answer(server.ipPort, { players: 1, maxPlayers: 10 });
    await env.STATUS_KV.put(STATUS_KEY, "{not json");
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(true);
    await env.STATUS_KV.put(STATUS_KEY, JSON.stringify({ updated_at: clock.now().getTime(), servers: "none" }));
    expect((await refreshServerStatus(steamDeps(steam, clock))).written).toBe(true);
    expect(find((await kvDocument()) as StatusDocument, server.ipPort).status).toBe("online");
  });

  it("stays within the free plan's 1,000 writes a day even when player counts change every minute", async () => {
    const steam = new FakeSteamWebApi();
    const clock = testClock();
    const server = await addServer();
    const runs = 60; // an hour of minutely runs
    let writes = 0;
    for (let run = 0; run < runs; run++) {
      steam.answer(server.ipPort, { players: run % 50, maxPlayers: 100 });
      if ((await refreshServerStatus(steamDeps(steam, clock))).written) writes++;
      clock.advance(MINUTE);
    }
    expect(writes).toBeGreaterThan(0);
    expect(writes * (1440 / runs)).toBeLessThanOrEqual(1000);
  });
});

describe("the scheduled handler", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("refreshes KV from Steam when Cloudflare fires the cron", async () => {
    const steam = new FakeSteamWebApi();
    const online = await addServer("Онлайн");
    const down = await addServer("Упал");
    steam.answer(online.ipPort, { players: 64, maxPlayers: 128 }).answer(down.ipPort, "server-error");
    // The network boundary: the Worker's own outbound fetch goes to the fake Steam.
    vi.stubGlobal("fetch", steam.fetch);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), steamEnv(), ctx);
    await waitOnExecutionContext(ctx);

    const stored = (await kvDocument()) as StatusDocument;
    expect(find(stored, online.ipPort)).toMatchObject({ status: "online", players: { current: 64, max: 128 } });
    expect(find(stored, down.ipPort).status).toBe("offline");
  });

  it("uses the local Steam stand-in when configured with it, which lists every known server", async () => {
    const server = await addServer("Через стенд");
    // The test env points STEAM_WEBAPI_BASE at /__standins/steam-webapi, answered in-process.
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const stored = (await kvDocument()) as StatusDocument;
    const shown = find(stored, server.ipPort);
    expect(shown.status).toBe("online");
    expect(shown.players.max).toBe(200);
    expect(shown.players.current).toBeGreaterThanOrEqual(0);
    expect(shown.players.current).toBeLessThanOrEqual(200);
  });
});
