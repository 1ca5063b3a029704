import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveries, inventoryEntries, items, ledger, purchases } from "#db/schema.ts";
import { actionResult, auditRowsFor, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createGameServer } from "#tests/support/game-fixtures.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createItem } from "#tests/support/profile-fixtures.ts";
import { statement } from "#worker/ports/database.ts";
import { revokeTarget } from "#worker/services/game/deliveries.ts";
import { listInventory } from "#worker/services/profile/inventory.ts";
import { INVENTORY_STATUS_LABEL } from "../app/components/profile/labels.ts";
import { action as playerAction, loader as playerLoader } from "../app/routes/admin.player.tsx";

const deps = testDeps();

function refund(token: string, steamId: string, purchaseId: number, reason = "Игрок передумал") {
  return playerAction(
    consoleArgs(deps, `/admin/players/${steamId}`, {
      token,
      params: { steamId },
      form: { intent: "refund", purchaseId, reason },
    }),
  ).then(actionResult);
}

/** A real purchase through the API: 150 ₽ from a 500 ₽ balance. */
async function boughtItem(options: { maxQuantity?: number; price?: number; balance?: number } = {}) {
  const player = await createPlayer({ deps: deps, balance: options.balance ?? 50_000 });
  const item = await createItem(deps, { name: "Кит «Старт»" });
  await deps.db.orm
    .update(items)
    .set({ maxQuantity: options.maxQuantity ?? null, price: options.price ?? 15_000 })
    .where(eq(items.id, item.id));
  const bought = await api(`/purchase/items/${item.id}`, { token: player.token, body: { server_type: "SOLO" } });
  expect(bought.status).toBe(201);
  const [purchase] = await deps.db.orm.select().from(purchases).where(eq(purchases.userId, player.id));
  const [entry] = await deps.db.orm.select().from(inventoryEntries).where(eq(inventoryEntries.userId, player.id));
  if (!purchase || !entry) throw new Error("no purchase");
  return { player, item, purchase, entry };
}

/** A grant delivery of the bought Корзина entry, pending and due now unless `values` say otherwise. */
async function grantDelivery(
  bought: { player: { steamId: string }; entry: { id: number } },
  values: Partial<typeof deliveries.$inferInsert> = {},
) {
  await deps.db.orm.insert(deliveries).values({
    id: crypto.randomUUID(),
    inventoryEntryId: bought.entry.id,
    kind: "grant",
    serverType: "SOLO",
    steamId: bought.player.steamId,
    requiresOnline: true,
    status: "pending",
    notBefore: deps.now().getTime(),
    ...values,
  });
}

