// Decision 130: «до вайпа» as a term. An item sold until the next wipe of the server it is delivered
// on, at its own price; the wipe (a new map the plugin reports, or the schedule's time passing while
// the server is down) ends it and its revoke runs once, on that server.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CATALOG_TEXT } from "#core/messages/admin.ts";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import { scheduleToColumns } from "#core/wipe/schedule.ts";
import { deliveries, inventoryEntries, items, ledger, sales, servers } from "#db/schema.ts";
import { runScheduled } from "#worker/cron/index.ts";
import { itemFormSchema } from "#worker/services/admin/catalog-input.ts";
import { setWipeSchedule } from "#worker/services/admin/servers.ts";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { CATALOG_TRUST_MS } from "#worker/services/shop/catalog-snapshot.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { createOperator } from "./support/admin-fixtures.ts";
import { testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Tuesday 1 December 2026, 10:00 in Moscow.
const START = Date.parse("2026-12-01T07:00:00Z");
// The server wipes weekly on Thursdays at 20:00 Moscow time; Thursday 3 December is the month's first,
// so Facepunch's forced wipe at 22:00 takes that day's place.
const THURSDAY_WIPE = Date.parse("2026-12-03T19:00:00Z");
const VIP = {
  grant: ["oxide.usergroup add {steamid} vip"],
  revoke: ["oxide.usergroup remove {steamid} vip"],
};

async function world({ untilWipePrice = 15_000, durations = [] as number[] } = {}) {
  const clock = testClock(START);
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType, name: "Свобода #7" });
  await deps.db.orm
    .update(servers)
    .set({ ...scheduleToColumns({ kind: "weekly", weekday: 4, minute: 20 * 60 }), wipeKind: "weekly" })
    .where(eq(servers.id, server.id));
  const vip = await createDeliverableItem(deps, { serverType, name: "VIP", ...VIP, durations });
  await deps.db.orm.update(items).set({ isOneTime: false, untilWipePrice }).where(eq(items.id, vip.id));
  const player = await createPlayer({ deps, nickname: "Рейдер", balance: 100_000 });
  const transport = clockedTransport(clock.now);
  const pluginOn = (target: { id: number; key: string }) =>
    new PluginSimulator({ transport, serverId: target.id, serverKey: target.key, now: clock.now });
  const buy = (durationDays: number | null) =>
    purchaseItem(deps, player.id, { itemId: vip.id, serverType, durationDays, idempotencyKey: crypto.randomUUID() });
  const entriesOf = () =>
    deps.db.orm
      .select({
        id: inventoryEntries.id,
        durationDays: inventoryEntries.durationDays,
        expiresAt: inventoryEntries.expiresAt,
      })
      .from(inventoryEntries)
      .where(eq(inventoryEntries.userId, player.id))
      .orderBy(inventoryEntries.id);
  const revokesOf = (entryId: number) =>
    deps.db.orm
      .select({ status: deliveries.status, notBefore: deliveries.notBefore, doneServerId: deliveries.doneServerId })
      .from(deliveries)
      .where(and(eq(deliveries.inventoryEntryId, entryId), eq(deliveries.kind, "revoke")));
  /** The plugin reports a new map made `ago` ms before now (Rust's save time, in whole seconds). */
  const newMap = async (plugin: PluginSimulator, ago = 0) => {
    const at = Math.floor((clock.now().getTime() - ago) / 1000);
    expect((await plugin.heartbeat([], { wiped_at: at })).status).toBe(200);
    return at * 1000;
  };
  return {
    clock,
    deps,
    serverType,
    server,
    vip,
    player,
    plugin: pluginOn(server),
    pluginOn,
    buy,
    entriesOf,
    revokesOf,
    newMap,
  };
}

const removals = (plugin: PluginSimulator) =>
  plugin.console.executed.filter(({ command }) => command.startsWith("oxide.usergroup remove"));

