import { afterEach, describe, expect, it } from "vitest";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { returnPurchase } from "#worker/services/shop/return.ts";
import { testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { balanceAndLedger, expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";
import { buy, createItem, fetchApi } from "./support/shop-fixtures.ts";
import { bearer } from "./support/sign-in.ts";
import { firstRow, raw, rows, runBatch } from "./support/sql.ts";

// Returning a purchase before delivery (issue 24, decision 111): the API and the guarded batch.

const HOUR = 60 * 60 * 1000;

function returnApi(token: string | null, purchaseId: number | string) {
  return fetchApi(`/purchases/${purchaseId}/return`, { method: "POST", headers: token ? bearer(token) : {} });
}

async function inventoryOf(token: string) {
  const response = await fetchApi("/inventory", { headers: bearer(token) });
  return ((await response.json()) as { items: Record<string, unknown>[] }).items;
}

async function setReturnWindow(hours: number) {
  await runBatch([raw("UPDATE shop_settings SET return_window_hours = ? WHERE id = 1", hours)]);
}

afterEach(async () => {
  await setReturnWindow(24);
});

describe("POST /api/purchases/:id/return", () => {
  it("gives the full price back while nothing was delivered: balance, ledger, Корзина, statement", async () => {
    const player = await createPlayer({ balance: 50_000 });
    const itemId = await createItem({ name: "Набор «Возврат»", price: 12_000, serverType: "SOLO" });
    const bought = await buy(player.token, itemId, { server_type: "SOLO" });
    expect(bought.status).toBe(201);
    const { purchase } = (await bought.json()) as { purchase: { id: number } };

    const [card] = (await inventoryOf(player.token)).filter((item) => item.purchase_id === purchase.id);
    expect(card).toMatchObject({ status: "not_used", returnable: true, price: 120 });
    const until = Date.parse(String(card?.return_until));
    expect(until - Date.now()).toBeGreaterThan(23 * HOUR);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * HOUR);

    const response = await returnApi(player.token, purchase.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      purchase: { id: purchase.id, status: "returned" },
      amount: 120,
      balance: 500,
    });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });
    expect(await rows("SELECT kind, amount FROM ledger WHERE purchase_id = ? ORDER BY id", purchase.id)).toEqual([
      { kind: "purchase", amount: -12_000 },
      { kind: "return", amount: 12_000 },
    ]);
    const [after] = (await inventoryOf(player.token)).filter((item) => item.purchase_id === purchase.id);
    expect(after).toMatchObject({ status: "returned", returnable: false, return_until: null });
    expect(await firstRow("SELECT status FROM purchases WHERE id = ?", purchase.id)).toEqual({ status: "returned" });

    const statement = await fetchApi("/balance/history", { headers: bearer(player.token) });
    const { entries } = (await statement.json()) as {
      entries: { kind: string; amount: number; description: string }[];
    };
    expect(entries[0]).toMatchObject({
      kind: "return",
      amount: 120,
      description: "Возврат покупки «Набор „Возврат“» (SOLO) до выдачи",
    });

    const again = await returnApi(player.token, purchase.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Эта покупка уже возвращена" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });
  });

  it("answers another player's purchase, a stranger and a bad id without moving money", async () => {
    const owner = await createPlayer({ balance: 20_000 });
    const other = await createPlayer({ balance: 0 });
    const itemId = await createItem({ price: 5_000 });
    const { purchase } = (await (await buy(owner.token, itemId, { server_type: "SOLO" })).json()) as {
      purchase: { id: number };
    };
    const notYours = await returnApi(other.token, purchase.id);
    expect(notYours.status).toBe(404);
    expect(await notYours.json()).toEqual({ error: "Покупка не найдена" });
    expect((await returnApi(null, purchase.id)).status).toBe(401);
    const bad = await returnApi(owner.token, "0x1");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Некорректный идентификатор покупки" });
    await expectBalancesMatchLedger([owner.id, other.id]);
    expect(await balanceAndLedger(owner.id)).toEqual({ balance: 15_000, ledger: 15_000 });
    expect(await balanceAndLedger(other.id)).toEqual({ balance: 0, ledger: 0 });
  });

  it("refuses when the window is over (410) and when the operator turned returns off (403)", async () => {
    const player = await createPlayer({ balance: 20_000 });
    const itemId = await createItem({ price: 5_000 });
    const first = (await (await buy(player.token, itemId, { server_type: "SOLO" })).json()) as {
      purchase: { id: number };
    };
    await runBatch([
      raw("UPDATE inventory_entries SET return_until = ? WHERE purchase_id = ?", Date.now() - 1, first.purchase.id),
    ]);
    const late = await returnApi(player.token, first.purchase.id);
    expect(late.status).toBe(410);
    expect(await late.json()).toEqual({ error: "Срок возврата истёк" });

    await setReturnWindow(0);
    const second = (await (await buy(player.token, itemId, { server_type: "SOLO" })).json()) as {
      purchase: { id: number };
    };
    expect(
      await firstRow("SELECT return_until FROM inventory_entries WHERE purchase_id = ?", second.purchase.id),
    ).toEqual({ return_until: null });
    const off = await returnApi(player.token, second.purchase.id);
    expect(off.status).toBe(403);
    expect(await off.json()).toEqual({ error: "Возврат покупок отключён" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 10_000, ledger: 10_000 });
  });

  it("tells the truth about a purchase from before returns existed: not returnable, and why", async () => {
    const player = await createPlayer({ balance: 20_000 });
    const itemId = await createItem({ price: 5_000 });
    // A purchase as the versions before migration 0010 wrote it: no return window, no gift, no sale,
    // its Корзина entry still waiting for delivery.
    const transactionId = crypto.randomUUID();
    const bought = Date.now() - HOUR;
    await runBatch([
      raw(
        `INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price,
           status, paid_at, created_at)
         VALUES (?, ?, ?, ?, 'SOLO', NULL, 5000, 'completed', ?, ?)`,
        player.id,
        itemId,
        transactionId,
        crypto.randomUUID(),
        bought,
        bought,
      ),
      raw("UPDATE users SET balance = balance - 5000 WHERE id = ?", player.id),
      raw(
        `INSERT INTO ledger (user_id, amount, kind, purchase_id, created_at)
         VALUES (?, -5000, 'purchase', (SELECT id FROM purchases WHERE transaction_id = ?), ?)`,
        player.id,
        transactionId,
        bought,
      ),
      raw(
        `INSERT INTO inventory_entries (user_id, item_id, purchase_id, server_type, duration_days, is_permanent, status, created_at)
         VALUES (?, ?, (SELECT id FROM purchases WHERE transaction_id = ?), 'SOLO', NULL, 1, 'not_used', ?)`,
        player.id,
        itemId,
        transactionId,
        bought,
      ),
    ]);
    const old = await firstRow<{ id: number; return_until: number | null }>(
      `SELECT p.id, e.return_until FROM purchases p JOIN inventory_entries e ON e.purchase_id = p.id
       WHERE p.transaction_id = ?`,
      transactionId,
    );
    expect(old?.return_until).toBeNull();
    const [card] = (await inventoryOf(player.token)).filter((item) => item.purchase_id === old?.id);
    expect(card).toMatchObject({ status: "not_used", returnable: false, return_until: null });

    // Returns are on (24 h): the answer doesn't say they are off, it says they didn't apply then.
    const refused = await returnApi(player.token, old?.id ?? 0);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Эту покупку вернуть нельзя: когда она была сделана, возврат покупок не действовал",
    });
    // Turned off now: that is what it says.
    await setReturnWindow(0);
    const off = await returnApi(player.token, old?.id ?? 0);
    expect(off.status).toBe(403);
    expect(await off.json()).toEqual({ error: "Возврат покупок отключён" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 15_000, ledger: 15_000 });
    expect(await firstRow("SELECT status FROM purchases WHERE id = ?", old?.id)).toEqual({ status: "completed" });
  });

  it("gives limited stock back, so the next player can buy the last one", async () => {
    const first = await createPlayer({ balance: 10_000 });
    const second = await createPlayer({ balance: 10_000 });
    const itemId = await createItem({ price: 3_000, maxQuantity: 1 });
    const { purchase } = (await (await buy(first.token, itemId, { server_type: "SOLO" })).json()) as {
      purchase: { id: number };
    };
    expect((await buy(second.token, itemId, { server_type: "SOLO" })).status).toBe(410);
    expect((await returnApi(first.token, purchase.id)).status).toBe(200);
    expect(await firstRow("SELECT sold_quantity FROM items WHERE id = ?", itemId)).toEqual({ sold_quantity: 0 });
    expect((await buy(second.token, itemId, { server_type: "SOLO" })).status).toBe(201);
    await expectBalancesMatchLedger([first.id, second.id]);
  });
});

