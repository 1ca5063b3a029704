import { env } from "cloudflare:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { depsFor } from "#tests/support/deps.ts";
import { refreshServerStatus, STATUS_KEY } from "#worker/services/server-status.ts";
import { ServerList } from "../app/components/server-list.tsx";
import { loader as homeLoader } from "../app/routes/home.tsx";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { clockedTransport, createGameServer } from "./support/game-fixtures.ts";
import { uniqueSteamId } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";
import { routeArgs } from "./support/routes.ts";
import { firstRow } from "./support/sql.ts";

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
      await firstRow(
        "SELECT hostname, players, max_players, queue, map, online_steam_ids, received_at FROM server_heartbeats WHERE server_id = ?",
        server.id,
      ),
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
      map: { name: "Barren", size: null },
      wiped_at: null,
    });

    // Without a fresher heartbeat it goes offline after three minutes.
    clock.advance(2 * 60_000);
    const later = await refreshServerStatus(deps(), { steamTimeoutMs: 1000 });
    expect(later.document.servers.find((row) => row.ip_port === server.ipPort)?.status).toBe("offline");
  });
});

describe("the map and the last wipe from the heartbeat (issues 20 and 21)", () => {
  async function world() {
    const clock = testClock();
    const deps = testDeps({ now: clock.now });
    const server = await createGameServer(deps, { serverType: "MAX3", name: `Карта ${uniqueSteamId()}` });
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const steam = new FakeSteamWebApi();
    /** The home page's card of this server, as the page prints it, after the cron ran. */
    const card = async () => {
      const deps = depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: clock.now });
      const { document } = await refreshServerStatus(deps, { steamTimeoutMs: 1000 });
      // Whether this run wrote KV depends on the shared document's age; the page reads what the cron writes.
      await deps.kv.put(STATUS_KEY, JSON.stringify(document));
      const data = await homeLoader(routeArgs(deps, "http://localhost/"));
      const html = renderToStaticMarkup(
        createElement(ServerList, { initial: data.servers, renderedAt: data.renderedAt }),
      );
      const start = html.indexOf(server.name);
      const end = html.indexOf("</li>", start);
      return html.slice(html.lastIndexOf("<li", start), end);
    };
    return { clock, server, sim, card };
  }

  it("stores map, size, seed and wipe and shows them on the home page's card with a Steam connect link", async () => {
    const { clock, server, sim, card } = await world();
    const wipedAt = Math.floor(clock.now().getTime() / 1000) - 2 * 86_400 - 3600;
    const beat = await sim.heartbeat([uniqueSteamId()], {
      map: "Procedural Map",
      map_size: 4500,
      map_seed: 1337,
      wiped_at: wipedAt,
    });
    expect(beat.status).toBe(200);
    expect(
      await firstRow("SELECT map, map_size, map_seed, wiped_at FROM server_heartbeats WHERE server_id = ?", server.id),
    ).toEqual({ map: "Procedural Map", map_size: 4500, map_seed: 1337, wiped_at: wipedAt * 1000 });

    clock.advance(60_000);
    const html = await card();
    expect(html).toContain("Procedural Map · 4500");
    expect(html).toContain("вайп был 2 дня назад");
    expect(html).toContain(`href="steam://connect/${server.ipPort}"`);
    expect(html).toContain(">Подключиться</a>");

    // A wipe an hour ago.
    clock.advance(60_000);
    await sim.heartbeat([], {
      map: "Procedural Map",
      map_size: 3000,
      wiped_at: Math.floor(clock.now().getTime() / 1000) - 3600,
    });
    expect(await card()).toContain("Procedural Map · 3000");
    expect(await card()).toContain("вайп был 1 ч назад");
  });

  it("still accepts an older plugin's heartbeat without them; the card shows no map or wipe", async () => {
    const { clock, server, sim, card } = await world();
    const beat = await sim.heartbeat([], { map: undefined });
    expect(beat.status).toBe(200);
    expect(
      await firstRow("SELECT map, map_size, map_seed, wiped_at FROM server_heartbeats WHERE server_id = ?", server.id),
    ).toEqual({ map: null, map_size: null, map_seed: null, wiped_at: null });
    clock.advance(60_000);
    const html = await card();
    expect(html).toContain(server.ipPort);
    expect(html).not.toContain("вайп");
    expect(html).not.toContain("server-card__map");
    expect(html).toContain(`href="steam://connect/${server.ipPort}"`);
  });

  it("takes a heartbeat with an over-long hostname, an odd map size, a negative seed or a wipe in the future, leaving those out: a live server never looks dead (issue 35)", async () => {
    const { clock, server, sim } = await world();
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    for (const extra of [
      { map_size: 999 },
      { map_size: 6001 },
      { map_seed: -1 },
      { wiped_at: nowSeconds + 3600 },
      { wiped_at: "yesterday" },
      { hostname: "Свобода ".repeat(40) },
    ]) {
      // Past HEARTBEAT_REWRITE_AFTER_MS, so each is written (decision 126: an unchanged beat sooner is not).
      clock.advance(51_000);
      expect((await sim.heartbeat([], { map: "Procedural Map", ...extra })).status).toBe(200);
      const row = await firstRow<{
        received_at: number;
        map_size: number | null;
        map_seed: number | null;
        wiped_at: number | null;
        hostname: string;
      }>(
        "SELECT received_at, map_size, map_seed, wiped_at, hostname FROM server_heartbeats WHERE server_id = ?",
        server.id,
      );
      expect(row?.received_at).toBe(clock.now().getTime());
      expect(row).toMatchObject({ map_size: null, map_seed: null, wiped_at: null });
      expect(row?.hostname.length).toBeLessThanOrEqual(200);
    }
  });
});