describe("the console's «до вайпа» line", () => {
  const form = (
    durations: string,
    revokeCommands = "oxide.usergroup remove {steamid} vip",
    grant = "oxide.usergroup add {steamid} vip",
  ) =>
    itemFormSchema.safeParse({
      name: "VIP",
      price: "199",
      discount: "0",
      img: "/images/shop/vip.svg",
      serverType: "SOLO",
      categoryId: "1",
      isAvailable: "on",
      durations,
      grantCommands: grant,
      revokeCommands,
    });
  const refusal = (result: ReturnType<typeof form>) => result.error?.issues.map((issue) => issue.message);

  it("reads «до вайпа = 150» beside days as its own price in kopecks", () => {
    const parsed = form("7\nдо вайпа = 150\n30 = 299");
    expect(parsed.data?.durations).toEqual({
      days: [
        { days: 7, price: null },
        { days: 30, price: 29_900 },
      ],
      untilWipePrice: 15_000,
    });
    expect(form("До вайпа=99,50").data?.durations.untilWipePrice).toBe(9_950);
  });

  it("refuses it without a price, twice, without revoke commands, with {days}, or on a one-time item", () => {
    expect(refusal(form("до вайпа"))).toEqual([CATALOG_TEXT.untilWipePrice]);
    expect(refusal(form("до вайпа = 1\nдо вайпа = 2"))).toEqual([CATALOG_TEXT.duplicateDuration]);
    expect(refusal(form("до вайпа = 150", ""))).toEqual([CATALOG_TEXT.untilWipeRevoke]);
    expect(refusal(form("до вайпа = 150", undefined, "oxide.usergroup add {steamid} vip {days}d"))).toEqual([
      CATALOG_TEXT.untilWipeDays,
    ]);
    const oneTime = itemFormSchema.safeParse({
      ...Object.fromEntries(Object.entries(form("7").data ?? {}).map(([key]) => [key, ""])),
      name: "Ящик",
      price: "10",
      discount: "0",
      img: "/x.svg",
      serverType: "SOLO",
      categoryId: "1",
      isOneTime: "on",
      durations: "до вайпа = 5",
      grantCommands: "say hi",
      revokeCommands: "say bye",
    });
    expect(oneTime.error?.issues.map((issue) => issue.message)).toContain(CATALOG_TEXT.oneTimeDurations);
  });
});

describe("buying «до вайпа»", () => {
  it("is listed as 0 days at its own price, a sale applies to it, and it is bought at it", async () => {
    const { clock, deps, serverType, vip, player, buy, entriesOf } = await world({ durations: [7, 30] });
    const item = await getItem(deps, vip.id);
    expect(item?.durations).toEqual([
      { days: 7, price: 23, discount_price: 23 },
      { days: 30, price: 100, discount_price: 100 },
      { days: 0, price: 150, discount_price: 150 },
    ]);
    // A sale of the type takes 10 % off it as off any duration (decision 113).
    await deps.db.orm
      .insert(sales)
      .values({ title: "Вайп", percent: 10, startsAt: START - HOUR, endsAt: START + DAY, serverTypes: [serverType] });
    clock.advance(CATALOG_TRUST_MS); // the page's catalog is trusted that long (decision 116)
    expect((await getItem(deps, vip.id))?.durations.at(-1)).toEqual({ days: 0, price: 150, discount_price: 135 });

    const bought = await buy(0);
    expect(bought).toMatchObject({ ok: true, balance: 865, purchase: { duration_text: "до вайпа", price: 135 } });
    const rows = await deps.db.orm.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.userId, player.id));
    expect(rows.map((row) => row.amount)).toContain(-13_500);
    expect(await entriesOf()).toEqual([{ id: expect.any(Number), durationDays: 0, expiresAt: null }]);
    const [card] = await listInventory(deps, player.id);
    expect(card).toMatchObject({ duration: 0, is_permanent: false, until_wipe: true, status: "not_used" });
  });

  it("is refused where it isn't offered, and the item sold only «до вайпа» has no permanent price", async () => {
    const offered = await world({ durations: [7] });
    await offered.deps.db.orm.update(items).set({ untilWipePrice: null }).where(eq(items.id, offered.vip.id));
    expect(await offered.buy(0)).toEqual({ ok: false, status: 400, error: PURCHASE_ERRORS.durationNotOffered });

    const only = await world();
    expect(await only.buy(null)).toMatchObject({ ok: false, status: 400 });
    expect((await only.buy(0)).ok).toBe(true);
    expect((await only.buy(7)).ok).toBe(false);
  });
});

