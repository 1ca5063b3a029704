import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";

// Timed ranks (docs/decisions/063-timed-ranks-stack.md): time on one rank stacks, and the
// rank is taken away once, when no paid time is left, on the server that gave it.

const DAY = 24 * 60 * 60 * 1000;
const VIP = {
  grant: ["oxide.usergroup add {steamid} vip"],
  revoke: ["oxide.usergroup remove {steamid} vip"],
};

async function world() {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType });
  const player = await createPlayer({ deps, nickname: "Рейдер" });
  const vip = await createDeliverableItem(deps, { serverType, name: "VIP", ...VIP, durations: [7, 30] });
  // What the promo code VIPWEEK gives: another item, the same rank.
  const vipWeek = await createDeliverableItem(deps, { serverType, name: "VIP на неделю", ...VIP, durations: [7] });
  const transport = clockedTransport(clock.now);
  const pluginOn = (target: { id: number; key: string }) =>
    new PluginSimulator({ transport, serverId: target.id, serverKey: target.key, now: clock.now });
  const cardsOf = async () => listInventory(deps, player.id);
  return { clock, deps, serverType, server, player, vip, vipWeek, plugin: pluginOn(server), pluginOn, cardsOf };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe("timed ranks", () => {
  it("a second rank delivered while 5 days remain ends 35 days from now; the rank is taken once, then", async () => {
    const { clock, deps, serverType, player, vip, vipWeek, plugin, cardsOf } = await world();
    const online = [player.steamId];
    const week = await createEntry(deps, { userId: player.id, itemId: vipWeek.id, serverType, durationDays: 7 });
    await plugin.tick(online);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);

    clock.advance(2 * DAY);
    const month = await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 30 });
    await plugin.tick(online);
    const end = clock.now().getTime() + 35 * DAY;
    // Every card of the rank shows when the rank really ends.
    expect((await cardsOf()).map(({ id, status, expires_at }) => ({ id, status, expires_at }))).toEqual([
      { id: month.id, status: "used", expires_at: iso(end) },
      { id: week.id, status: "used", expires_at: iso(end) },
    ]);

    // The week's own end passes: the player keeps VIP.
    clock.advance(5 * DAY);
    await runGameMaintenance(deps);
    expect(await plugin.tick([])).toEqual([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);

    clock.set(end - 1);
    expect(await plugin.tick([])).toEqual([]);
    clock.set(end);
    const [revoke] = await plugin.tick([]);
    expect(revoke).toMatchObject({ kind: "revoke", commands: [`oxide.usergroup remove ${player.steamId} vip`] });
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);

    clock.advance(60 * DAY);
    await runGameMaintenance(deps);
    expect(await plugin.tick([])).toEqual([]);
    expect(plugin.console.executed.filter(({ command }) => command.includes("remove"))).toHaveLength(1);
    const revokes = await env.DB.prepare(
      "SELECT inventory_entry_id AS entry, status FROM deliveries WHERE kind = 'revoke' AND inventory_entry_id IN (?, ?) ORDER BY inventory_entry_id",
    )
      .bind(week.id, month.id)
      .all();
    expect(revokes.results).toEqual([
      { entry: week.id, status: "superseded" },
      { entry: month.id, status: "done" },
    ]);
  });

  it("holds back a revoke while a grant of the rank leased to the server is unacknowledged", async () => {
    const { clock, deps, serverType, player, vip, vipWeek, plugin } = await world();
    await createEntry(deps, { userId: player.id, itemId: vipWeek.id, serverType, durationDays: 7 });
    await plugin.tick([player.steamId]);
    clock.advance(7 * DAY - 60_000);
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 30 });
    // The grant runs, then the server crashes before acknowledging it.
    expect(await plugin.tick([player.steamId], { crashBeforeAck: true })).toMatchObject([{ kind: "grant" }]);
    clock.advance(60_000);
    const restarted = plugin.restart();
    expect((await restarted.poll([])).deliveries).toEqual([]);
    // Its journal acknowledges the grant: the week's revoke is covered and never runs.
    await restarted.tick([]);
    clock.advance(DAY);
    expect(await restarted.tick([])).toEqual([]);
    expect(restarted.console.inGroup(player.steamId, "vip")).toBe(true);
  });

  it("the same item bought twice stacks too", async () => {
    const { clock, deps, serverType, player, vip, plugin, cardsOf } = await world();
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 7 });
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 7 });
    await plugin.tick([player.steamId]);
    const end = clock.now().getTime() + 14 * DAY;
    expect((await cardsOf()).map((card) => card.expires_at)).toEqual([iso(end), iso(end)]);
    clock.set(end - 1);
    expect(await plugin.tick([])).toEqual([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
    clock.set(end);
    expect(await plugin.tick([])).toMatchObject([{ kind: "revoke" }]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);
  });

  it("an overdue revoke served with a new grant of the rank runs first, so the player keeps the new time", async () => {
    const { clock, deps, serverType, player, vip, vipWeek, plugin, cardsOf } = await world();
    await createEntry(deps, { userId: player.id, itemId: vipWeek.id, serverType, durationDays: 7 });
    await plugin.tick([player.steamId]);
    // Bought the next day; the server is down until after the week ends.
    clock.advance(DAY);
    const month = await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 30 });
    await runGameMaintenance(deps);
    clock.advance(7 * DAY);

    const served = await plugin.tick([player.steamId]);
    expect(served.map((delivery) => delivery.kind)).toEqual(["revoke", "grant"]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
    const card = (await cardsOf()).find((entry) => entry.id === month.id);
    expect(card?.expires_at).toBe(iso(clock.now().getTime() + 30 * DAY));
  });

  it("a different rank doesn't stack or keep another rank", async () => {
    const { clock, deps, serverType, player, vip, plugin, cardsOf } = await world();
    const premium = await createDeliverableItem(deps, {
      serverType,
      name: "Premium",
      grant: ["oxide.usergroup add {steamid} premium"],
      revoke: ["oxide.usergroup remove {steamid} premium"],
      durations: [30],
    });
    plugin.console.groups.set("premium", new Set());
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 7 });
    await createEntry(deps, { userId: player.id, itemId: premium.id, serverType, durationDays: 30 });
    await plugin.tick([player.steamId]);
    const now = clock.now().getTime();
    expect((await cardsOf()).map((card) => card.expires_at).sort()).toEqual([iso(now + 7 * DAY), iso(now + 30 * DAY)]);
    clock.advance(7 * DAY);
    expect(await plugin.tick([])).toMatchObject([{ kind: "revoke" }]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);
    expect(plugin.console.inGroup(player.steamId, "premium")).toBe(true);
  });
});

