// Price as shown (decision 112): a purchase never charges a price the player didn't see. The API
// and the item page's form carry the price shown; a different price now is a 409 with the new one,
// and no money moves. Limited stock and availability are still the SQL guard's.
import { describe, expect, it } from "vitest";
import { action } from "../app/routes/shop.item.tsx";
import { testDeps } from "./support/deps.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { buy, createItem, fetchApi } from "./support/shop-fixtures.ts";
import { sessionCookie } from "./support/sign-in.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

type ActionArgs = Parameters<typeof action>[0];

function post(id: number, fields: Record<string, string>, token: string) {
  const headers = new Headers({ cookie: sessionCookie(token).cookie });
  return action(
    routeArgs<ActionArgs>(
      testDeps(),
      `http://localhost/shop/items/${id}`,
      { method: "POST", body: new URLSearchParams(fields), headers },
      { params: { id: String(id) }, pattern: "/shop/items/:id" },
    ),
  );
}

async function outcome(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    result = error;
  }
  if (result instanceof Response) return { status: result.status, body: result.headers.get("location") };
  const value = result as { data: unknown; init: ResponseInit | null };
  return { status: value.init?.status ?? 200, body: value.data };
}

async function shownPrice(id: number): Promise<number> {
  const response = await fetchApi(`/shop/items/${id}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { item?: { discount_price: number }; discount_price?: number };
  return (body.item ?? (body as { discount_price: number })).discount_price;
}

const setPrice = (id: number, kopecks: number) =>
  runBatch([raw("UPDATE items SET price = ? WHERE id = ?", kopecks, id)]);

const purchasesOf = (userId: number) => rows("SELECT price FROM purchases WHERE user_id = ?", userId);

describe("price as shown: POST /api/purchase/items/:id", () => {
  it("a price changed between page and purchase is a 409 with the new price, and no money moves", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 10_000, isOneTime: true });
    const seen = await shownPrice(id);
    expect(seen).toBe(100);

    await setPrice(id, 15_000);
    const key = crypto.randomUUID();
    const refused = await buy(player.token, id, { server_type: "SOLO", expected_price: seen, idempotency_key: key });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "Цена изменилась: теперь 150\u00a0₽", price: 150 });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
    expect(await purchasesOf(player.id)).toEqual([]);

    // Confirmed at the new price, with the same key: bought once, at 150 ₽.
    const bought = await buy(player.token, id, { server_type: "SOLO", expected_price: 150, idempotency_key: key });
    expect(bought.status).toBe(201);
    expect(await bought.json()).toMatchObject({ purchase: { price: 150 }, balance: 850 });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 85_000, ledger: 85_000 });
  });

  it("checks the chosen duration's price after the discount, and a cheaper price now is refused too", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 30_000, discount: 10, durations: [[30, null]] });
    // 300 ₽ for 30 days, minus 10 % = 270 ₽; then the discount grows to 20 %: 240 ₽.
    await runBatch([raw("UPDATE items SET discount = 20 WHERE id = ?", id)]);
    const refused = await buy(player.token, id, { server_type: "SOLO", duration: 30, expected_price: 270 });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "Цена изменилась: теперь 240\u00a0₽", price: 240 });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });

    const bought = await buy(player.token, id, { server_type: "SOLO", duration: 30, expected_price: 240 });
    expect(bought.status).toBe(201);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 76_000, ledger: 76_000 });
  });

  it("old clients without expected_price still buy at the current price", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 10_000, isOneTime: true });
    await setPrice(id, 12_000);
    const bought = await buy(player.token, id, { server_type: "SOLO" });
    expect(bought.status).toBe(201);
    expect(await bought.json()).toMatchObject({ purchase: { price: 120 }, balance: 880 });
  });

  it("availability and stock are still the guard's: a stale price on a sold-out item is «Товар распродан»", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 10_000, isOneTime: true, maxQuantity: 1, soldQuantity: 1 });
    await setPrice(id, 15_000);
    const refused = await buy(player.token, id, { server_type: "SOLO", expected_price: 100 });
    expect(refused.status).toBe(410);
    expect(await refused.json()).toEqual({ error: "Товар распродан" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
  });

  it("refuses an expected price that isn't rubles with at most two decimals", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 10_000, isOneTime: true });
    for (const expected_price of [-1, 100.001, "100"]) {
      const response = await buy(player.token, id, { server_type: "SOLO", expected_price });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Некорректные данные покупки" });
    }
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });
  });
});

describe("price as shown: the item page's form", () => {
  it("the chosen duration's shown price is checked; the 409 names the new price and the next post buys at it", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({
      price: 30_000,
      durations: [
        [7, null],
        [30, null],
      ],
    });
    await setPrice(id, 60_000);
    const key = crypto.randomUUID();
    // The page showed 70 ₽ for 7 days and 300 ₽ for 30; now 30 days cost 600 ₽.
    const fields = { server_type: "SOLO", duration: "30", idempotency_key: key, expected_price_7: "70" };
    const refused = await outcome(post(id, { ...fields, expected_price_30: "300" }, player.token));
    expect(refused).toEqual({
      status: 409,
      body: { ok: false, status: 409, error: "Цена изменилась: теперь 600\u00a0₽", price: 600, duration: 30 },
    });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });

    const bought = await outcome(post(id, { ...fields, expected_price_30: "600" }, player.token));
    expect(bought.status).toBe(302);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 40_000, ledger: 40_000 });
  });

  it("the dialog's one expected_price field works the same way", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 10_000, isOneTime: true });
    await setPrice(id, 9_950);
    const fields = { server_type: "SOLO", idempotency_key: crypto.randomUUID(), _js: "1" };
    const refused = await outcome(post(id, { ...fields, expected_price: "100" }, player.token));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "Цена изменилась: теперь 99,5\u00a0₽", price: 99.5 });
    const bought = await outcome(post(id, { ...fields, expected_price: "99.5" }, player.token));
    expect(bought).toMatchObject({ status: 200, body: { ok: true, balance: 900.5, purchase: { price: 99.5 } } });
  });
});
