// The local payment stand-in end to end, through the real Worker (SELF): our API
// creates the payment at the stand-in (which speaks YooKassa's API), the
// checkout page's buttons send the notification YooKassa would, our webhook
// re-reads the payment from the stand-in's API and credits once. Also the
// /balance page's action (the no-JavaScript path) and the API's error texts.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { action, loader } from "#app/routes/balance.tsx";
import { ledger, payments } from "#db/schema.ts";
import type { Deps } from "#worker/deps.ts";
import { testDeps } from "./support/deps.ts";
import { balanceOf, expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { bearer, sessionCookie } from "./support/sign-in.ts";

const ORIGIN = "http://localhost:5173";
const UNAUTHORIZED = "Необходимо авторизоваться для создания платежа";
const touchedUsers: number[] = [];

/** A signed-in player whose balance = sum(ledger) is checked after each test. */
async function createPayer(deps: Deps) {
  const player = await createPlayer({ deps });
  touchedUsers.push(player.id);
  return player;
}

function createViaApi(token: string | null, body: unknown) {
  return SELF.fetch(`${ORIGIN}/api/payment/create`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? bearer(token) : {}) },
    body: JSON.stringify(body),
  });
}

function press(checkoutUrl: string, button: "pay" | "cancel" | "refund") {
  return SELF.fetch(checkoutUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: button }).toString(),
    redirect: "manual",
  });
}

afterEach(async () => {
  await expectBalancesMatchLedger(touchedUsers);
});

