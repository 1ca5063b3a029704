// Decision 129: the fair-play window. For some hours after a server's wipe (the plugin's new map, or
// the schedule's wipe passing) a category or an item of its type is not delivered there, and — when
// the operator closes it — not sold; the player reads why and until when. Set in «Серверы», journaled.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { FAIR_PLAY_TEXT } from "#core/messages/wipe.ts";
import { categories, fairPlayWindows, items, purchases, servers, users } from "#db/schema.ts";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer } from "#tests/support/players.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createCategory, createItem } from "#tests/support/shop-fixtures.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import { firstRow } from "#tests/support/sql.ts";
import { unique } from "#tests/support/unique.ts";
import { recordScheduledWipes } from "#worker/services/game/fair-play.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { InventoryList } from "../app/components/profile/inventory-list.tsx";
import { action, loader } from "../app/routes/admin.servers.tsx";
import { action as itemAction } from "../app/routes/shop.item.tsx";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Tuesday 1 December 2026, 10:00 in Moscow.
const START = Date.parse("2026-12-01T07:00:00Z");

async function world({ purchasesOpen = false, hours = 3 } = {}) {
  const clock = testClock(START);
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType, name: "Свобода #7" });
  const item = await createDeliverableItem(deps, { serverType, name: "Стартовый набор" });
  const player = await createPlayer({ deps, balance: 1_000_000 });
  const transport = clockedTransport(clock.now);
  const simFor = (other: { id: number; key: string }) =>
    new PluginSimulator({ transport, serverId: other.id, serverKey: other.key, now: clock.now });
  const sim = simFor(server);
  await deps.db.orm
    .insert(fairPlayWindows)
    .values({ serverType, categoryId: item.categoryId, hours, purchasesOpen, createdAt: START });
  /** The plugin reports a new map `ago` ms before now (Rust's save time, in seconds). */
  const wipedAgo = async (ago: number, plugin = sim) => {
    const beat = await plugin.heartbeat([], { wiped_at: Math.floor((clock.now().getTime() - ago) / 1000) });
    expect(beat.status).toBe(200);
  };
  const buy = () =>
    purchaseItem(deps, player.id, {
      itemId: item.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
  const [category] = await deps.db.orm
    .select({ name: categories.name })
    .from(categories)
    .where(eq(categories.id, item.categoryId));
  /** The refusal (issue 46): what is closed, by the category's name, and until when, in Moscow time. */
  const closedUntil = (when: string) =>
    `Покупки из категории «${category?.name}» закрыты после вайпа до вт, 1 декабря в ${when}\u00a0МСК`;
  return { clock, deps, serverType, server, item, player, sim, simFor, wipedAgo, buy, closedUntil };
}

async function balanceOf(deps: ReturnType<typeof testDeps>, userId: number) {
  const [row] = await deps.db.orm.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
  return row?.balance;
}

describe("purchases during a fair-play window", () => {
  it("are refused with 409 and when they open, while the window closes them; then allowed", async () => {
    const { clock, deps, player, item, wipedAgo, buy, closedUntil } = await world({ purchasesOpen: false });
    // Before any wipe is known there is no window.
    const before = await buy();
    expect(before.ok).toBe(true);

    await wipedAgo(HOUR); // 09:00 Moscow: the window lasts until 12:00
    const refused = await buy();
    expect(refused).toEqual({ ok: false, status: 409, error: closedUntil("12:00") });
    expect(await balanceOf(deps, player.id)).toBe(1_000_000 - 10_000);
    expect(await deps.db.orm.select().from(purchases).where(eq(purchases.userId, player.id))).toHaveLength(1);

    clock.set(START + 2 * HOUR - MINUTE); // 11:59
    expect((await buy()).ok).toBe(false);
    clock.set(START + 2 * HOUR); // 12:00: the window is over
    const after = await buy();
    expect(after.ok).toBe(true);
    expect(await deps.db.orm.select().from(purchases).where(eq(purchases.itemId, item.id))).toHaveLength(2);
  });

  it("stay open when the operator leaves them open: the item waits in the Корзина", async () => {
    const { deps, wipedAgo, buy } = await world({ purchasesOpen: true });
    await wipedAgo(HOUR);
    const bought = await buy();
    expect(bought.ok).toBe(true);
    expect(deps).toBeTruthy();
  });

  it("are refused while any server of the type is in its window, and the text names the later end", async () => {
    const { clock, deps, serverType, wipedAgo, simFor, buy, closedUntil } = await world({ purchasesOpen: false });
    const second = await createGameServer(deps, { serverType, name: "Свобода #8" });
    await wipedAgo(2 * HOUR); // until 11:00
    await wipedAgo(30 * MINUTE, simFor(second)); // until 12:30
    expect(await buy()).toMatchObject({ status: 409, error: closedUntil("12:30") });
    clock.set(START + 2.5 * HOUR);
    expect((await buy()).ok).toBe(true);
  });

  it("the item page's plain form answers 409 with the same words", async () => {
    const clock = testClock(START);
    const deps = testDeps({ now: clock.now });
    const categoryId = await createCategory();
    const itemId = await createItem({ serverType: "NO_LIMIT", categoryId, price: 10_000 });
    const server = await createGameServer(deps, { serverType: "NO_LIMIT" });
    await deps.db.orm
      .update(servers)
      .set({ lastWipeAt: START - HOUR })
      .where(eq(servers.id, server.id));
    await deps.db.orm
      .insert(fairPlayWindows)
      .values({ serverType: "NO_LIMIT", categoryId, hours: 3, purchasesOpen: false, createdAt: START });
    const player = await createPlayer({ deps, balance: 100_000 });
    const headers = new Headers({ cookie: sessionCookie(player.token).cookie });
    const body = new URLSearchParams({ server_type: "NO_LIMIT", idempotency_key: crypto.randomUUID() });
    const result = (await itemAction(
      routeArgs<Parameters<typeof itemAction>[0]>(
        deps,
        `http://localhost/shop/items/${itemId}`,
        { method: "POST", body, headers },
        { params: { id: String(itemId) }, pattern: "/shop/items/:id" },
      ),
    )) as unknown as { data: { ok: boolean; error: string }; init: ResponseInit | null };
    expect(result.init?.status).toBe(409);
    expect(result.data).toMatchObject({ ok: false });
    expect(result.data.error).toMatch(
      /^Покупки из категории «Тестовая категория \d+» закрыты после вайпа до вт, 1 декабря в 12:00\u00a0МСК$/,
    );
    expect(await balanceOf(deps, player.id)).toBe(100_000);
  });

  it("only for the window's category or item on its own type", async () => {
    const { deps, serverType, wipedAgo, player } = await world({ purchasesOpen: false });
    await wipedAgo(HOUR);
    const other = await createDeliverableItem(deps, { serverType, name: "Другой набор" });
    const bought = await purchaseItem(deps, player.id, {
      itemId: other.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(bought.ok).toBe(true);
  });
});

describe("deliveries during a fair-play window", () => {
  it("wait on the wiped server, go to a server of the type outside its window, and are leased when it ends", async () => {
    const { clock, deps, serverType, server, item, player, sim, simFor, wipedAgo } = await world({
      purchasesOpen: true,
    });
    await wipedAgo(HOUR);
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    // The grant is queued and waits: polls every 30 s write nothing, neither the delivery nor a mark.
    const state = async () => ({
      delivery: await firstRow("SELECT * FROM deliveries WHERE inventory_entry_id = ?", entry.id),
      marks: await firstRow("SELECT newest, recent FROM game_request_marks WHERE server_id = ?", server.id),
    });
    const before = await state();
    expect(before.delivery).toMatchObject({ kind: "grant", status: "pending", lease_until: null });
    for (let poll = 0; poll < 4; poll++) {
      clock.advance(30_000);
      expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    }
    expect(await state()).toEqual(before);

    // The Корзина says why and until when.
    const [card] = (await listInventory(deps, player.id)).filter((row) => row.id === entry.id);
    expect(card?.fair_play).toEqual({ hours: 3, until: new Date(START + 2 * HOUR).toISOString() });
    const html = renderToStaticMarkup(
      createElement(RouterProvider, {
        router: createMemoryRouter([
          {
            path: "/",
            element: createElement(InventoryList, {
              items: card ? [card] : [],
              now: clock.now().toISOString(),
            }),
          },
        ]),
      }),
    );
    expect(html).toContain("Выдаётся через 3 ч после вайпа, с 12:00\u00a0МСК");

    // Still in the window at 11:59; at 12:00 the wiped server leases it.
    clock.set(START + 2 * HOUR - MINUTE);
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    clock.set(START + 2 * HOUR);
    const served = await sim.poll([player.steamId]);
    expect(served.deliveries.map((delivery) => delivery.kind)).toEqual(["grant"]);
    expect((await listInventory(deps, player.id)).find((row) => row.id === entry.id)?.fair_play).toBeNull();

    // A second entry while another server of the type is outside its window: that server takes it.
    await wipedAgo(0);
    const second = await createGameServer(deps, { serverType, name: "Свобода #8" });
    const next = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    const elsewhere = await simFor(second).poll([player.steamId]);
    expect(elsewhere.deliveries).toHaveLength(1);
    expect(server.id).not.toBe(second.id);
    expect(next.id).not.toBe(entry.id);
  });

  it("count the schedule's wipe when no plugin reported it (the cron records it once)", async () => {
    const { clock, deps, server, item, player, serverType, sim } = await world({ purchasesOpen: false });
    // Weekly on Tuesday at 09:00 Moscow: an hour ago.
    await deps.db.orm
      .update(servers)
      .set({ wipeKind: "weekly", wipeWeekday: 2, wipeMinute: 9 * 60 })
      .where(eq(servers.id, server.id));
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    expect(await recordScheduledWipes(deps)).toBeGreaterThanOrEqual(1);
    const [row] = await deps.db.orm
      .select({ lastWipeAt: servers.lastWipeAt })
      .from(servers)
      .where(eq(servers.id, server.id));
    expect(row?.lastWipeAt).toBe(START - HOUR);
    // A minute later nothing is written again for this server.
    clock.advance(MINUTE);
    await recordScheduledWipes(deps);
    const [same] = await deps.db.orm
      .select({ lastWipeAt: servers.lastWipeAt })
      .from(servers)
      .where(eq(servers.id, server.id));
    expect(same?.lastWipeAt).toBe(START - HOUR);

    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
    expect((await listInventory(deps, player.id)).find((r) => r.id === entry.id)?.fair_play).toEqual({
      hours: 3,
      until: new Date(START + 2 * HOUR).toISOString(),
    });
    clock.set(START + 2 * HOUR);
    expect((await sim.poll([player.steamId])).deliveries).toHaveLength(1);
  });

  it("a later plugin report wins over the schedule, and an older one doesn't move the last wipe back", async () => {
    const { clock, deps, server, wipedAgo } = await world();
    await deps.db.orm
      .update(servers)
      .set({ lastWipeAt: START - HOUR })
      .where(eq(servers.id, server.id));
    await wipedAgo(2 * HOUR);
    clock.advance(1000);
    const lastWipe = async () =>
      (await deps.db.orm.select({ at: servers.lastWipeAt }).from(servers).where(eq(servers.id, server.id)))[0]?.at;
    expect(await lastWipe()).toBe(START - HOUR);
    await wipedAgo(10 * MINUTE);
    expect(await lastWipe()).toBe(START + 1000 - 10 * MINUTE);
  });
});

describe("Серверы: the fair-play form", () => {
  const clock = testClock(START);
  const deps = testDeps({ now: clock.now });
  const post = (token: string, form: Record<string, string>) =>
    action(consoleArgs(deps, "/admin/servers", { token, form })).then(actionResult);

  async function soloItem() {
    const [category] = await deps.db.orm
      .insert(categories)
      .values({ name: `Наборы ${unique()}` })
      .returning();
    const [item] = await deps.db.orm
      .insert(items)
      .values({ name: "Набор", price: 100, img: "/x.png", serverType: "SOLO", categoryId: category?.id ?? 0 })
      .returning();
    if (!category || !item) throw new Error("no item");
    return { categoryId: category.id, itemId: item.id };
  }

  it("sets a window (replacing the type's own for the same target) and removes it, journaled", async () => {
    const admin = await createOperator(deps, "admin");
    const { categoryId } = await soloItem();
    const form = { intent: "fairPlay", serverType: "SOLO", target: `category:${categoryId}`, hours: "3" };
    const saved = await post(admin.token, { ...form, purchasesOpen: "no" });
    expect(saved).toMatchObject({ status: 200, data: { ok: true, message: "Окно после вайпа сохранено" } });
    const again = await post(admin.token, { ...form, hours: "5", purchasesOpen: "yes" });
    expect(again.status).toBe(200);
    const rows = await deps.db.orm.select().from(fairPlayWindows).where(eq(fairPlayWindows.categoryId, categoryId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ serverType: "SOLO", hours: 5, purchasesOpen: true, itemId: null });

    const journal = (await auditRowsFor(deps, "server_type", "SOLO")).filter(
      (row) => JSON.parse(row.after ?? "{}").categoryId === categoryId,
    );
    expect(journal.map((row) => row.action)).toEqual(["server.fair_play_set", "server.fair_play_set"]);
    expect(journal[0]?.operator_steam_id).toBe(admin.steamId);
    expect(JSON.parse(journal[0]?.before ?? "null")).toBeNull();
    expect(JSON.parse(journal[1]?.before ?? "null")).toEqual({ hours: 3, purchasesOpen: false });
    expect(JSON.parse(journal[1]?.after ?? "null")).toEqual({
      categoryId,
      itemId: null,
      hours: 5,
      purchasesOpen: true,
    });

    const page = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    const listed = page.fairPlay.windows.find((row) => row.id === rows[0]?.id);
    expect(listed).toMatchObject({ hours: 5, purchasesOpen: true });
    expect(FAIR_PLAY_TEXT.rule(5, true)).toBe("5 ч после вайпа, покупка открыта");

    const removed = await post(admin.token, { intent: "fairPlayRemove", windowId: String(rows[0]?.id) });
    expect(removed).toMatchObject({ status: 200, data: { ok: true, message: "Окно после вайпа убрано" } });
    expect(await deps.db.orm.select().from(fairPlayWindows).where(eq(fairPlayWindows.categoryId, categoryId))).toEqual(
      [],
    );
    const last = (await auditRowsFor(deps, "server_type", "SOLO")).at(-1);
    expect(last?.action).toBe("server.fair_play_remove");
    expect(await post(admin.token, { intent: "fairPlayRemove", windowId: String(rows[0]?.id) })).toEqual({
      status: 404,
      data: { ok: false, error: "Такого окна уже нет" },
    });
  });

  it("refuses what is not a window with a Russian text, writing and journaling nothing", async () => {
    const admin = await createOperator(deps, "admin");
    const { categoryId, itemId } = await soloItem();
    const good = { intent: "fairPlay", serverType: "SOLO", target: `item:${itemId}`, hours: "3", purchasesOpen: "no" };
    const cases: [Record<string, string>, number, string][] = [
      [{ hours: "0" }, 400, "Укажите целое число часов от 1 до 72"],
      [{ hours: "73" }, 400, "Укажите целое число часов от 1 до 72"],
      [{ hours: "три" }, 400, "Укажите целое число часов от 1 до 72"],
      [{ serverType: "MARS" }, 400, "Выберите тип серверов"],
      [{ target: "everything" }, 400, "Выберите категорию или товар этого типа серверов"],
      // The item is a SOLO item: not one of DUO's.
      [{ serverType: "MAX2" }, 400, "Выберите категорию или товар этого типа серверов"],
      [{ target: "category:999999999" }, 400, "Выберите категорию или товар этого типа серверов"],
      [{ purchasesOpen: "maybe" }, 400, "Выберите, открыта ли покупка во время окна"],
    ];
    for (const [fields, status, error] of cases) {
      expect(await post(admin.token, { ...good, ...fields })).toEqual({ status, data: { ok: false, error } });
    }
    expect(await deps.db.orm.select().from(fairPlayWindows).where(eq(fairPlayWindows.itemId, itemId))).toEqual([]);
    const journal = (await auditRowsFor(deps, "server_type", "MAX2")).filter(
      (row) => JSON.parse(row.after ?? "{}").itemId === itemId,
    );
    expect(journal).toEqual([]);
    expect(categoryId).toBeGreaterThan(0);
  });

  it("is the admin's: support can't post a window", async () => {
    const support = await createOperator(deps, "support");
    const { itemId } = await soloItem();
    const refused = await thrownStatus(
      action(
        consoleArgs(deps, "/admin/servers", {
          token: support.token,
          form: { intent: "fairPlay", serverType: "SOLO", target: `item:${itemId}`, hours: "3", purchasesOpen: "no" },
        }),
      ),
    );
    expect(refused.status).toBe(403);
    expect(await deps.db.orm.select().from(fairPlayWindows).where(eq(fairPlayWindows.itemId, itemId))).toEqual([]);
  });
});