describe("a wipe ends «до вайпа»", () => {
  it("runs until its server's next wipe, and a new map revokes it once, on that server", async () => {
    const { clock, deps, player, plugin, buy, entriesOf, revokesOf, newMap } = await world();
    await newMap(plugin, 2 * DAY); // the map the entry is delivered on
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
    const [entry] = await entriesOf();
    if (!entry) throw new Error("no entry");
    expect(entry.expiresAt).toBeNull();
    const [card] = await listInventory(deps, player.id);
    // Thursday's scheduled wipe is when it will end, if nothing comes first.
    expect(card).toMatchObject({
      status: "used",
      until_wipe: true,
      expires_at: null,
      wipe_at: new Date(THURSDAY_WIPE).toISOString(),
    });
    // Nothing is due before the wipe, however the days go.
    clock.advance(HOUR);
    await runGameMaintenance(deps);
    expect(await plugin.tick([])).toEqual([]);

    // The server is wiped early, on Wednesday: the plugin reports the new map.
    clock.set(THURSDAY_WIPE - DAY);
    const wipedAt = await newMap(plugin, 5 * MINUTE);
    expect(await entriesOf()).toEqual([{ id: entry.id, durationDays: 0, expiresAt: wipedAt }]);
    expect(await revokesOf(entry.id)).toEqual([{ status: "pending", notBefore: wipedAt, doneServerId: null }]);
    const [revoke] = await plugin.tick([]);
    expect(revoke).toMatchObject({ kind: "revoke", commands: [`oxide.usergroup remove ${player.steamId} vip`] });
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);

    // The same map again, the scheduled time passing, the cron: nothing more.
    clock.advance(MINUTE);
    await newMap(plugin, MINUTE + 5 * MINUTE);
    clock.set(THURSDAY_WIPE + MINUTE);
    await runScheduled("* * * * *", deps);
    await runGameMaintenance(deps);
    expect(await plugin.tick([])).toEqual([]);
    expect(removals(plugin)).toHaveLength(1);
    expect(await revokesOf(entry.id)).toEqual([
      { status: "done", notBefore: wipedAt, doneServerId: expect.any(Number) },
    ]);
    const [ended] = await listInventory(deps, player.id);
    expect(ended).toMatchObject({
      status: "used",
      until_wipe: true,
      expires_at: new Date(wipedAt).toISOString(),
      wipe_at: null,
    });
  });

  it("ends at the scheduled time while the server is down, and the revoke waits for that server", async () => {
    const { clock, deps, serverType, player, plugin, pluginOn, buy, entriesOf, revokesOf } = await world();
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    const twin = pluginOn(await createGameServer(deps, { serverType, name: "Свобода #8" }));

    // No heartbeat from the server since; Thursday 20:00 passes and the minutely cron records it.
    clock.set(THURSDAY_WIPE + 30 * 1000);
    await runScheduled("* * * * *", deps);
    const [entry] = await entriesOf();
    if (!entry) throw new Error("no entry");
    expect(entry.expiresAt).toBe(THURSDAY_WIPE);
    expect(await revokesOf(entry.id)).toEqual([{ status: "pending", notBefore: THURSDAY_WIPE, doneServerId: null }]);
    // The rank is in the first server's Oxide: its twin never gets the revoke.
    expect(await twin.tick([])).toEqual([]);
    clock.advance(HOUR);
    const [revoke] = await plugin.tick([]);
    expect(revoke).toMatchObject({ kind: "revoke" });
    expect(removals(plugin)).toHaveLength(1);
    clock.advance(MINUTE);
    await runScheduled("* * * * *", deps);
    expect(await plugin.tick([])).toEqual([]);
    expect(removals(plugin)).toHaveLength(1);
  });

  it("ends nothing at a slot the forced wipe took: Thursday 20:00 on the month's first Thursday passes, its 22:00 ends it", async () => {
    const { clock, deps, player, plugin, buy, entriesOf, revokesOf } = await world();
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);

    // The schedule's own 20:00 has passed, and the cron's run that minute is over.
    clock.set(THURSDAY_WIPE - 2 * HOUR + 30 * 1000);
    await runScheduled("* * * * *", deps);
    const [entry] = await entriesOf();
    if (!entry) throw new Error("no entry");
    expect(entry.expiresAt).toBeNull();
    expect(await revokesOf(entry.id)).toEqual([]);

    clock.set(THURSDAY_WIPE + 30 * 1000);
    await runScheduled("* * * * *", deps);
    expect((await entriesOf())[0]?.expiresAt).toBe(THURSDAY_WIPE);
  });

  it("ends a grant given on the old map and saved by the wipe's shutdown, though that save is reported from the new map", async () => {
    const { clock, player, plugin, buy, entriesOf, revokesOf, newMap } = await world();
    await newMap(plugin, 2 * DAY);
    expect((await buy(0)).ok).toBe(true);
    const {
      deliveries: [served],
    } = await plugin.poll([player.steamId]);
    if (!served) throw new Error("nothing served");
    const report = (progress: string) =>
      plugin.post("/api/game/ack", {
        results: [{ delivery_id: served.delivery_id, ok: progress === "s", progress, lease: served.lease }],
      });
    // Run, not saved yet (decision 124).
    clock.advance(MINUTE);
    expect((await report("g")).status).toBe(200);
    // The owner quits (the shutdown saves it), wipes and starts: the new map is reported before the save.
    clock.advance(5 * MINUTE);
    const wipedAt = await newMap(plugin, MINUTE);
    clock.advance(MINUTE);
    // The acknowledgement itself ends it: no minute's job in between.
    expect((await report("s")).status).toBe(200);
    const [entry] = await entriesOf();
    expect(entry?.expiresAt).toBe(wipedAt);
    expect(await revokesOf(entry?.id ?? 0)).toEqual([{ status: "pending", notBefore: wipedAt, doneServerId: null }]);
  });

  it("counts no wipe for a schedule saved after its slot passed", async () => {
    const { clock, deps, server, player, plugin, buy, entriesOf } = await world();
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    // Friday: the operator announces Thursday wipes. Yesterday's slot is no wipe that happened.
    clock.set(THURSDAY_WIPE + DAY);
    const operator = await createOperator(deps, "admin");
    const saved = await setWipeSchedule(
      deps,
      { userId: operator.id, steamId: operator.steamId, nickname: "Оператор", role: "admin" },
      server.id,
      { kind: "weekly", weekday: 4, minute: 20 * 60 },
    );
    expect(saved.ok).toBe(true);
    await runScheduled("* * * * *", deps);
    expect((await entriesOf())[0]?.expiresAt).toBeNull();
    // The next Thursday's is.
    clock.set(THURSDAY_WIPE + 7 * DAY - 2 * HOUR + MINUTE);
    await runScheduled("* * * * *", deps);
    expect((await entriesOf())[0]?.expiresAt).toBe(THURSDAY_WIPE + 7 * DAY - 2 * HOUR);
  });

  it("doesn't end an entry delivered after the wipe: that one lasts until the next", async () => {
    const { clock, deps, player, plugin, buy, entriesOf, newMap } = await world();
    const wipedAt = await newMap(plugin, 10 * MINUTE);
    clock.advance(MINUTE);
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    clock.advance(MINUTE);
    await runScheduled("* * * * *", deps);
    expect((await entriesOf())[0]?.expiresAt).toBeNull();
    expect(wipedAt).toBeLessThan(clock.now().getTime());
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
  });
});