describe("top-up through the local payment stand-in", () => {
  it("Оплатить sends the notification, the balance grows once, and the return URL says success", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);

    const created = await createViaApi(player.token, { amount: 150, email: "player@example.com" });
    expect(created.status).toBe(200);
    const { payment_url: checkoutUrl, payment_id: paymentId } = (await created.json()) as {
      payment_url: string;
      payment_id: string;
    };
    expect(checkoutUrl).toMatch(new RegExp(`^${ORIGIN}/__standins/payments/checkout/[0-9a-f-]+$`));

    const page = await SELF.fetch(checkoutUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Оплатить");
    expect(html).toContain("Отменить");
    expect(html).toContain("150,00 ₽");

    const paid = await press(checkoutUrl, "pay");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`${ORIGIN}/api/payment/return/${paymentId}`);
    expect(await balanceOf(player.id)).toBe(15000);

    // Pressing again (a double click, a reload) changes nothing.
    await press(checkoutUrl, "pay");
    await press(checkoutUrl, "cancel");
    expect(await balanceOf(player.id)).toBe(15000);
    expect(await deps.db.orm.select().from(ledger).where(eq(ledger.paymentId, paymentId))).toHaveLength(1);

    const back = await SELF.fetch(`${ORIGIN}/api/payment/return/${paymentId}`, { redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/profile?payment=success");
  });

  it("Вернуть платёж on a paid checkout sends refund.succeeded, and the balance gives the deposit back once", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const created = await createViaApi(player.token, { amount: 75, email: "player@example.com" });
    const { payment_url: checkoutUrl } = (await created.json()) as { payment_url: string };
    expect(await (await SELF.fetch(checkoutUrl)).text()).not.toContain("Вернуть платёж");
    await press(checkoutUrl, "pay");
    expect(await balanceOf(player.id)).toBe(7500);
    expect(await (await SELF.fetch(checkoutUrl)).text()).toContain("Вернуть платёж");

    const refunded = await press(checkoutUrl, "refund");
    expect(refunded.status).toBe(303);
    expect(refunded.headers.get("location")).toBe(checkoutUrl);
    await press(checkoutUrl, "refund");
    expect(await balanceOf(player.id)).toBe(0);
    const rows = await deps.db.orm.select().from(ledger).where(eq(ledger.userId, player.id));
    expect(rows.map((row) => `${row.kind} ${row.amount}`).sort()).toEqual(["deposit 7500", "refund -7500"]);
    const history = await SELF.fetch(`${ORIGIN}/api/payment/history`, { headers: bearer(player.token) });
    expect(((await history.json()) as { status: string }[]).map((row) => row.status).sort()).toEqual([
      "completed",
      "refunded",
    ]);
  });

  it("Отменить keeps the payment as cancelled, credits nothing, and the return URL says failed", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const created = await createViaApi(player.token, { amount: 10, email: "player@example.com" });
    const { payment_url: checkoutUrl, payment_id: paymentId } = (await created.json()) as {
      payment_url: string;
      payment_id: string;
    };

    expect((await press(checkoutUrl, "cancel")).status).toBe(303);
    await press(checkoutUrl, "pay");

    const [row] = await deps.db.orm.select().from(payments).where(eq(payments.id, paymentId));
    expect(row?.status).toBe("cancelled");
    expect(await balanceOf(player.id)).toBe(0);
    const back = await SELF.fetch(`${ORIGIN}/api/payment/return/${paymentId}`, { redirect: "manual" });
    expect(back.headers.get("location")).toBe("/profile?payment=failed");
  });

  it("a notification posted by anyone else is checked against the stand-in's API and credits nothing", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const created = await createViaApi(player.token, { amount: 500, email: "player@example.com" });
    const { payment_id: paymentId } = (await created.json()) as { payment_id: string };
    const [row] = await deps.db.orm.select().from(payments).where(eq(payments.id, paymentId));

    const forged = await SELF.fetch(`${ORIGIN}/api/payment/webhook/standin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        type: "notification",
        event: "payment.succeeded",
        object: {
          id: row?.providerPaymentId,
          status: "succeeded",
          paid: true,
          amount: { value: "500.00", currency: "RUB" },
          metadata: { payment_id: paymentId },
        },
      }),
    });

    expect(forged.status).toBe(200);
    expect(await balanceOf(player.id)).toBe(0);
  });

  it("the stand-in API wants the stand-in's credentials, like YooKassa wants the shop's", async () => {
    const response = await SELF.fetch(`${ORIGIN}/__standins/payments/v3/payments/anything`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: "error", code: "invalid_credentials" });
  });
});

describe("POST /api/payment/create", () => {
  it("answers 401 with the spec's text without a session or with a forged token", async () => {
    for (const token of [null, "not-a-token"]) {
      const response = await createViaApi(token, { amount: 100, email: "player@example.com" });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: UNAUTHORIZED });
    }
  });

  it("validates the amount and the e-mail with the spec's texts and records nothing", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const cases: Array<[unknown, string]> = [
      [{ amount: 9.99, email: "a@b.ru" }, "Минимальная сумма пополнения - 10 ₽"],
      [{ amount: "сто", email: "a@b.ru" }, "Минимальная сумма пополнения - 10 ₽"],
      [{ email: "a@b.ru" }, "Минимальная сумма пополнения - 10 ₽"],
      [{ amount: 100, email: "" }, "Пожалуйста, введите корректный e-mail"],
      [{ amount: 100, email: "player.example.com" }, "Пожалуйста, введите корректный e-mail"],
      [{ amount: 100 }, "Пожалуйста, введите корректный e-mail"],
      // What would reach the provider's receipt as another line, a NUL or reversed text.
      ...[
        "player@example.com\r\nBcc: other@example.com",
        "player@exam\nple.com",
        "player\u0000@example.com",
        "player@example.com\u0085x",
        "\u202Emoc.elpmaxe@reyalp",
        "player@\u202Aexample\u202C.com",
        "player@example.com\u2066x\u2069",
        "player\u200E@example.com",
        "player\u200F@example.com",
        "player\u2028@example.com",
        // Invisible format characters (issue 36): a zero-width space, a word joiner, a soft hyphen, a BOM.
        "play\u200Ber@example.com",
        "player@exa\u2060mple.com",
        "pla\u00ADyer@example.com",
        "player@\uFEFFexample.com",
      ].map((email): [unknown, string] => [{ amount: 100, email }, "Пожалуйста, введите корректный e-mail"]),
    ];
    for (const [body, message] of cases) {
      const response = await createViaApi(player.token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error: message });
    }
    expect(await deps.db.orm.select().from(payments).where(eq(payments.userId, player.id))).toEqual([]);
  });
});

describe("POST /api/payment/create, many times", () => {
  it("refuses an eleventh payment within ten minutes with the spec's try-later text", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    for (let i = 0; i < 10; i++) {
      expect((await createViaApi(player.token, { amount: 10, email: "a@b.ru" })).status).toBe(200);
    }
    const refused = await createViaApi(player.token, { amount: 10, email: "a@b.ru" });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Произошла ошибка при создании платежа. Попробуйте позже." });
    expect(await deps.db.orm.select().from(payments).where(eq(payments.userId, player.id))).toHaveLength(10);
  });
});

describe("the /balance page", () => {
  const pageRequest = (init: { token?: string; form?: Record<string, string> } = {}) =>
    new Request(`${ORIGIN}/balance`, {
      method: init.form ? "POST" : "GET",
      headers: {
        ...(init.token ? sessionCookie(init.token) : {}),
        ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
  const args = (request: Request, deps: Deps) => routeArgs<Parameters<typeof action>[0]>(deps, request);

  it("shows a signed-out visitor the page with the form disabled", async () => {
    const deps = testDeps();
    const result = await loader(args(pageRequest(), deps) as unknown as Parameters<typeof loader>[0]);
    expect(result).toEqual({
      signedIn: false,
      balance: null,
      defaultEmail: "",
      amount: null,
      returnTo: null,
      signInHref: "/api/auth/steam?return_to=%2Fbalance",
    });
  });

  it("without JavaScript, the action creates the payment and sends the browser to the payment page", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const response = await action(
      args(pageRequest({ token: player.token, form: { amount: "125,50", email: "nojs@example.com" } }), deps),
    );
    expect(response).toBeInstanceOf(Response);
    const location = (response as Response).headers.get("location") ?? "";
    expect((response as Response).status).toBe(303);
    expect(location).toMatch(new RegExp(`^${ORIGIN}/__standins/payments/checkout/`));
    const [row] = await deps.db.orm.select().from(payments).where(eq(payments.userId, player.id));
    expect(row).toMatchObject({ amount: 12550, email: "nojs@example.com", status: "pending" });

    const after = await loader(
      args(pageRequest({ token: player.token }), deps) as unknown as Parameters<typeof loader>[0],
    );
    expect(after).toMatchObject({ signedIn: true, balance: 0, defaultEmail: "nojs@example.com" });
  });

  it("answers the spec's texts for a bad amount, a bad e-mail and a missing session", async () => {
    const deps = testDeps();
    const player = await createPayer(deps);
    const invalid = (await action(
      args(pageRequest({ token: player.token, form: { amount: "5", email: "без-собаки" } }), deps),
    )) as unknown as { data: unknown; init: ResponseInit };
    expect(invalid.init.status).toBe(400);
    expect(invalid.data).toEqual({
      values: { amount: "5", email: "без-собаки" },
      fieldErrors: {
        amount: "Минимальная сумма пополнения - 10 ₽",
        email: "Пожалуйста, введите корректный e-mail",
      },
    });
    for (const email of ["a@b.ru\r\nBcc: c@d.ru", "a\u0000@b.ru", "a@\u202Eur.b"]) {
      const unsafe = (await action(
        args(pageRequest({ token: player.token, form: { amount: "100", email } }), deps),
      )) as unknown as { data: { fieldErrors: unknown }; init: ResponseInit };
      expect(unsafe.init.status, JSON.stringify(email)).toBe(400);
      expect(unsafe.data.fieldErrors).toEqual({ email: "Пожалуйста, введите корректный e-mail" });
    }

    const signedOut = (await action(
      args(pageRequest({ form: { amount: "100", email: "a@b.ru" } }), deps),
    )) as unknown as { data: unknown; init: ResponseInit };
    expect(signedOut.init.status).toBe(401);
    expect(signedOut.data).toEqual({ values: { amount: "100", email: "a@b.ru" }, formError: UNAUTHORIZED });
    expect(await deps.db.orm.select().from(payments).where(eq(payments.userId, player.id))).toEqual([]);
  });
});
