// Top-up through YooKassa's API v3, with YooKassa faked at the network boundary
// (tests/fakes/yookassa.ts). The Worker is the real Hono app with the env a
// production shop would have (PAYMENT_PROVIDER=yookassa), its outbound fetch
// going to the fake.
import { createExecutionContext, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { ledger, payments, users } from "#db/schema.ts";
import { depsFor } from "#tests/support/deps.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Deps } from "#worker/deps.ts";
import type { Env } from "#worker/env.ts";
import { reconcilePaymentsAfterRestore } from "#worker/services/payments/after-restore.ts";
import { createTopUp, creditPayment } from "#worker/services/payments/payments.ts";
import { FakeYooKassa } from "./fakes/yookassa.ts";
import { balanceOf, expectBalancesMatchLedger, ledgerRows } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { bearer } from "./support/sign-in.ts";
import { raw } from "./support/sql.ts";

const CREATE_FAILED = "Произошла ошибка при создании платежа. Попробуйте позже.";
const YOOKASSA_ADDRESSES =
  "185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11,77.75.156.35,77.75.154.128/25,2a02:5180::/32";

const touchedUsers: number[] = [];

function setup(trustedIps = "") {
  const fake = new FakeYooKassa();
  const workerEnv = { ...env, ...fake.env(trustedIps) } as Env;
  const deps: Deps = depsFor(workerEnv, { fetch: fake.fetch });
  const app = createWorkerApp({
    pageHandler: async () => new Response("no pages here", { status: 501 }),
    overrides: () => ({ fetch: fake.fetch }),
  });
  const request = (path: string, init: RequestInit = {}) =>
    app.request(`http://localhost:5173${path}`, init, workerEnv, createExecutionContext());
  const notify = (body: string, address = "185.71.76.10") =>
    request("/api/payment/webhook/yookassa", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": address },
      body,
    });
  return { fake, deps, request, notify };
}

/** A signed-in player whose balance = sum(ledger) is checked after each test. */
async function createPayer(deps: Deps) {
  const player = await createPlayer({ deps });
  touchedUsers.push(player.id);
  return player;
}

async function paymentRow(deps: Deps, id: string) {
  const [row] = await deps.db.orm.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error(`no payment ${id}`);
  return row;
}

afterEach(async () => {
  // Balance = sum(ledger) for every player these tests touched.
  await expectBalancesMatchLedger(touchedUsers);
});

describe("creating a YooKassa payment", () => {
  it("sends Basic auth, our id as Idempotence-Key, RUB amount, capture, redirect, metadata and receipt; retries a 500 with the same key", async () => {
    const { fake, deps, request } = setup();
    const player = await createPayer(deps);
    fake.failNext({ status: 500 });

    const response = await request("/api/payment/create", {
      method: "POST",
      headers: { ...bearer(player.token), "content-type": "application/json" },
      body: JSON.stringify({ amount: 150.5, email: "player@example.com" }),
    });

    expect(response.status).toBe(200);
    const body = (await response.json()) as { payment_url: string; payment_id: string };
    const creates = fake.createRequests();
    expect(creates).toHaveLength(2);
    expect(creates[0]?.idempotenceKey).toBe(body.payment_id);
    expect(creates[1]?.idempotenceKey).toBe(body.payment_id);
    expect(creates[1]?.authorization).toBe(`Basic ${btoa(`${fake.shopId}:${fake.secretKey}`)}`);
    expect(creates[1]?.body).toEqual({
      amount: { value: "150.50", currency: "RUB" },
      capture: true,
      confirmation: { type: "redirect", return_url: `http://localhost:5173/api/payment/return/${body.payment_id}` },
      description: "Пополнение баланса на 150,50 ₽",
      metadata: { payment_id: body.payment_id, steam_id: player.steamId, site: "localhost:5173" },
      receipt: {
        customer: { email: "player@example.com" },
        items: [
          {
            description: "Пополнение баланса",
            quantity: "1.00",
            amount: { value: "150.50", currency: "RUB" },
            vat_code: 1,
            payment_mode: "full_prepayment",
            payment_subject: "service",
          },
        ],
      },
    });
    expect(fake.payments.size).toBe(1);
    const [remote] = [...fake.payments.values()];
    expect(body.payment_url).toBe(remote?.confirmation?.confirmation_url);
    const row = await paymentRow(deps, body.payment_id);
    expect(row).toMatchObject({
      userId: player.id,
      provider: "yookassa",
      providerPaymentId: remote?.id,
      amount: 15050,
      email: "player@example.com",
      status: "pending",
    });
    expect(await balanceOf(player.id)).toBe(0);
  });

  it("when YooKassa is down, answers the spec's Russian error and records nothing as paid", async () => {
    const { fake, deps, request } = setup();
    const player = await createPayer(deps);
    fake.down = true;

    const response = await request("/api/payment/create", {
      method: "POST",
      headers: { ...bearer(player.token), "content-type": "application/json" },
      body: JSON.stringify({ amount: 500, email: "player@example.com" }),
    });

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: CREATE_FAILED });
    expect(fake.createRequests()).toHaveLength(3);
    const rows = await deps.db.orm.select().from(payments).where(eq(payments.userId, player.id));
    expect(rows.map((row) => row.status)).toEqual(["failed"]);
    expect(await balanceOf(player.id)).toBe(0);
    expect(await ledgerRows(player.id)).toEqual([]);
  });

  it("answers 500s on every attempt with the same Russian error", async () => {
    const { fake, deps, request } = setup();
    const player = await createPayer(deps);
    fake.failNext({ status: 500 }, { status: 503 }, "network-error");

    const response = await request("/api/payment/create", {
      method: "POST",
      headers: { ...bearer(player.token), "content-type": "application/json" },
      body: JSON.stringify({ amount: 20, email: "player@example.com" }),
    });

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: CREATE_FAILED });
    const keys = new Set(fake.createRequests().map((r) => r.idempotenceKey));
    expect(keys.size).toBe(1);
  });
});