describe("a return against the game server's delivery", () => {
  async function world(purchasesCount: number) {
    const clock = testClock(Date.now());
    const deps = testDeps({ now: clock.now });
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    const player = await createPlayer({ deps, balance: 10_000 * purchasesCount });
    const item = await createDeliverableItem(deps, { serverType, name: "VIP", grant: ["say {nickname} получил VIP"] });
    const purchaseIds: number[] = [];
    for (let index = 0; index < purchasesCount; index += 1) {
      const result = await purchaseItem(deps, player.id, {
        itemId: item.id,
        serverType,
        durationDays: null,
        idempotencyKey: `return-race-${item.id}-${index}`,
      });
      if (!result.ok) throw new Error(result.error);
      purchaseIds.push(result.purchase.id);
    }
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    return { deps, player, sim, purchaseIds };
  }

  it("can't return what a server leased or delivered", async () => {
    const { deps, player, sim, purchaseIds } = await world(1);
    const [purchaseId = 0] = purchaseIds;
    await sim.tick([player.steamId], { crashBeforeAck: true }); // leased and run, not yet acknowledged
    expect(await returnPurchase(deps, player.id, purchaseId)).toEqual({
      ok: false,
      status: 409,
      error: "Предмет уже выдаётся на сервере — вернуть его нельзя",
    });
    await sim.tick([player.steamId]);
    expect(await returnPurchase(deps, player.id, purchaseId)).toEqual({
      ok: false,
      status: 409,
      error: "Предмет уже выдан — вернуть его нельзя",
    });
    await expectBalancesMatchLedger([player.id]);
  });

  it("20 returns racing the plugin's polls: each purchase ends delivered or returned, never both", async () => {
    const { deps, player, sim, purchaseIds } = await world(20);
    // Half the returns are sent with the plugin's polls, the other half while its acknowledgements and
    // a second poll are under way: some returns come before a lease, some after it.
    const first = purchaseIds.slice(0, 10).map((id) => returnPurchase(deps, player.id, id));
    const poll = sim.tick([player.steamId]);
    const firstOutcomes = await Promise.all(first);
    await poll;
    const second = purchaseIds.slice(10).map((id) => returnPurchase(deps, player.id, id));
    const [secondOutcomes] = await Promise.all([Promise.all(second), sim.tick([player.steamId])]);
    const outcomes = [...firstOutcomes, ...secondOutcomes];
    await sim.tick([player.steamId]);
    const returned = new Set(purchaseIds.filter((_, index) => outcomes[index]?.ok));
    expect(returned.size).toBeGreaterThan(0);
    expect(returned.size).toBeLessThan(purchaseIds.length);
    const delivered = new Set(sim.console.executed.map((run) => run.delivery_id));
    for (const purchaseId of purchaseIds) {
      const state = await firstRow<{
        entry: string;
        purchase: string;
        grant: string | null;
        deliveryId: string | null;
        refunds: number;
      }>(
        `SELECT e.status AS entry, p.status AS purchase, d.status AS "grant", d.id AS deliveryId,
           (SELECT COUNT(*) FROM ledger l WHERE l.purchase_id = p.id AND l.kind = 'return') AS refunds
         FROM purchases p JOIN inventory_entries e ON e.purchase_id = p.id
         LEFT JOIN deliveries d ON d.inventory_entry_id = e.id AND d.kind = 'grant' WHERE p.id = ?`,
        purchaseId,
      );
      if (returned.has(purchaseId)) {
        expect(state).toMatchObject({ entry: "returned", purchase: "returned", refunds: 1 });
        expect(state?.grant === null || state?.grant === "cancelled").toBe(true);
        expect(state?.deliveryId !== null && delivered.has(state?.deliveryId ?? "")).toBe(false);
      } else {
        expect(state).toMatchObject({ entry: "used", purchase: "completed", grant: "done", refunds: 0 });
        expect(delivered.has(state?.deliveryId ?? "")).toBe(true);
      }
    }
    const { balance } = await balanceAndLedger(player.id);
    expect(balance).toBe(returned.size * 10_000);
    await expectBalancesMatchLedger([player.id]);
  });
});