describe("revokes go to the server that granted", () => {
  it("with two servers of one type, only the granting server is served the revoke", async () => {
    const { clock, deps, serverType, player, vip, plugin, pluginOn } = await world();
    const second = pluginOn(await createGameServer(deps, { serverType }));
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 7 });
    expect(await second.tick([player.steamId])).toMatchObject([{ kind: "grant" }]);

    clock.advance(7 * DAY);
    expect(await plugin.tick([])).toEqual([]);
    expect(await second.tick([])).toMatchObject([{ kind: "revoke" }]);
    expect(second.console.inGroup(player.steamId, "vip")).toBe(false);
  });

  it("a revoke whose server is no longer of the type is left for an operator, with the reason", async () => {
    const { clock, deps, serverType, server, player, vip, plugin, pluginOn } = await world();
    const entry = await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 7 });
    await plugin.tick([player.steamId]);
    const twin = pluginOn(await createGameServer(deps, { serverType }));
    await env.DB.prepare("UPDATE servers SET server_type = ? WHERE id = ?").bind(uniqueServerType(), server.id).run();

    clock.advance(7 * DAY);
    const report = await runGameMaintenance(deps);
    expect(report.revokesStranded).toBe(1);
    expect(await twin.tick([])).toEqual([]);
    expect(await plugin.tick([])).toEqual([]);
    const revoke = await env.DB.prepare(
      "SELECT status, last_error FROM deliveries WHERE inventory_entry_id = ? AND kind = 'revoke'",
    )
      .bind(entry.id)
      .first();
    expect(revoke).toEqual({
      status: "stranded",
      last_error: `Сервер #${server.id}, выдавший привилегию, удалён или сменил тип; снимите её вручную`,
    });
    expect((await runGameMaintenance(deps)).revokesStranded).toBe(0);
  });
});