describe("Возврат", () => {
  it("gives the price back as a ledger row, marks the purchase refunded, the Корзина shows «Возвращено», the stock comes back", async () => {
    const admin = await createOperator(deps, "admin");
    const { player, item, purchase, entry } = await boughtItem({ maxQuantity: 5 });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 35_000, ledger: 35_000 });

    const result = await refund(admin.token, player.steamId, purchase.id);
    const back = `/admin/players/${player.steamId}?done=refund`;
    expect(result).toEqual({ status: 302, data: { location: back } });
    const page = await playerLoader(
      consoleArgs(deps, back, { token: admin.token, params: { steamId: player.steamId } }),
    );
    expect(page.done).toBe("Покупка возвращена: деньги на балансе игрока");
    expect(page.purchases.map((row) => row.status)).toEqual(["refunded"]);

    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });
    const refunds = await deps.db.orm
      .select({ amount: ledger.amount, note: ledger.note, purchaseId: ledger.purchaseId })
      .from(ledger)
      .where(and(eq(ledger.userId, player.id), eq(ledger.kind, "refund")));
    expect(refunds).toEqual([{ amount: 15_000, note: "Игрок передумал", purchaseId: purchase.id }]);
    const [after] = await deps.db.orm.select().from(purchases).where(eq(purchases.id, purchase.id));
    expect(after?.status).toBe("refunded");
    const [stock] = await deps.db.orm.select({ sold: items.soldQuantity }).from(items).where(eq(items.id, item.id));
    expect(stock?.sold).toBe(0);

    // What the player sees: the Корзина entry is refunded, the purchase history says Возврат.
    const inventory = await listInventory(deps, player.id);
    expect(inventory.map((row) => [row.id, INVENTORY_STATUS_LABEL[row.status]])).toEqual([[entry.id, "Возвращено"]]);
    const history = await api("/purchase/history", { token: player.token });
    expect((history.json.purchases as { status: string }[]).map((row) => row.status)).toEqual(["refunded"]);

    const audit = await auditRowsFor(deps, "purchase", purchase.id);
    expect(audit).toEqual([
      {
        action: "purchase.refund",
        operator_steam_id: admin.steamId,
        operator_role: "admin",
        before: JSON.stringify({ status: "completed", balance: 35_000 }),
        after: JSON.stringify({ status: "refunded", balance: 50_000, refunded: 15_000 }),
        reason: "Игрок передумал",
      },
    ]);
  });

  it("refunds once when operators press the button at the same time", async () => {
    const admin = await createOperator(deps, "admin");
    const support = await createOperator(deps, "support");
    const { player, purchase } = await boughtItem();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        refund(index % 2 ? admin.token : support.token, player.steamId, purchase.id),
      ),
    );
    expect(results.filter((result) => result.status === 302)).toHaveLength(1);
    for (const result of results.filter((result) => result.status !== 302)) {
      expect(result).toEqual({ status: 409, data: { ok: false, error: "Эта покупка уже возвращена", form: "refund" } });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });
    const [count] = await deps.db.orm.all<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM ledger WHERE purchase_id = ${purchase.id} AND kind = 'refund'`,
    );
    expect(count?.n).toBe(1);
    expect(await auditRowsFor(deps, "purchase", purchase.id)).toHaveLength(1);
  });

  it("takes back what reached the game: a revoke delivery due now", async () => {
    const admin = await createOperator(deps, "admin");
    const bought = await boughtItem();
    const { player, purchase, entry } = bought;
    const now = deps.now().getTime();
    // Delivered: the grant is done and the entry used.
    await deps.db.orm
      .update(inventoryEntries)
      .set({ status: "used", usedAt: now })
      .where(eq(inventoryEntries.id, entry.id));
    await grantDelivery(bought, { status: "done", notBefore: now, doneAt: now });
    expect((await refund(admin.token, player.steamId, purchase.id)).status).toBe(302);
    const rows = await deps.db.orm
      .select({ kind: deliveries.kind, status: deliveries.status, requiresOnline: deliveries.requiresOnline })
      .from(deliveries)
      .where(eq(deliveries.inventoryEntryId, entry.id))
      .orderBy(deliveries.kind);
    expect(rows).toEqual([
      { kind: "grant", status: "done", requiresOnline: true },
      { kind: "revoke", status: "pending", requiresOnline: false },
    ]);
  });

  it("cancels a grant that has not reached the game yet", async () => {
    const admin = await createOperator(deps, "admin");
    const bought = await boughtItem();
    const { player, purchase, entry } = bought;
    await grantDelivery(bought);
    expect((await refund(admin.token, player.steamId, purchase.id)).status).toBe(302);
    const rows = await deps.db.orm
      .select({ kind: deliveries.kind, status: deliveries.status, lastError: deliveries.lastError })
      .from(deliveries)
      .where(eq(deliveries.inventoryEntryId, entry.id));
    expect(rows).toEqual([{ kind: "grant", status: "cancelled", lastError: "Отменено: покупка возвращена" }]);
  });

  it("a grant a plugin took and never reported (its lease lapsed) may have run: cancelled, and revoked on that server (issue 35)", async () => {
    const admin = await createOperator(deps, "admin");
    const bought = await boughtItem();
    const { player, purchase, entry } = bought;
    const now = deps.now().getTime();
    const server = await createGameServer(deps, { serverType: "SOLO" });
    await grantDelivery(bought, { notBefore: now, leaseUntil: now - 1000, leasedServerId: server.id, leaseSeq: 1 });
    expect((await refund(admin.token, player.steamId, purchase.id)).status).toBe(302);
    const rows = await deps.db.orm
      .select({ kind: deliveries.kind, status: deliveries.status, notBefore: deliveries.notBefore })
      .from(deliveries)
      .where(eq(deliveries.inventoryEntryId, entry.id))
      .orderBy(deliveries.kind);
    expect(rows).toEqual([
      { kind: "grant", status: "cancelled", notBefore: now },
      { kind: "revoke", status: "pending", notBefore: expect.any(Number) },
    ]);
    expect(rows[1]?.notBefore).toBeLessThanOrEqual(Date.now());
    // The revoke runs where the grant may have run.
    const [target] = await deps.db
      .run<{ server: number | null }>(
        statement(sql`SELECT ${revokeTarget("e")} AS server FROM inventory_entries e WHERE e.id = ${entry.id}`),
      )
      .then((result) => result.rows);
    expect(target?.server).toBe(server.id);
  });

  it("lets support refund up to 1 000 ₽ only, and refuses another player's purchase", async () => {
    const support = await createOperator(deps, "support");
    const { player, purchase } = await boughtItem({ price: 150_000, balance: 200_000 });
    const big = await refund(support.token, player.steamId, purchase.id);
    expect(big).toEqual({
      status: 403,
      data: { ok: false, error: "Возврат больше 1 000 ₽ может сделать только администратор", form: "refund" },
    });
    const other = await createPlayer({ deps: deps });
    const elsewhere = await refund(support.token, other.steamId, purchase.id);
    expect(elsewhere.status).toBe(404);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 50_000, ledger: 50_000 });
  });
});