async function pendingTopUp(deps: Deps, fake: FakeYooKassa, amount = 250) {
  const player = await createPayer(deps);
  const created = await createTopUp(deps, player, { amount, email: "p@example.com" });
  const row = await paymentRow(deps, created.paymentId);
  if (!row.providerPaymentId) throw new Error("no provider id");
  return {
    player,
    paymentId: created.paymentId,
    remoteId: row.providerPaymentId,
    remote: fake.get(row.providerPaymentId),
  };
}

describe("a payment the database lost in a restore (decision 135)", () => {
  /** The database put back to before the payment: its ledger row, its row and, with `account`, the player gone. */
  async function forget(deps: Deps, topUp: Awaited<ReturnType<typeof pendingTopUp>>, account: boolean) {
    await deps.db.batch([
      raw("DELETE FROM ledger WHERE payment_id = ?", topUp.paymentId),
      raw("DELETE FROM payments WHERE id = ?", topUp.paymentId),
      raw("UPDATE users SET balance = 0 WHERE id = ?", topUp.player.id),
      ...(account
        ? [
            raw("DELETE FROM sessions WHERE user_id = ?", topUp.player.id),
            raw("DELETE FROM users WHERE id = ?", topUp.player.id),
          ]
        : []),
    ]);
    // A player the restore took is checked under the id they get again, not the old one.
    if (account) touchedUsers.splice(touchedUsers.indexOf(topUp.player.id), 1);
  }

  it("is credited once when YooKassa notifies again, instead of refused as a mismatch", async () => {
    const { fake, deps, notify } = setup();
    const topUp = await pendingTopUp(deps, fake, 500);
    fake.pay(topUp.remoteId);
    expect((await notify(fake.notification(topUp.remoteId))).status).toBe(200);
    expect(await balanceOf(topUp.player.id)).toBe(500_00);
    await forget(deps, topUp, false);

    expect((await notify(fake.notification(topUp.remoteId))).status).toBe(200);
    expect((await notify(fake.notification(topUp.remoteId))).status).toBe(200);
    expect(await balanceOf(topUp.player.id)).toBe(500_00);
    expect((await ledgerRows(topUp.player.id)).map((row) => `${row.kind} ${row.amount}`)).toEqual(["deposit 50000"]);
  });

  it("is found by the walk of YooKassa's list, its player made again, and credited once", async () => {
    const { fake, deps } = setup();
    const topUp = await pendingTopUp(deps, fake, 80);
    fake.pay(topUp.remoteId);
    await forget(deps, topUp, true);
    // Payments of other players, held or not paid, on more than one page.
    for (let index = 0; index < 120; index++) fake.add({ amount: { value: "10.00", currency: "RUB" } });

    const since = Date.now() - 60_000;
    expect(await reconcilePaymentsAfterRestore(deps, { since })).toMatchObject({
      listed: 1,
      credited: 1,
      complete: true,
    });
    expect(await reconcilePaymentsAfterRestore(deps, { since })).toMatchObject({ listed: 1, held: 1, credited: 0 });
    const [again] = await deps.db.orm.select().from(users).where(eq(users.steamId, topUp.player.steamId));
    if (!again) throw new Error("the player was not made again");
    touchedUsers.push(again.id);
    expect(again.balance).toBe(80_00);
    expect(fake.requests.filter((seen) => seen.path.startsWith("/payments?"))).toHaveLength(2);
  });
});

