import { describe, expect, it } from "vitest";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { buy, createItem, ensureServerStatement, fetchApi } from "./support/shop-fixtures.ts";
import { sessionCookie } from "./support/sign-in.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

const HOUR = 60 * 60 * 1000;

interface PurchaseBody {
  purchase: {
    id: number;
    transaction_id: string;
    paid_at: string;
    server_type: string;
    duration_text: string;
    price: number;
    status: string;
  };
  balance: number;
}

describe("POST /api/purchase/items/:id", () => {
  it("buys a rank for a duration: debit, ledger row, purchase, Корзина entry", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const itemId = await createItem({
      price: 19_900,
      discount: 15,
      serverType: "VANILLA",
      durations: [
        [7, null],
        [30, null],
      ],
    });

    const response = await buy(player.token, itemId, { server_type: "VANILLA", duration: 7 });
    expect(response.status).toBe(201);
    const body = (await response.json()) as PurchaseBody;
    // round(7/30 × 199) = 46 ₽, minus 15% = 39 ₽.
    expect(body.purchase).toMatchObject({
      server_type: "VANILLA",
      duration_text: "7 дней",
      price: 39,
      status: "completed",
    });
    expect(body.purchase.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(body.purchase.paid_at)).not.toBeNaN();
    expect(body.balance).toBe(961);

    expect(await balanceAndLedger(player.id)).toEqual({ balance: 96_100, ledger: 96_100 });
    expect(
      await rows("SELECT amount, kind, purchase_id FROM ledger WHERE user_id = ? AND kind = 'purchase'", player.id),
    ).toEqual([{ amount: -3_900, kind: "purchase", purchase_id: body.purchase.id }]);
    expect(
      await rows(
        "SELECT item_id, purchase_id, server_type, duration_days, is_permanent, status FROM inventory_entries WHERE user_id = ?",
        player.id,
      ),
    ).toEqual([
      {
        item_id: itemId,
        purchase_id: body.purchase.id,
        server_type: "VANILLA",
        duration_days: 7,
        is_permanent: 0,
        status: "not_used",
      },
    ]);
  });

  it("buys a one-time item without a duration as a permanent entry, with the session cookie too", async () => {
    const player = await createPlayer({ balance: 50_000 });
    const itemId = await createItem({ price: 12_900, isOneTime: true });
    const response = await buy(null, itemId, { server_type: "SOLO" }, sessionCookie(player.token));
    expect(response.status).toBe(201);
    const body = (await response.json()) as PurchaseBody;
    expect(body.purchase).toMatchObject({ duration_text: "Навсегда", price: 129 });
    expect(
      await rows("SELECT is_permanent, duration_days FROM inventory_entries WHERE user_id = ?", player.id),
    ).toEqual([{ is_permanent: 1, duration_days: null }]);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 37_100, ledger: 37_100 });
  });

  it("answers 401 Необходима авторизация without a token, or with a forged one", async () => {
    const itemId = await createItem({ isOneTime: true });
    for (const headers of [{}, { authorization: "Bearer not-a-token" }] as Record<string, string>[]) {
      const response = await buy(null, itemId, { server_type: "SOLO" }, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Необходима авторизация" });
    }
  });

  it("answers 401 for a well-signed token whose session was revoked or has run out, and buys nothing", async () => {
    const itemId = await createItem({ price: 4_900 });
    for (const end of [
      "UPDATE sessions SET revoked_at = 1 WHERE user_id = ?",
      "UPDATE sessions SET expires_at = 1 WHERE user_id = ?",
    ]) {
      const player = await createPlayer({ balance: 10_000 });
      await runBatch([raw(end, player.id)]);
      const response = await buy(player.token, itemId, { server_type: "SOLO" });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Необходима авторизация" });
      expect(await balanceAndLedger(player.id)).toEqual({ balance: 10_000, ledger: 10_000 });
      expect(await rows("SELECT id FROM purchases WHERE user_id = ?", player.id)).toEqual([]);
    }
  });

  it("answers 404 for an unknown item and 400 for a malformed id", async () => {
    const player = await createPlayer({ balance: 10_000 });
    const missing = await buy(player.token, 987_654_321, { server_type: "SOLO" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Товар не найден" });
    for (const id of ["abc", "-1", "0", "2.5"]) {
      const response = await buy(player.token, id, { server_type: "SOLO" });
      expect(response.status, id).toBe(400);
      expect(await response.json()).toEqual({ error: "Некорректный идентификатор товара" });
    }
  });

  it("rejects bad bodies with 400 and charges nothing", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const itemId = await createItem({ durations: [[30, null]] });
    const bodies: unknown[] = [
      "not json",
      {},
      { server_type: "EXTRA", duration: 30 },
      { server_type: "SOLO", duration: -30 },
      { server_type: "SOLO", duration: "30" },
      { server_type: "SOLO", duration: "тридцать" },
      { server_type: "SOLO", duration: 7.5 },
      { server_type: "SOLO", duration: 30, idempotency_key: "short" },
    ];
    for (const body of bodies) {
      const response = await buy(player.token, itemId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error: "Некорректные данные покупки" });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
  });

  it("rejects a server type the item doesn't have, a duration not offered, a missing one", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const rank = await createItem({ serverType: "MAX3", durations: [[30, null]] });
    const oneTime = await createItem({ serverType: "MAX3", isOneTime: true });
    const cases: [number, unknown, string][] = [
      [rank, { server_type: "SOLO", duration: 30 }, "Этот товар недоступен для выбранного типа сервера"],
      [rank, { server_type: "MAX3", duration: 14 }, "Такой срок действия для этого товара не предусмотрен"],
      // 0 days is «до вайпа» (decision 130), which this rank isn't sold for.
      [rank, { server_type: "MAX3", duration: 0 }, "Такой срок действия для этого товара не предусмотрен"],
      [rank, { server_type: "MAX3" }, "Выберите срок действия"],
      [oneTime, { server_type: "MAX3", duration: 30 }, "Для разового товара срок действия не указывается"],
    ];
    for (const [id, body, error] of cases) {
      const response = await buy(player.token, id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
  });

  it("answers Недостаточно средств на балансе when the balance is short", async () => {
    const player = await createPlayer({ balance: 9_999 });
    const itemId = await createItem({ price: 10_000, isOneTime: true });
    const response = await buy(player.token, itemId, { server_type: "SOLO" });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: "Недостаточно средств на балансе" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 9_999, ledger: 9_999 });
    expect(await rows("SELECT id FROM purchases WHERE user_id = ?", player.id)).toEqual([]);
  });

  it("refuses upcoming, ended and sold-out offers", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const now = Date.now();
    const cases: [number, number, string][] = [
      [
        await createItem({ isOneTime: true, startTime: now + HOUR, endTime: now + 10 * HOUR, maxQuantity: 5 }),
        409,
        "Продажа этого товара ещё не началась",
      ],
      [
        await createItem({ isOneTime: true, startTime: now - 10 * HOUR, endTime: now - HOUR }),
        410,
        "Срок действия предложения истёк",
      ],
      [await createItem({ isOneTime: true, maxQuantity: 5, soldQuantity: 5 }), 410, "Товар распродан"],
      [await createItem({ isOneTime: true, isAvailable: false }), 410, "Товар недоступен"],
    ];
    for (const [id, status, error] of cases) {
      const response = await buy(player.token, id, { server_type: "SOLO" });
      expect(response.status, error).toBe(status);
      expect(await response.json()).toEqual({ error });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
  });

  it("refuses a server type with no game server for now (409), keeps what was bought queued, and sells again once one is added", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const friend = await createPlayer();
    const itemId = await createItem({ price: 10_000, isOneTime: true, serverType: "NO_LIMIT" });
    expect((await buy(player.token, itemId, { server_type: "NO_LIMIT" })).status).toBe(201);

    // The last NO_LIMIT server goes (decision 122): its type isn't sold, for the buyer or as a gift.
    await runBatch([raw("DELETE FROM servers WHERE server_type = 'NO_LIMIT'")]);
    const refused = await buy(player.token, itemId, { server_type: "NO_LIMIT" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: PURCHASE_ERRORS.noServer });
    expect(PURCHASE_ERRORS.noServer).toBe(
      "Товары для этого типа серверов временно не продаются: сейчас нет ни одного сервера этого типа",
    );
    const gift = await buy(player.token, itemId, { server_type: "NO_LIMIT", gift_to: friend.steamId });
    expect(gift.status).toBe(409);
    expect(await gift.json()).toEqual({ error: PURCHASE_ERRORS.noServer });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 90_000, ledger: 90_000 });
    // The API's item says so; what was bought stays in the Корзина, waiting.
    const item = (await (await fetchApi(`/shop/items/${itemId}`)).json()) as { item: Record<string, unknown> };
    expect(item.item).toMatchObject({ is_available: false, no_server: true });
    expect(await rows("SELECT status FROM inventory_entries WHERE user_id = ?", player.id)).toEqual([
      { status: "not_used" },
    ]);

    // A server of the type again: sold again.
    await runBatch([ensureServerStatement("NO_LIMIT")]);
    const again = (await (await fetchApi(`/shop/items/${itemId}`)).json()) as { item: Record<string, unknown> };
    expect(again.item).toMatchObject({ is_available: true, no_server: false });
    expect((await buy(player.token, itemId, { server_type: "NO_LIMIT" })).status).toBe(201);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 80_000, ledger: 80_000 });
  });

  it("buys once for a repeated idempotency key (body or header) and returns the same purchase", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const itemId = await createItem({ price: 10_000, isOneTime: true, maxQuantity: 50 });
    const key = crypto.randomUUID();
    const first = await buy(player.token, itemId, { server_type: "SOLO", idempotency_key: key });
    expect(first.status).toBe(201);
    const firstBody = (await first.json()) as PurchaseBody;
    const again = await buy(player.token, itemId, { server_type: "SOLO" }, { "Idempotency-Key": key });
    expect(again.status).toBe(200);
    const againBody = (await again.json()) as PurchaseBody;
    expect(againBody.purchase).toEqual(firstBody.purchase);

    // Submitted twice at once: still one purchase.
    const key2 = crypto.randomUUID();
    const pair = await Promise.all([
      buy(player.token, itemId, { server_type: "SOLO", idempotency_key: key2 }),
      buy(player.token, itemId, { server_type: "SOLO", idempotency_key: key2 }),
    ]);
    expect(pair.map((response) => response.status).toSorted()).toEqual([200, 201]);
    const [a, b] = (await Promise.all(pair.map((response) => response.json()))) as PurchaseBody[];
    expect(a?.purchase.id).toBe(b?.purchase.id);

    expect(await balanceAndLedger(player.id)).toEqual({ balance: 80_000, ledger: 80_000 });
    expect(await rows("SELECT sold_quantity FROM items WHERE id = ?", itemId)).toEqual([{ sold_quantity: 2 }]);

    // The same key for another item is a conflict, not a silent replay.
    const other = await createItem({ isOneTime: true });
    const reused = await buy(player.token, other, { server_type: "SOLO", idempotency_key: key });
    expect(reused.status).toBe(409);
  });

  it("the same idempotency key with another duration or server type is a 409, not the first purchase again", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const itemId = await createItem({
      price: 10_000,
      durations: [
        [7, 5_000],
        [30, 10_000],
      ],
    });
    const key = crypto.randomUUID();
    const first = await buy(player.token, itemId, { server_type: "SOLO", duration: 30, idempotency_key: key });
    expect(first.status).toBe(201);
    for (const terms of [
      { server_type: "SOLO", duration: 7 },
      { server_type: "VANILLA", duration: 30 },
    ]) {
      const reused = await buy(player.token, itemId, { ...terms, idempotency_key: key });
      expect(reused.status, JSON.stringify(terms)).toBe(409);
      expect(await reused.json()).toEqual({ error: "Этот ключ идемпотентности уже использован для другой покупки" });
    }
    // The same terms again are still a replay of the one purchase.
    const again = await buy(player.token, itemId, { server_type: "SOLO", duration: 30, idempotency_key: key });
    expect(again.status).toBe(200);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 90_000, ledger: 90_000 });
  });

  it("50 concurrent purchases against a balance covering 10 buy exactly 10, and balance = sum(ledger)", async () => {
    const player = await createPlayer({ balance: 10 * 5_000 + 4_999 });
    const itemId = await createItem({ price: 5_000, isOneTime: true });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => buy(player.token, itemId, { server_type: "SOLO" })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    for (const response of responses.filter((r) => r.status === 402)) {
      expect(await response.json()).toEqual({ error: "Недостаточно средств на балансе" });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 4_999, ledger: 4_999 });
    expect(await rows("SELECT COUNT(*) AS n FROM purchases WHERE user_id = ?", player.id)).toEqual([{ n: 10 }]);
    expect(await rows("SELECT COUNT(*) AS n FROM inventory_entries WHERE user_id = ?", player.id)).toEqual([{ n: 10 }]);
  });

  it("a limited item with 5 left sells exactly 5 under concurrency", async () => {
    const itemId = await createItem({
      price: 1_000,
      isOneTime: true,
      startTime: Date.now() - HOUR,
      endTime: Date.now() + 10 * HOUR,
      maxQuantity: 20,
      soldQuantity: 15,
    });
    const players = await Promise.all(Array.from({ length: 12 }, () => createPlayer({ balance: 10_000 })));
    const responses = await Promise.all(
      players.flatMap((player) => [
        buy(player.token, itemId, { server_type: "SOLO" }),
        buy(player.token, itemId, { server_type: "SOLO" }),
      ]),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(19);
    expect(await rows("SELECT sold_quantity FROM items WHERE id = ?", itemId)).toEqual([{ sold_quantity: 20 }]);
    expect(await rows("SELECT COUNT(*) AS n FROM purchases WHERE item_id = ?", itemId)).toEqual([{ n: 5 }]);
    for (const player of players) {
      const { balance, ledger } = await balanceAndLedger(player.id);
      expect(balance).toBe(ledger);
    }
  });
});
