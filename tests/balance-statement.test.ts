// The balance statement «Движение средств» (issue 20, item 4; decision 108): every ledger movement
// (top-up, promo credit, purchase, operator refund, adjustment, the bank's refund of a top-up and the
// debt it leaves) with what it was and the balance after it; the rows add up to the balance.
import type { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import type { StatementEntry, StatementPage } from "#core/profile/types.ts";
import { createOperator } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { expectBalancesMatchLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createPayment, createPromo } from "#tests/support/profile-fixtures.ts";
import { buy, createItem } from "#tests/support/shop-fixtures.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import { unique, uniqueIp } from "#tests/support/unique.ts";
import { adjustBalance } from "#worker/services/admin/balance.ts";
import { refundPurchase } from "#worker/services/admin/refund.ts";
import { creditPayment } from "#worker/services/payments/payments.ts";
import { debitRefund } from "#worker/services/payments/refunds.ts";
import { loader as statementLoader } from "../app/routes/profile.statement.tsx";
import { middleware } from "../app/routes/profile.tsx";

const deps = testDeps();
const touched: number[] = [];

afterEach(async () => {
  await expectBalancesMatchLedger(touched);
});

async function player() {
  const created = await createPlayer({ deps });
  touched.push(created.id);
  return created;
}

/** A top-up of `kopecks` credited the way the provider's confirmation credits it. */
async function topUp(userId: number, kopecks: number) {
  const providerPaymentId = unique("pay-");
  const payment = await createPayment(deps, userId, { amount: kopecks, providerPaymentId });
  expect(
    await creditPayment(deps, { paymentId: payment.id, provider: "standin", providerPaymentId, amount: kopecks }),
  ).toBe("credited");
  return payment.id;
}

async function purchase(token: string, itemId: number): Promise<number> {
  const response = await buy(token, itemId, { server_type: "SOLO" }, { "idempotency-key": crypto.randomUUID() });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { purchase: { id: number } };
  return body.purchase.id;
}

async function statement(token: string, query = ""): Promise<StatementPage> {
  const response = await api(`/balance/history${query}`, { token });
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  return response.json as unknown as StatementPage;
}

async function profileBalance(token: string): Promise<number> {
  const response = await api("/profile", { token });
  return (response.json as unknown as { balance: number }).balance;
}

const sum = (entries: StatementEntry[]) =>
  Math.round(entries.reduce((total, entry) => total + entry.amount * 100, 0)) / 100;
const brief = (entries: StatementEntry[]) =>
  entries.map(({ kind, amount, description, balance_after }) => ({ kind, amount, description, balance_after }));

describe("the balance statement", () => {
  it("lists top-up, promo, purchases, an operator's refund and adjustment, newest first; the rows add up to the balance", async () => {
    const me = await player();
    const operator = await createOperator(deps, "admin");
    const vip = await createItem({ name: "VIP", price: 19900, durations: [[7, 9300]] });
    const kit = await createItem({ name: "Набор «Старт»", price: 3500, isOneTime: true });
    const promo = await createPromo(deps, { type: "BALANCE", value: 10000 });

    await topUp(me.id, 30000);
    const redeemed = await api("/promos/validate", { token: me.token, ip: uniqueIp(), body: { code: promo.code } });
    expect(redeemed.status).toBe(200);
    const vipResponse = await buy(
      me.token,
      vip,
      { server_type: "SOLO", duration: 7 },
      { "idempotency-key": crypto.randomUUID() },
    );
    expect(vipResponse.status).toBe(201);
    const kitPurchase = await purchase(me.token, kit);
    const op = { userId: operator.id, steamId: operator.steamId, nickname: operator.nickname, role: "admin" as const };
    expect(
      await refundPurchase(deps, op, { userId: me.id, purchaseId: kitPurchase, reason: "Купил по ошибке" }),
    ).toEqual({
      ok: true,
    });
    expect(await adjustBalance(deps, op, { userId: me.id, amount: -700, reason: "Списание за ошибку" })).toEqual({
      ok: true,
    });

    const page = await statement(me.token);
    expect(brief(page.entries)).toEqual([
      { kind: "adjustment", amount: -7, description: "Корректировка баланса: Списание за ошибку", balance_after: 300 },
      {
        kind: "refund",
        amount: 35,
        description: "Возврат покупки «Набор „Старт“» (SOLO): Купил по ошибке",
        balance_after: 307,
      },
      { kind: "purchase", amount: -35, description: "Покупка «Набор „Старт“» (SOLO)", balance_after: 272 },
      { kind: "purchase", amount: -93, description: "Покупка «VIP» (SOLO, 7 дней)", balance_after: 307 },
      { kind: "promo", amount: 100, description: `Промокод ${promo.code}`, balance_after: 400 },
      { kind: "deposit", amount: 300, description: "Пополнение картой", balance_after: 300 },
    ]);
    expect(page.entries[4]?.promo_code).toBe(promo.code);
    expect(page.entries[1]?.note).toBe("Купил по ошибке");
    expect(page.entries[3]?.item_name).toBe("VIP");
    expect(page.entries.every((entry) => entry.created_at !== null)).toBe(true);
    // The rows add up to the balance the statement, the profile and the header show.
    expect(sum(page.entries)).toBe(300);
    expect(page.balance).toBe(300);
    expect(page.entries[0]?.balance_after).toBe(300);
    expect(await profileBalance(me.token)).toBe(300);
    expect({ page: page.page, per_page: page.per_page, total: page.total, pages: page.pages }).toEqual({
      page: 1,
      per_page: 20,
      total: 6,
      pages: 1,
    });
  });

  it("shows the bank's refund of a top-up and the debt a later top-up pays off", async () => {
    const me = await player();
    const item = await createItem({ name: "Кейс", price: 8000, isOneTime: true });
    const first = await topUp(me.id, 10000);
    await purchase(me.token, item);
    // The bank refunds the whole 100 ₽: the balance has 20 ₽, the other 80 ₽ become a debt.
    expect(await debitRefund(deps, { paymentId: first, providerRefundId: unique("refund-"), amount: 10000 })).toBe(
      "debited",
    );
    await topUp(me.id, 15000);

    const page = await statement(me.token);
    expect(brief(page.entries)).toEqual([
      { kind: "refund_debt", amount: -80, description: "Погашение долга после возврата пополнения", balance_after: 70 },
      { kind: "deposit", amount: 150, description: "Пополнение картой", balance_after: 150 },
      { kind: "refund", amount: -20, description: "Возврат пополнения банком", balance_after: 0 },
      { kind: "purchase", amount: -80, description: "Покупка «Кейс» (SOLO)", balance_after: 20 },
      { kind: "deposit", amount: 100, description: "Пополнение картой", balance_after: 100 },
    ]);
    expect(sum(page.entries)).toBe(70);
    expect(await profileBalance(me.token)).toBe(70);
  });

  it("pages newest first; a later page's balances count the rows after it; bad pages get the 400 text", async () => {
    const me = await player();
    for (const kopecks of [1000, 2000, 3000, 4000, 5000]) await topUp(me.id, kopecks);
    const second = await statement(me.token, "?page=2&per_page=2");
    expect(second.entries.map((entry) => [entry.amount, entry.balance_after])).toEqual([
      [30, 60],
      [20, 30],
    ]);
    expect({ page: second.page, total: second.total, pages: second.pages, balance: second.balance }).toEqual({
      page: 2,
      total: 5,
      pages: 3,
      balance: 150,
    });
    const pages = await Promise.all([1, 2, 3].map((n) => statement(me.token, `?page=${n}&per_page=2`)));
    expect(sum(pages.flatMap((p) => p.entries))).toBe(150);

    expect(await api("/balance/history?page=0", { token: me.token })).toMatchObject({
      status: 400,
      json: { error: "Некорректный номер страницы: укажите целое число от 1" },
    });
    expect(await api("/balance/history?page=4&per_page=2", { token: me.token })).toMatchObject({
      status: 400,
      json: { error: "Такой страницы нет: всего страниц — 3" },
    });
  });

  it("is the signed-in player's own: 401 without a session, nobody else's rows", async () => {
    expect(await api("/balance/history")).toMatchObject({ status: 401, json: { error: "Необходима авторизация" } });
    const me = await player();
    const other = await player();
    await topUp(other.id, 5000);
    const mine = await statement(me.token);
    expect(mine).toMatchObject({ entries: [], balance: 0, total: 0, pages: 1 });
    await topUp(me.id, 1000);
    const after = await statement(me.token);
    expect(after.entries.map((entry) => entry.amount)).toEqual([10]);
  });

  it("/statement renders the same rows for the page, and 400 for a page that isn't there", async () => {
    const me = await player();
    await topUp(me.id, 25000);
    const args = async (url: string) => {
      const headers = new Headers({ Cookie: sessionCookie(me.token).cookie });
      const request = new Request(url, { headers });
      const context: RouterContextProvider = createRouterContext(deps);
      const routeArgs = { request, context, params: {}, url: new URL(url), pattern: "/statement" };
      const [run] = middleware;
      if (!run) throw new Error("no middleware");
      await run(routeArgs as never, async () => new Response(null));
      // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
      return routeArgs as any;
    };
    const data = await statementLoader(await args("http://localhost/statement"));
    expect(data).toMatchObject({ balance: 250, page: 1, pages: 1 });
    expect(brief(data.entries)).toEqual([
      { kind: "deposit", amount: 250, description: "Пополнение картой", balance_after: 250 },
    ]);
    await expect(statementLoader(await args("http://localhost/statement?page=2"))).rejects.toMatchObject({
      init: { status: 400 },
    });
  });
});