describe("a paid payment the database never had", () => {
  it("is not put back when another site on the same shop made it, nor when it names no player", async () => {
    const { fake, deps, notify } = setup();
    const steamId = uniqueSteamId();
    const paid = { status: "succeeded" as const, paid: true, amount: { value: "300.00", currency: "RUB" } };
    const foreign = fake.add({
      ...paid,
      metadata: { payment_id: crypto.randomUUID(), steam_id: steamId, site: "other-shop.example" },
    });
    const anonymous = fake.add({ ...paid, metadata: { payment_id: crypto.randomUUID(), site: "localhost:5173" } });

    expect((await notify(fake.notification(foreign.id))).status).toBe(200);
    const walk = await reconcilePaymentsAfterRestore(deps, { since: Date.now() - 60_000 });
    expect(walk).toMatchObject({ listed: 2, credited: 0, left: 2 });
    expect(await deps.db.orm.select().from(users).where(eq(users.steamId, steamId))).toEqual([]);
    for (const id of [foreign.id, anonymous.id]) {
      expect(await deps.db.orm.select().from(ledger).where(eq(ledger.providerPaymentId, id))).toEqual([]);
    }
  });
});

describe("YooKassa notifications", () => {
  it("payment.succeeded credits the balance and records one deposit", async () => {
    const { fake, deps, notify } = setup();
    const { player, paymentId, remoteId } = await pendingTopUp(deps, fake, 250);
    fake.pay(remoteId);

    const response = await notify(fake.notification(remoteId));

    expect(response.status).toBe(200);
    expect(await balanceOf(player.id)).toBe(25000);
    const rows = await ledgerRows(player.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 25000, kind: "deposit", paymentId, providerPaymentId: remoteId });
    const row = await paymentRow(deps, paymentId);
    expect(row.status).toBe("completed");
    expect(row.completedAt).toBeTypeOf("number");
  });

  it("payment.canceled keeps the payment as cancelled and credits nothing", async () => {
    const { fake, deps, notify } = setup();
    const { player, paymentId, remoteId } = await pendingTopUp(deps, fake);
    fake.cancel(remoteId);

    const response = await notify(fake.notification(remoteId));

    expect(response.status).toBe(200);
    expect((await paymentRow(deps, paymentId)).status).toBe("cancelled");
    expect(await balanceOf(player.id)).toBe(0);
    expect(await ledgerRows(player.id)).toEqual([]);
  });

  it("100 duplicated and reordered notifications credit exactly once", async () => {
    const { fake, deps, notify } = setup();
    const { player, paymentId, remoteId } = await pendingTopUp(deps, fake, 100);
    // Some arrive while the payment is still pending, in any order, with any event name.
    const early = await Promise.all(
      ["payment.succeeded", "payment.canceled", "payment.waiting_for_capture"].map((event) =>
        notify(fake.notification(remoteId, event)),
      ),
    );
    expect(early.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await balanceOf(player.id)).toBe(0);

    fake.pay(remoteId);
    const events = ["payment.succeeded", "payment.canceled", "payment.waiting_for_capture", "payment.succeeded"];
    const bodies = Array.from({ length: 100 }, (_, i) => fake.notification(remoteId, events[i % events.length]));
    bodies.sort(() => Math.random() - 0.5);
    const responses = await Promise.all(bodies.map((body) => notify(body)));

    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(await balanceOf(player.id)).toBe(10000);
    expect(await ledgerRows(player.id)).toHaveLength(1);
    expect((await paymentRow(deps, paymentId)).status).toBe("completed");
  });

  it("a forged notification credits nothing when the API says the payment is still pending", async () => {
    const { fake, deps, notify } = setup();
    const { player, paymentId, remote } = await pendingTopUp(deps, fake);
    const forged = JSON.stringify({
      type: "notification",
      event: "payment.succeeded",
      object: { ...remote, status: "succeeded", paid: true },
    });

    const response = await notify(forged);

    expect(response.status).toBe(200);
    expect((await paymentRow(deps, paymentId)).status).toBe("pending");
    expect(await balanceOf(player.id)).toBe(0);
  });

  it("a forged notification credits nothing when the API doesn't know the payment", async () => {
    const { fake, deps, notify } = setup();
    const { player, paymentId } = await pendingTopUp(deps, fake);
    const forged = JSON.stringify({
      type: "notification",
      event: "payment.succeeded",
      object: {
        id: "2f0a1b2c-000f-5000-8000-0123456789ab",
        status: "succeeded",
        paid: true,
        amount: { value: "250.00", currency: "RUB" },
        metadata: { payment_id: paymentId },
      },
    });

    const response = await notify(forged);

    expect(response.status).toBe(200);
    expect((await paymentRow(deps, paymentId)).status).toBe("pending");
    expect(await balanceOf(player.id)).toBe(0);
  });

  it("a paid YooKassa payment naming another player's payment moves no money", async () => {
    const { fake, deps, notify } = setup();
    const victim = await pendingTopUp(deps, fake, 300);
    const attacker = await createPayer(deps);
    // A real, paid payment whose metadata points at the victim's payment row.
    const foreign = fake.add({
      status: "succeeded",
      paid: true,
      amount: { value: "300.00", currency: "RUB" },
      metadata: { payment_id: victim.paymentId },
    });

    const response = await notify(fake.notification(foreign.id));

    expect(response.status).toBe(200);
    expect((await paymentRow(deps, victim.paymentId)).status).toBe("pending");
    expect(await balanceOf(victim.player.id)).toBe(0);
    expect(await balanceOf(attacker.id)).toBe(0);
    expect(await deps.db.orm.select().from(ledger).where(eq(ledger.providerPaymentId, foreign.id))).toEqual([]);
  });

  it("a payment the API reports with another amount is refused and logged; the body's amount is never believed", async () => {
    const { fake, deps, notify } = setup();
    const tampered = await pendingTopUp(deps, fake, 10);
    fake.pay(tampered.remoteId).amount.value = "10000.00";

    expect((await notify(fake.notification(tampered.remoteId))).status).toBe(200);
    expect((await paymentRow(deps, tampered.paymentId)).status).toBe("pending");
    expect(await balanceOf(tampered.player.id)).toBe(0);

    // The other way round: the API says 10 ₽, the notification body claims 10 000 ₽.
    const honest = await pendingTopUp(deps, fake, 10);
    fake.pay(honest.remoteId);
    const inflated = JSON.stringify({
      type: "notification",
      event: "payment.succeeded",
      object: { ...fake.get(honest.remoteId), amount: { value: "10000.00", currency: "RUB" } },
    });
    expect((await notify(inflated)).status).toBe(200);
    expect(await balanceOf(honest.player.id)).toBe(1000);
  });

  it("from outside YooKassa's published addresses is refused when trusted addresses are configured", async () => {
    const { fake, deps, notify, request } = setup(YOOKASSA_ADDRESSES);
    const { player, remoteId } = await pendingTopUp(deps, fake);
    fake.pay(remoteId);

    expect((await notify(fake.notification(remoteId), "203.0.113.7")).status).toBe(403);
    const noAddress = await request("/api/payment/webhook/yookassa", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: fake.notification(remoteId),
    });
    expect(noAddress.status).toBe(403);
    expect(await balanceOf(player.id)).toBe(0);

    expect((await notify(fake.notification(remoteId), "77.75.154.200")).status).toBe(200);
    expect(await balanceOf(player.id)).toBe(25000);
  });

  it("when the API can't be asked, answers 503 so YooKassa repeats, and the repeat credits", async () => {
    const { fake, deps, notify } = setup();
    const { player, remoteId } = await pendingTopUp(deps, fake);
    fake.pay(remoteId);
    fake.down = true;

    expect((await notify(fake.notification(remoteId))).status).toBe(503);
    expect(await balanceOf(player.id)).toBe(0);

    fake.down = false;
    expect((await notify(fake.notification(remoteId))).status).toBe(200);
    expect(await balanceOf(player.id)).toBe(25000);
  });

  it("rejects malformed notifications and the stand-in's webhook when YooKassa is configured", async () => {
    const { fake, deps, notify, request } = setup();
    const { remoteId } = await pendingTopUp(deps, fake);
    expect((await notify("not json")).status).toBe(400);
    expect((await notify(JSON.stringify({ type: "notification", event: "payment.succeeded" }))).status).toBe(400);
    const standin = await request("/api/payment/webhook/standin", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: fake.notification(remoteId),
    });
    expect(standin.status).toBe(404);
  });
});