describe("«до вайпа» beside timed time on the same rank (decision 063)", () => {
  it("a timed end before the wipe doesn't take the rank: the wipe does, once", async () => {
    const { clock, deps, player, plugin, buy, entriesOf, revokesOf, newMap } = await world({ durations: [1] });
    expect((await buy(1)).ok).toBe(true);
    expect((await buy(0)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    const [day, untilWipe] = await entriesOf();
    if (!day || !untilWipe) throw new Error("no entries");

    clock.set(START + DAY + MINUTE); // the day's end passes
    await runGameMaintenance(deps);
    expect(await plugin.tick([])).toEqual([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
    expect(await revokesOf(day.id)).toMatchObject([{ status: "superseded" }]);

    clock.set(THURSDAY_WIPE - HOUR);
    await newMap(plugin);
    await plugin.tick([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);
    expect(removals(plugin)).toHaveLength(1);
    expect(await revokesOf(untilWipe.id)).toMatchObject([{ status: "done" }]);
  });

  it("time that runs past the wipe keeps the rank: the wipe's revoke is retired", async () => {
    const { clock, deps, player, plugin, buy, entriesOf, revokesOf, newMap } = await world({ durations: [30] });
    expect((await buy(0)).ok).toBe(true);
    expect((await buy(30)).ok).toBe(true);
    await plugin.tick([player.steamId]);
    const [untilWipe, month] = await entriesOf();
    if (!untilWipe || !month) throw new Error("no entries");

    clock.set(THURSDAY_WIPE - HOUR);
    await newMap(plugin);
    expect(await plugin.tick([])).toEqual([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(true);
    expect(await revokesOf(untilWipe.id)).toMatchObject([{ status: "superseded" }]);

    clock.set(START + 30 * DAY + MINUTE);
    await runGameMaintenance(deps);
    await plugin.tick([]);
    expect(plugin.console.inGroup(player.steamId, "vip")).toBe(false);
    expect(removals(plugin)).toHaveLength(1);
    expect(await revokesOf(month.id)).toMatchObject([{ status: "done" }]);
  });
});
