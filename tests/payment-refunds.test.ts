// Refunds of deposits (YooKassa refund.succeeded), with YooKassa faked at the network boundary:
// the webhook re-reads the refund, debits it once, turns what the balance can't cover into a
// debt that blocks purchases until a deposit pays it off, and the deposit history shows it.
import { createExecutionContext, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { DepositTable } from "#app/components/profile/deposit-table.tsx";
import type { DepositView } from "#core/profile/types.ts";
import { ledger, refundDebts } from "#db/schema.ts";
import { depsFor } from "#tests/support/deps.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Deps } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";
import { FakeYooKassa } from "./fakes/yookassa.ts";
import { balanceAndLedger, expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { createItem } from "./support/shop-fixtures.ts";
import { bearer } from "./support/sign-in.ts";

const touchedUsers: number[] = [];

afterEach(async () => {
  await expectBalancesMatchLedger(touchedUsers);
});

function setup() {
  const fake = new FakeYooKassa();
  const workerEnv = { ...env, ...fake.env() } as Env;
  const deps: Deps = depsFor(workerEnv, { fetch: fake.fetch });
  const app = createWorkerApp({
    pageHandler: async () => new Response("no pages here", { status: 501 }),
    overrides: () => ({ fetch: fake.fetch }),
  });
  const request = (path: string, init: RequestInit = {}) =>
    app.request(`http://localhost:5173${path}`, init, workerEnv, createExecutionContext());
  const notify = (body: string) =>
    request("/api/payment/webhook/yookassa", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": "185.71.76.10" },
      body,
    });
  const player = async () => {
    const created = await createPlayer({ deps });
    touchedUsers.push(created.id);
    return created;
  };
  /** A deposit of `rubles`, created through our API and paid at the fake; returns the provider's payment id. */
  const deposit = async (token: string, rubles: number) => {
    const response = await request("/api/payment/create", {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json" },
      body: JSON.stringify({ amount: rubles, email: "player@example.com" }),
    });
    expect(response.status).toBe(200);
    const { payment_id } = (await response.json()) as { payment_id: string };
    const remote = [...fake.payments.values()].find((payment) => payment.metadata.payment_id === payment_id);
    if (!remote) throw new Error("the fake has no payment");
    fake.pay(remote.id);
    expect((await notify(fake.notification(remote.id))).status).toBe(200);
    return { providerPaymentId: remote.id, paymentId: payment_id };
  };
  const buy = (token: string, itemId: number) =>
    request(`/api/purchase/items/${itemId}`, {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ server_type: "SOLO" }),
    });
  const history = async (token: string) => {
    const response = await request("/api/payment/history", { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (await response.json()) as DepositView[];
  };
  return { fake, deps, notify, player, deposit, buy, history };
}

async function debtOf(deps: Deps, userId: number): Promise<number> {
  const [row] = await deps.db.orm.select().from(refundDebts).where(eq(refundDebts.userId, userId));
  return row?.amount ?? 0;
}

describe("a YooKassa refund of a deposit", () => {
  it("re-reads the refund from the API and debits it once, however often the notification repeats", async () => {
    const { fake, deps, notify, player, deposit, history } = setup();
    const payer = await player();
    const { providerPaymentId } = await deposit(payer.token, 300);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 30000, ledger: 30000 });

    const refund = fake.refund(providerPaymentId, "120.00");
    const answers = await Promise.all(Array.from({ length: 4 }, () => notify(fake.refundNotification(refund.id))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(await notify(fake.refundNotification(refund.id))).toHaveProperty("status", 200);

    expect(fake.requests.filter((seen) => seen.path === `/refunds/${refund.id}`).length).toBeGreaterThan(0);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 18000, ledger: 18000 });
    const refundRows = await deps.db.orm.select().from(ledger).where(eq(ledger.providerRefundId, refund.id));
    expect(refundRows).toMatchObject([{ userId: payer.id, amount: -12000, kind: "refund" }]);
    expect(await debtOf(deps, payer.id)).toBe(0);

    const rows = await history(payer.token);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.status === "refunded")).toMatchObject({ payment_id: refund.id, amount: 120 });
    const html = renderToString(createElement(DepositTable, { deposits: rows }));
    expect(html).toContain("Возврат");
    expect(html).toContain("−120\u00a0₽");
  });

  it("trusts the API, not the notification: a pending or unknown refund, or a forged amount, changes nothing", async () => {
    const { fake, notify, player, deposit } = setup();
    const payer = await player();
    const { providerPaymentId } = await deposit(payer.token, 100);

    const pending = fake.refund(providerPaymentId, "100.00", "pending");
    expect((await notify(fake.refundNotification(pending.id))).status).toBe(200);
    // A notification naming an id YooKassa doesn't know.
    const forged = JSON.stringify({
      type: "notification",
      event: "refund.succeeded",
      object: {
        id: "2f1e3b8c-0015-5000-9000-000000000000",
        payment_id: providerPaymentId,
        amount: { value: "100.00" },
      },
    });
    expect((await notify(forged)).status).toBe(200);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 10000, ledger: 10000 });

    // Refunds together can't exceed the payment.
    const first = fake.refund(providerPaymentId, "80.00");
    const second = fake.refund(providerPaymentId, "30.00");
    await notify(fake.refundNotification(first.id));
    await notify(fake.refundNotification(second.id));
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 2000, ledger: 2000 });
  });

  it("when the money was spent, takes what there is, blocks purchases while the rest is owed, and the next deposit pays it off first", async () => {
    const { fake, deps, notify, player, deposit, buy, history } = setup();
    const payer = await player();
    const itemId = await createItem({ price: 6000 });
    const { providerPaymentId } = await deposit(payer.token, 100);
    expect((await buy(payer.token, itemId)).status).toBe(201);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 4000, ledger: 4000 });

    const refund = fake.refund(providerPaymentId);
    await notify(fake.refundNotification(refund.id));
    await notify(fake.refundNotification(refund.id));
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 0, ledger: 0 });
    expect(await debtOf(deps, payer.id)).toBe(6000);

    const refused = await buy(payer.token, await createItem({ price: 0 }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error:
        "Покупки недоступны: после возврата платежа за вами долг 60\u00a0₽. Пополните баланс — пополнение сначала погасит долг.",
    });

    // A smaller deposit pays part of the debt and leaves nothing to spend.
    await deposit(payer.token, 50);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 0, ledger: 0 });
    expect(await debtOf(deps, payer.id)).toBe(1000);
    expect((await buy(payer.token, itemId)).status).toBe(403);

    await deposit(payer.token, 100);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 9000, ledger: 9000 });
    expect(await debtOf(deps, payer.id)).toBe(0);
    expect((await buy(payer.token, itemId)).status).toBe(201);
    expect(await balanceAndLedger(payer.id)).toEqual({ balance: 3000, ledger: 3000 });

    const kinds = (await deps.db.orm.select().from(ledger).where(eq(ledger.userId, payer.id))).map(
      (row) => `${row.kind} ${row.amount}`,
    );
    expect(kinds.sort()).toEqual(
      [
        "deposit 10000",
        "purchase -6000",
        "refund -4000",
        "deposit 5000",
        "refund_debt -5000",
        "deposit 10000",
        "refund_debt -1000",
        "purchase -6000",
      ].sort(),
    );
    expect((await history(payer.token)).map((row) => row.status).sort()).toEqual(
      ["completed", "completed", "completed", "refunded"].sort(),
    );
  });
});
