import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { depsFor, testClock, testDeps } from "#tests/support/deps.ts";
import { refreshServerStatus } from "#worker/services/server-status.ts";
import { loader as deliveriesLoader } from "../app/routes/admin.deliveries.tsx";
import { loader as serversLoader } from "../app/routes/admin.servers.tsx";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";

// One rule for "a server is alive" (decision 151): its last heartbeat within 3 minutes, or within 9 when
// that heartbeat said its doorbell was connected (the plugin then beats every 180 s). Every reader holds
// to it: the lease's hand-off, the console's «Серверы» and deliveries, the public server list.

const MINUTE = 60_000;

/**
 * A server whose player's delivery failed once and waits for it (its home), a twin of its type, and
 * what each reader says of the home `silentFor` after its last heartbeat (with the doorbell or not).
 */
async function homeSilentFor(silentFor: number, beat: { doorbell?: boolean }) {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const transport = clockedTransport(clock.now);
  const simFor = (server: { id: number; key: string }) =>
    new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now });
  const home = await createGameServer(deps, { serverType });
  const sim = simFor(home);
  const twin = simFor(await createGameServer(deps, { serverType }));
  const player = await createPlayer({ deps });
  const item = await createDeliverableItem(deps, { serverType });
  await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
  const admin = await createOperator(deps, "admin");

  expect((await sim.heartbeat([player.steamId], beat)).status).toBe(200);
  const [served] = (await sim.poll([player.steamId])).deliveries;
  const id = served?.delivery_id ?? "";
  // Reported: the lease ends, and the retry stays with its home while the home is alive.
  expect((await sim.ack([{ delivery_id: id, ok: false, message: "Группа vip не найдена" }])).status).toBe(200);

  clock.advance(silentFor);
  const steam = new FakeSteamWebApi();
  const status = await refreshServerStatus(
    depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: clock.now }),
    { steamTimeoutMs: 1000 },
  );
  const servers = await serversLoader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
  const deliveries = await deliveriesLoader(
    consoleArgs(deps, `/admin/deliveries?type=${serverType}&status=pending`, { token: admin.token }),
  );
  return {
    /** The public list (the cron's status document), Steam not seeing the server. */
    listed: status.document.servers.find((row) => row.ip_port === home.ipPort)?.status,
    /** The console's «Серверы» badge: «На связи» or «Нет связи». */
    console: servers.servers.find((server) => server.id === home.id)?.online,
    /** What the console's «Повторить» says it would do. */
    retryPlan: deliveries.rows.find((row) => row.id === id)?.retryPlan,
    /** Whether its twin's poll takes the delivery (the lease's hand-off). */
    handedOff: (await twin.poll([player.steamId])).deliveries.some((delivery) => delivery.delivery_id === id),
    home,
    serverType,
    player,
  };
}

describe("a server is alive (decision 151)", () => {
  it("with its doorbell connected at its last heartbeat, 5 minutes of silence: still alive everywhere", async () => {
    const seen = await homeSilentFor(5 * MINUTE, { doorbell: true });
    expect(seen).toMatchObject({ listed: "online", console: true, handedOff: false });
    expect(seen.retryPlan).toBe(
      `Повторить выполнит: 1. oxide.usergroup add ${seen.player.steamId} vip — на сервере №${seen.home.id} «Тестовый сервер».`,
    );
  });

  it.each([
    ["without the doorbell, 5 minutes", 5 * MINUTE, {}],
    ["with the doorbell off, 5 minutes", 5 * MINUTE, { doorbell: false }],
    ["with the doorbell connected, 10 minutes", 10 * MINUTE, { doorbell: true }],
  ])("%s of silence: gone everywhere, its delivery handed to its twin", async (_, silentFor, beat) => {
    const seen = await homeSilentFor(silentFor, beat);
    expect(seen).toMatchObject({ listed: "offline", console: false, handedOff: true });
    expect(seen.retryPlan).toMatch(
      new RegExp(
        `^Повторить выполнит: 1\\. oxide\\.usergroup add ${seen.player.steamId} vip — на любом сервере типа ${seen.serverType} \\(сервер №${seen.home.id} не отвечает с `,
      ),
    );
  });
});
