import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runScheduled } from "#worker/cron/index.ts";
import { LEASE_MS } from "#worker/services/game/deliveries.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import { depsFor, testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator, type Transport } from "./support/plugin-simulator.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("plugin simulator against the real API", () => {
  it("purchase → offline wait → delivery with a crash before the ack → duplicates → expiry and revoke", async () => {
    const clock = testClock();
    const deps = testDeps({ now: clock.now });
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    const player = await createPlayer({ deps, nickname: "Рейдер" });
    const item = await createDeliverableItem(deps, {
      serverType,
      name: "VIP",
      grant: ["oxide.usergroup add {steamid} vip", "say {nickname} получил VIP на {days} дн."],
      revoke: ["oxide.usergroup remove {steamid} vip"],
      durations: [30],
    });
    // Money through the ledger, then a real purchase through the shop's service.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO ledger (user_id, amount, kind) VALUES (?, 100000, 'adjustment')").bind(player.id),
      env.DB.prepare("UPDATE users SET balance = balance + 100000 WHERE id = ?").bind(player.id),
    ]);
    const bought = await purchaseItem(deps, player.id, {
      itemId: item.id,
      serverType,
      durationDays: 30,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(bought.ok).toBe(true);
    const entry = await env.DB.prepare("SELECT * FROM inventory_entries WHERE user_id = ?")
      .bind(player.id)
      .first<{ id: number; status: string }>();
    expect(entry?.status).toBe("not_used");
    const entryRow = () => env.DB.prepare("SELECT * FROM inventory_entries WHERE id = ?").bind(entry?.id).first();

    // The network between the game server and the site; acks can be cut off.
    const site = clockedTransport(clock.now);
    let acksReachSite = true;
    const network: Transport = async (request) =>
      !acksReachSite && new URL(request.url).pathname === "/api/game/ack"
        ? new Response("upstream unavailable", { status: 503 })
        : site(request);
    const plugin = new PluginSimulator({
      transport: network,
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const grantCommands = [`oxide.usergroup add ${player.steamId} vip`, "say Рейдер получил VIP на 30 дн."];

    // The player is offline: nothing runs, /store tells what is waiting.
    expect(await plugin.tick([])).toEqual([]);
    expect((await plugin.pending(player.steamId)).json).toMatchObject({
      items: [{ name: "VIP", duration_days: 30, failed: false }],
    });

    // The player joins; commands run, and the server crashes before acknowledging.
    clock.advance(10_000);
    const [served] = await plugin.tick([player.steamId], { crashBeforeAck: true });
    const id = served?.delivery_id ?? "";
    expect(plugin.console.commandsFor(id)).toEqual(grantCommands);
    expect(await entryRow()).toMatchObject({ status: "not_used" });

    // Restarted, but the site can't be reached for acks yet; within the lease nothing comes back.
    const restarted = plugin.restart();
    acksReachSite = false;
    clock.advance(10_000);
    expect(await restarted.tick([player.steamId])).toEqual([]);

    // After the lease the same server gets the delivery again: the journal says it ran, so it doesn't run again.
    clock.advance(LEASE_MS);
    const [again] = await restarted.tick([player.steamId]);
    expect(again?.delivery_id).toBe(id);
    expect(restarted.console.commandsFor(id)).toEqual(grantCommands);

    // The site is back: the journaled result is acknowledged and the Корзина entry is used.
    acksReachSite = true;
    clock.advance(10_000);
    expect(await restarted.tick([player.steamId])).toEqual([]);
    const deliveredAt = clock.now().getTime();
    expect(await entryRow()).toMatchObject({
      status: "used",
      used_at: deliveredAt,
      used_server_id: server.id,
      expires_at: deliveredAt + 30 * DAY,
    });
    expect((await plugin.pending(player.steamId)).json.items).toEqual([]);

    // Duplicate polls and acks change nothing and run nothing.
    clock.advance(10_000);
    expect((await restarted.poll([player.steamId])).deliveries).toEqual([]);
    expect((await restarted.ack([{ delivery_id: id, ok: true }])).json.results).toEqual([
      { delivery_id: id, status: "duplicate" },
    ]);
    expect(await entryRow()).toMatchObject({ status: "used", used_at: deliveredAt });
    expect(restarted.console.executed).toHaveLength(2);

    // Thirty days later the cron runs and the revoke is due; it may run with the player offline.
    clock.advance(30 * DAY);
    const steam = new FakeSteamWebApi();
    await runScheduled(
      createScheduledController({ cron: "* * * * *" }).cron,
      depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { now: clock.now, fetch: steam.fetch }),
      { serverStatus: { steamTimeoutMs: 1000 } },
    );
    const [revoke] = await restarted.tick([]);
    expect(revoke).toMatchObject({ kind: "revoke", steam_id: player.steamId });
    expect(restarted.console.commandsFor(revoke?.delivery_id ?? "")).toEqual([
      `oxide.usergroup remove ${player.steamId} vip`,
    ]);
    const rows = await env.DB.prepare(
      "SELECT kind, status, done_server_id, attempts FROM deliveries WHERE inventory_entry_id = ? ORDER BY kind",
    )
      .bind(entry?.id)
      .all();
    expect(rows.results).toEqual([
      { kind: "grant", status: "done", done_server_id: server.id, attempts: 0 },
      { kind: "revoke", status: "done", done_server_id: server.id, attempts: 0 },
    ]);
    clock.advance(10_000);
    expect(await restarted.tick([player.steamId])).toEqual([]);
    expect(restarted.console.executed).toHaveLength(3);
  });
});

describe("the plugin checks what each command did", () => {
  async function setup(grant: string[]) {
    const clock = testClock();
    const deps = testDeps({ now: clock.now });
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    const player = await createPlayer({ deps, nickname: "Рейдер" });
    const item = await createDeliverableItem(deps, { serverType, name: "VIP", grant });
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const plugin = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const card = async () => (await listInventory(deps, player.id)).find((row) => row.id === entry.id);
    const delivery = () =>
      env.DB.prepare("SELECT status, attempts, last_error FROM deliveries WHERE inventory_entry_id = ?")
        .bind(entry.id)
        .first();
    return { clock, player, plugin, card, delivery };
  }

  it("a group the server doesn't have fails the grant; retried, and after five the Корзина shows why", async () => {
    const { clock, player, plugin, card } = await setup(["oxide.usergroup add {steamid} vip"]);
    plugin.console.groups.delete("vip"); // the server's owner hasn't created the group
    const online = [player.steamId];
    for (const minutes of [1, 5, 15, 60]) {
      expect(await plugin.tick(online)).toMatchObject([{ kind: "grant" }]);
      expect(await card()).toMatchObject({ status: "not_used", last_error: null });
      clock.advance(minutes * 60_000);
    }
    expect(await plugin.tick(online)).toMatchObject([{ kind: "grant" }]);
    expect(await card()).toMatchObject({
      status: "not_used",
      used_at: null,
      // The player reads why in their words; the operators' note stays in the console (issue 36).
      last_error: "Сервер не смог выдать предмет.",
    });
    clock.advance(DAY);
    expect(await plugin.tick(online)).toEqual([]);
  });

  it("a group change that didn't take is a failure too", async () => {
    const { player, plugin, delivery } = await setup(["oxide.usergroup add {steamid} vip"]);
    // E.g. another plugin's OnUserGroupAdded hook took the player straight back out.
    plugin.console.groupChangesUndone = true;
    await plugin.tick([player.steamId]);
    expect(await delivery()).toEqual({
      status: "pending",
      attempts: 1,
      last_error: `После «oxide.usergroup add ${player.steamId} vip» игрок не в группе vip`,
    });
  });

  it("a failed command stops the delivery's later commands; once it runs, the delivery is done", async () => {
    const { clock, player, plugin, delivery, card } = await setup([
      "inventory.giveto {steamid} rifle.ak47 1",
      "say {nickname} получил набор",
    ]);
    plugin.console.failWith = (command) =>
      command.startsWith("inventory.giveto") ? "Нет такого предмета в Rust: rifle.ak47" : null;
    const [served] = await plugin.tick([player.steamId]);
    expect(await delivery()).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "Нет такого предмета в Rust: rifle.ak47",
    });
    // Neither the give that failed nor the message after it took effect.
    expect(plugin.console.commandsFor(served?.delivery_id ?? "")).toEqual([]);

    plugin.console.failWith = null;
    clock.advance(60_000);
    await plugin.tick([player.steamId]);
    expect(await card()).toMatchObject({ status: "used", last_error: null });
    expect(plugin.console.commandsFor(served?.delivery_id ?? "")).toEqual([
      `inventory.giveto ${player.steamId} rifle.ak47 1`,
      `say Рейдер получил набор`,
    ]);
  });
});
