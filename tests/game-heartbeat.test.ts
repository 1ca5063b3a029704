import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { depsFor } from "#tests/support/deps.ts";
import { refreshServerStatus } from "#worker/services/server-status.ts";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { clockedTransport, createGameServer } from "./support/game-fixtures.ts";
import { uniqueSteamId } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";

describe("heartbeats", () => {
  it("shows a server online in the status list from its plugin's heartbeat alone", async () => {
    const clock = testClock();
    const server = await createGameServer(testDeps({ now: clock.now }), { serverType: "MAX2" });
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const online = [uniqueSteamId(), uniqueSteamId(), uniqueSteamId()];
    const beat = await sim.heartbeat(online, { max_players: 150, queue: 2, map: "Barren" });
    expect(beat.status).toBe(200);
    expect(
      await env.DB.prepare(
        "SELECT hostname, players, max_players, queue, map, online_steam_ids, received_at FROM server_heartbeats WHERE server_id = ?",
      )
        .bind(server.id)
        .first(),
    ).toEqual({
      hostname: "Симулятор",
      players: 3,
      max_players: 150,
      queue: 2,
      map: "Barren",
      online_steam_ids: JSON.stringify(online),
      received_at: clock.now().getTime(),
    });

    // Steam's master list doesn't know the server at all.
    const steam = new FakeSteamWebApi();
    const deps = () => depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: clock.now });
    clock.advance(60_000);
    const { document } = await refreshServerStatus(deps(), { steamTimeoutMs: 1000 });
    expect(steam.requests.some((request) => request.filter === `\\gameaddr\\${server.ipPort}`)).toBe(true);
    expect(document.servers.find((row) => row.ip_port === server.ipPort)).toEqual({
      name: "Тестовый сервер",
      server_type: "MAX2",
      status: "online",
      players: { current: 3, max: 150 },
      ip_port: server.ipPort,
    });

    // Without a fresher heartbeat it goes offline after three minutes.
    clock.advance(2 * 60_000);
    const later = await refreshServerStatus(deps(), { steamTimeoutMs: 1000 });
    expect(later.document.servers.find((row) => row.ip_port === server.ipPort)?.status).toBe("offline");
  });
});
