import { describe, expect, it } from "vitest";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import {
  api,
  createInventoryEntry,
  createItem,
  createPayment,
  createPurchase,
} from "#tests/support/profile-fixtures.ts";

const deps = testDeps();
const T = Date.parse("2026-11-20T10:00:00Z");

describe("history and inventory endpoints", () => {
  it("need a signed-in player", async () => {
    for (const path of [
      "/inventory",
      "/purchase/history",
      "/purchases/1",
      "/payment/history",
      `/payment/${crypto.randomUUID()}`,
    ]) {
      const response = await api(path);
      expect(response.status, path).toBe(401);
      expect(response.json, path).toEqual({ error: "Необходима авторизация" });
    }
  });

  it("GET /api/purchase/history lists only the player's purchases, newest first, prices in rubles", async () => {
    const player = await createPlayer({ deps });
    const other = await createPlayer({ deps });
    const item = await createItem(deps, { name: "VIP" });
    const older = await createPurchase(deps, player.id, item.id, {
      createdAt: T,
      paidAt: T,
      price: 14950,
      durationDays: 3,
      serverType: "MAX2",
    });
    const newer = await createPurchase(deps, player.id, item.id, {
      createdAt: T + 1000,
      paidAt: null,
      durationDays: null,
      status: "pending",
    });
    await createPurchase(deps, other.id, item.id);

    const response = await api("/purchase/history", { token: player.token });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      purchases: [
        {
          id: newer.id,
          transaction_id: newer.transactionId,
          item_name: "VIP",
          paid_at: null,
          created_at: new Date(T + 1000).toISOString(),
          server_type: "SOLO",
          duration_text: "Навсегда",
          price: 150,
          status: "pending",
          gift_to: null,
          gift: null,
        },
        {
          id: older.id,
          transaction_id: older.transactionId,
          item_name: "VIP",
          paid_at: "2026-11-20T10:00:00.000Z",
          created_at: "2026-11-20T10:00:00.000Z",
          server_type: "MAX2",
          duration_text: "3 дня",
          price: 149.5,
          status: "completed",
          gift_to: null,
          gift: null,
        },
      ],
    });
  });

  it("GET /api/purchases/{id} shows the owner's purchase and a 404 to anyone else", async () => {
    const owner = await createPlayer({ deps });
    const stranger = await createPlayer({ deps });
    const item = await createItem(deps);
    const purchase = await createPurchase(deps, owner.id, item.id, { durationDays: 21 });

    const mine = await api(`/purchases/${purchase.id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.json.purchase).toMatchObject({
      id: purchase.id,
      transaction_id: purchase.transactionId,
      duration_text: "21 день",
    });

    const theirs = await api(`/purchases/${purchase.id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ error: "Не найдено" });
    expect((await api("/purchases/999999999", { token: owner.token })).status).toBe(404);
    expect((await api("/purchases/abc", { token: owner.token })).status).toBe(404);
  });

  it("GET /api/payment/history lists the player's deposits newest first with the spec's field names", async () => {
    const player = await createPlayer({ deps });
    const other = await createPlayer({ deps });
    const done = await createPayment(deps, player.id, {
      amount: 50000,
      status: "completed",
      providerPaymentId: `pay-${crypto.randomUUID()}`,
      createdAt: T,
      completedAt: T + 60_000,
    });
    const waiting = await createPayment(deps, player.id, { amount: 1050, status: "pending", createdAt: T + 5000 });
    await createPayment(deps, other.id, { status: "completed" });

    const response = await api("/payment/history", { token: player.token });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      {
        ID: waiting.id,
        payment_id: null,
        amount: 10.5,
        status: "pending",
        completed_at: null,
        CreatedAt: new Date(T + 5000).toISOString(),
      },
      {
        ID: done.id,
        payment_id: done.providerPaymentId,
        amount: 500,
        status: "completed",
        completed_at: "2026-11-20T10:01:00.000Z",
        CreatedAt: "2026-11-20T10:00:00.000Z",
      },
    ]);
  });

  it("GET /api/payment/{id} shows the owner's deposit and a 404 to anyone else", async () => {
    const owner = await createPlayer({ deps });
    const stranger = await createPlayer({ deps });
    const payment = await createPayment(deps, owner.id, { status: "cancelled" });

    const mine = await api(`/payment/${payment.id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.json.payment).toMatchObject({ ID: payment.id, status: "cancelled", amount: 500 });

    const theirs = await api(`/payment/${payment.id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ error: "Не найдено" });
  });

  it("leaves other /api/payment/* paths alone (they are not payment ids)", async () => {
    const player = await createPlayer({ deps });
    const response = await api("/payment/not-a-payment-id", { token: player.token });
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: "Не найдено" });
  });

  it("GET /api/inventory returns {items} of the player's Корзина and filters by status", async () => {
    const player = await createPlayer({ deps });
    const other = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Кит Рейдер" });
    const unused = await createInventoryEntry(deps, player.id, item.id, { createdAt: T });
    const used = await createInventoryEntry(deps, player.id, item.id, {
      createdAt: T + 1000,
      status: "used",
      usedAt: T + 2000,
      isPermanent: true,
      durationDays: null,
      serverType: "NO_LIMIT",
    });
    await createInventoryEntry(deps, other.id, item.id);

    const all = await api("/inventory", { token: player.token });
    expect(all.status).toBe(200);
    expect(all.json.items).toEqual([
      {
        id: used.id,
        item_name: "Кит Рейдер",
        item_image: "/images/items/test.png",
        server_type: "NO_LIMIT",
        duration: null,
        is_permanent: true,
        is_one_time: false,
        status: "used",
        created_at: new Date(T + 1000).toISOString(),
        used_at: new Date(T + 2000).toISOString(),
        expires_at: null,
        last_error: null,
        // Not bought (an entry made directly, like a promo code's): no price, nothing to return.
        purchase_id: null,
        price: null,
        return_until: null,
        returnable: false,
        gift_from: null,
        delivering: false,
        // No fair-play window holds it after a wipe (decision 129).
        fair_play: null,
        // A term of days, not «до вайпа» (decision 130).
        until_wipe: false,
        wipe_at: null,
      },
      expect.objectContaining({ id: unused.id, duration: 30, is_permanent: false, status: "not_used" }),
    ]);

    const notUsed = await api("/inventory?status=not_used", { token: player.token });
    expect((notUsed.json.items as { id: number }[]).map((entry) => entry.id)).toEqual([unused.id]);
    const onlyUsed = await api("/inventory?status=used", { token: player.token });
    expect((onlyUsed.json.items as { id: number }[]).map((entry) => entry.id)).toEqual([used.id]);
  });

  it("answers an empty list to a new player", async () => {
    const player = await createPlayer({ deps });
    expect((await api("/inventory", { token: player.token })).json).toEqual({ items: [] });
    expect((await api("/purchase/history", { token: player.token })).json).toEqual({ purchases: [] });
    expect((await api("/payment/history", { token: player.token })).json).toEqual([]);
  });
});