describe("a shop without YooKassa credentials", () => {
  it("answers a notification 503 in Russian, never a 500, so YooKassa repeats it later", async () => {
    const fake = new FakeYooKassa();
    const workerEnv = { ...env, ...fake.env(""), YOOKASSA_SHOP_ID: "", YOOKASSA_SECRET_KEY: "" } as Env;
    const app = createWorkerApp({
      pageHandler: async () => new Response("no pages here", { status: 501 }),
      overrides: () => ({ fetch: fake.fetch }),
    });
    const response = await app.request(
      "http://localhost:5173/api/payment/webhook/yookassa",
      {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": "185.71.76.10" },
        body: JSON.stringify({
          type: "notification",
          event: "payment.succeeded",
          object: { id: "2f0e1a2b-000f-5000-8000-000000000001", status: "succeeded" },
        }),
      },
      workerEnv,
      createExecutionContext(),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: "Платёжная система недоступна" });
  });
});

describe("the return URL", () => {
  it("asks YooKassa about a still-pending payment and sends the player to the profile with success", async () => {
    const { fake, deps, request } = setup();
    const { player, paymentId, remoteId } = await pendingTopUp(deps, fake, 75);
    fake.pay(remoteId); // paid, but the notification hasn't arrived yet

    const response = await request(`/api/payment/return/${paymentId}`);

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/profile?payment=success");
    expect(await balanceOf(player.id)).toBe(7500);
    const again = await request(`/api/payment/return/${paymentId}`);
    expect(again.headers.get("location")).toBe("/profile?payment=success");
    expect(await ledgerRows(player.id)).toHaveLength(1);
  });

  it("sends the player to the profile with failed when the payment was canceled, is still pending or is unknown", async () => {
    const { fake, deps, request } = setup();
    const canceled = await pendingTopUp(deps, fake);
    fake.cancel(canceled.remoteId);
    const pending = await pendingTopUp(deps, fake);

    for (const path of [
      `/api/payment/return/${canceled.paymentId}`,
      `/api/payment/return/${pending.paymentId}`,
      `/api/payment/return/${crypto.randomUUID()}`,
      "/api/payment/return/not-a-uuid",
    ]) {
      const response = await request(path);
      expect(response.status, path).toBe(303);
      expect(response.headers.get("location"), path).toBe("/profile?payment=failed");
    }
    expect((await paymentRow(deps, canceled.paymentId)).status).toBe("cancelled");
    expect(await balanceOf(canceled.player.id)).toBe(0);
  });
});

describe("the crediting batch itself", () => {
  it("moves money only from pending, for the created amount and provider id, and only once, whatever was read before", async () => {
    const { fake, deps } = setup();
    const { player, paymentId, remoteId } = await pendingTopUp(deps, fake, 40);
    const credit = (changes: Partial<Parameters<typeof creditPayment>[1]> = {}) =>
      creditPayment(deps, { paymentId, provider: "yookassa", providerPaymentId: remoteId, amount: 4000, ...changes });

    expect(await credit({ amount: 400000 })).toBe("already_settled");
    expect(await credit({ provider: "standin" })).toBe("already_settled");
    expect(await credit({ providerPaymentId: "someone-elses-provider-id" })).toBe("already_settled");
    expect(await balanceOf(player.id)).toBe(0);
    expect(await ledgerRows(player.id)).toEqual([]);

    const results = await Promise.all(Array.from({ length: 20 }, () => credit()));
    expect(results.filter((result) => result === "credited")).toHaveLength(1);
    expect(await balanceOf(player.id)).toBe(4000);
    expect(await ledgerRows(player.id)).toHaveLength(1);

    const cancelled = await pendingTopUp(deps, fake, 40);
    await deps.db.orm.update(payments).set({ status: "cancelled" }).where(eq(payments.id, cancelled.paymentId));
    expect(
      await creditPayment(deps, {
        paymentId: cancelled.paymentId,
        provider: "yookassa",
        providerPaymentId: cancelled.remoteId,
        amount: 4000,
      }),
    ).toBe("already_settled");
    expect(await balanceOf(cancelled.player.id)).toBe(0);
  });
});
