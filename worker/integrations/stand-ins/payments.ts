import { Hono } from "hono";
import { z } from "zod";
import { STANDIN_SECRET_KEY, STANDIN_SHOP_ID } from "../../services/payments/provider.ts";
import type { StandInEnv } from "./env.ts";
import { styleNonceAttribute } from "./style-nonce.ts";

// A local payment provider speaking YooKassa's API v3 (POST /v3/payments, GET /v3/payments with
// created_at filters and cursor paging, GET /v3/payments/{id}, GET /v3/refunds/{id}) plus a checkout page with Оплатить /
// Отменить, and Вернуть платёж once paid (the shop refunding it, as from YooKassa's
// dashboard). A button changes the payment's status (or makes a refund), sends the
// notification YooKassa would send to our webhook, and returns the player to the shop's return_url.
// Its state lives in its own store (StandInEnv.paymentsKv) under standin-payment:<id>, never in our
// payments table nor in the site's database, so our code learns the outcome only the way it would
// from YooKassa, and a restore of the site's database leaves the payments as YooKassa would (decision 135). A form field
// `notification=drop` changes the payment without notifying us (a notification lost on the way).
export const paymentsStandIn = new Hono<{ Bindings: StandInEnv }>();

const paymentKey = (id: string) => `standin-payment:${id}`;
const idempotenceKey = (key: string) => `standin-payment-idempotence:${key}`;
const refundKey = (id: string) => `standin-refund:${id}`;
// The list's index: one key a payment, in creation order (keys list in their order; ISO times sort as times).
const CREATED_PREFIX = "standin-payment-created:";
const createdKey = (payment: { created_at: string; id: string }) =>
  `${CREATED_PREFIX}${payment.created_at}:${payment.id}`;
const TTL_SECONDS = 7 * 24 * 60 * 60;

const createSchema = z.object({
  amount: z.object({ value: z.string().regex(/^\d+\.\d{2}$/), currency: z.literal("RUB") }),
  capture: z.boolean().optional(),
  confirmation: z.object({ type: z.literal("redirect"), return_url: z.string().url() }),
  description: z.string().max(128).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  receipt: z
    .object({
      customer: z.object({ email: z.string().min(3) }),
      items: z.array(z.object({ description: z.string().min(1), amount: z.object({ value: z.string() }) })).min(1),
    })
    .optional(),
});

interface StandInPayment {
  id: string;
  status: "pending" | "succeeded" | "canceled";
  paid: boolean;
  amount: { value: string; currency: string };
  confirmation: { type: "redirect"; return_url: string; confirmation_url: string };
  created_at: string;
  captured_at?: string;
  description?: string;
  metadata: Record<string, string>;
  payment_method?: { type: "bank_card"; id: string; saved: false; title: string };
  cancellation_details?: { party: string; reason: string };
  recipient: { account_id: string; gateway_id: string };
  refundable: boolean;
  refunded_amount?: { value: string; currency: string };
  test: true;
}

interface StandInRefund {
  id: string;
  payment_id: string;
  status: "succeeded";
  amount: { value: string; currency: string };
  created_at: string;
  description: string;
}

function apiError(code: string, description: string, parameter?: string) {
  return { type: "error", id: crypto.randomUUID(), code, description, ...(parameter ? { parameter } : {}) };
}

function origin(env: StandInEnv): string {
  return env.publicUrl.replace(/\/+$/, "");
}

/** YooKassa cancels a payment nobody paid within about an hour (a bank card's time to pay). */
export const STANDIN_PAYMENT_EXPIRES_MS = 60 * 60 * 1000;

async function load(env: StandInEnv, id: string): Promise<StandInPayment | null> {
  const raw = await env.paymentsKv.get(paymentKey(id));
  if (raw === null) return null;
  const payment = JSON.parse(raw) as StandInPayment;
  if (payment.status !== "pending" || Date.now() - Date.parse(payment.created_at) < STANDIN_PAYMENT_EXPIRES_MS) {
    return payment;
  }
  // Expired as YooKassa's would; its notification is not sent (the site's minutely job asks, decision 105).
  const expired: StandInPayment = {
    ...payment,
    status: "canceled",
    cancellation_details: { party: "yoo_money", reason: "expired_on_confirmation" },
  };
  await save(env, expired);
  return expired;
}

async function save(env: StandInEnv, payment: StandInPayment): Promise<void> {
  await env.paymentsKv.put(paymentKey(payment.id), JSON.stringify(payment), { expirationTtlSeconds: TTL_SECONDS });
}

paymentsStandIn.use("/v3/*", async (c, next) => {
  const expected = `Basic ${btoa(`${STANDIN_SHOP_ID}:${STANDIN_SECRET_KEY}`)}`;
  if (c.req.header("authorization") !== expected) {
    return c.json(apiError("invalid_credentials", "Login or password is incorrect"), 401);
  }
  await next();
});

paymentsStandIn.post("/v3/payments", async (c) => {
  const key = c.req.header("idempotence-key");
  if (!key || key.length > 64) {
    return c.json(apiError("invalid_request", "Idempotence key is missing or too long", "Idempotence-Key"), 400);
  }
  const known = await c.env.paymentsKv.get(idempotenceKey(key));
  if (known) {
    const payment = await load(c.env, known);
    if (payment) return c.json(payment);
  }
  const parsed = createSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json(apiError("invalid_request", z.prettifyError(parsed.error)), 400);
  const body = parsed.data;
  const id = `${crypto.randomUUID().slice(0, 8)}-000f-5000-8000-${crypto.randomUUID().slice(-12)}`;
  const payment: StandInPayment = {
    id,
    status: "pending",
    paid: false,
    amount: body.amount,
    confirmation: {
      type: "redirect",
      return_url: body.confirmation.return_url,
      confirmation_url: `${origin(c.env)}/__standins/payments/checkout/${id}`,
    },
    created_at: new Date().toISOString(),
    description: body.description,
    metadata: body.metadata ?? {},
    recipient: { account_id: "100500", gateway_id: "100700" },
    refundable: false,
    test: true,
  };
  await save(c.env, payment);
  await c.env.paymentsKv.put(createdKey(payment), id, { expirationTtlSeconds: TTL_SECONDS });
  await c.env.paymentsKv.put(idempotenceKey(key), id, { expirationTtlSeconds: TTL_SECONDS });
  return c.json(payment);
});

const isoTime = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));
const listSchema = z.object({
  "created_at.gte": isoTime.optional(),
  "created_at.gt": isoTime.optional(),
  "created_at.lte": isoTime.optional(),
  "created_at.lt": isoTime.optional(),
  status: z.enum(["pending", "waiting_for_capture", "succeeded", "canceled"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  cursor: z.string().max(200).optional(),
});

// YooKassa's list of payments: newest first, `limit` a page, `next_cursor` while more remain.
paymentsStandIn.get("/v3/payments", async (c) => {
  const parsed = listSchema.safeParse(c.req.query());
  if (!parsed.success) return c.json(apiError("invalid_request", z.prettifyError(parsed.error)), 400);
  const query = parsed.data;
  let after: string | null = null;
  if (query.cursor) {
    try {
      after = atob(query.cursor);
    } catch {
      return c.json(apiError("invalid_request", "Cursor is invalid", "cursor"), 400);
    }
  }
  const timeOf = (key: string) => Date.parse(key.slice(CREATED_PREFIX.length, key.lastIndexOf(":")));
  const keys = (await c.env.paymentsKv.list(CREATED_PREFIX)).reverse().filter((key) => {
    const at = timeOf(key);
    return (
      (after === null || key < after) &&
      (query["created_at.gte"] === undefined || at >= query["created_at.gte"]) &&
      (query["created_at.gt"] === undefined || at > query["created_at.gt"]) &&
      (query["created_at.lte"] === undefined || at <= query["created_at.lte"]) &&
      (query["created_at.lt"] === undefined || at < query["created_at.lt"])
    );
  });
  const items: StandInPayment[] = [];
  let last: string | null = null;
  for (const key of keys) {
    if (items.length === query.limit) break;
    last = key;
    const payment = await load(c.env, key.slice(key.lastIndexOf(":") + 1));
    if (payment && (query.status === undefined || payment.status === query.status)) items.push(payment);
  }
  const more = last !== null && keys.indexOf(last) < keys.length - 1;
  return c.json({ type: "list", items, ...(more && last ? { next_cursor: btoa(last) } : {}) });
});

paymentsStandIn.get("/v3/refunds/:id", async (c) => {
  const raw = await c.env.paymentsKv.get(refundKey(c.req.param("id")));
  if (raw === null) return c.json(apiError("not_found", "Refund not found", "refund_id"), 404);
  return c.json(JSON.parse(raw) as StandInRefund);
});

paymentsStandIn.get("/v3/payments/:id", async (c) => {
  const payment = await load(c.env, c.req.param("id"));
  if (!payment) return c.json(apiError("not_found", "Payment not found", "payment_id"), 404);
  return c.json(payment);
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function checkoutPage(payment: StandInPayment, styleNonce: string): string {
  const rubles = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 2 }).format(Number(payment.amount.value));
  const statusText = payment.refunded_amount
    ? "Возвращён"
    : { pending: "Ожидает оплаты", succeeded: "Оплачен", canceled: "Отменён" }[payment.status];
  const actions =
    payment.status === "pending"
      ? `<form method="post">
      <button type="submit" name="action" value="pay" class="pay">Оплатить</button>
      <button type="submit" name="action" value="cancel">Отменить</button>
    </form>`
      : `${
          payment.status === "succeeded" && payment.refundable
            ? `<form method="post"><button type="submit" name="action" value="refund">Вернуть платёж</button></form>`
            : ""
        }<p><a href="${escapeHtml(payment.confirmation.return_url)}">Вернуться в магазин</a></p>`;
  return `<!doctype html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Оплата банковской картой — локальный стенд</title>
  <style${styleNonce}>
    body { font-family: system-ui, sans-serif; background: #f2f3f5; margin: 0; padding: 2rem 1rem; }
    main { max-width: 26rem; margin: 0 auto; background: #fff; border-radius: 12px; padding: 1.5rem; }
    .note { color: #7a5b00; background: #fff5d6; padding: .5rem .75rem; border-radius: 8px; font-size: .9rem; }
    .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
    form { display: flex; gap: .75rem; margin-top: 1.5rem; }
    button { flex: 1; font-size: 1rem; padding: .75rem; border-radius: 8px; border: 1px solid #ccc; background: #fff; cursor: pointer; }
    button.pay { background: #1a73e8; color: #fff; border-color: #1a73e8; }
  </style>
</head>
<body>
  <main>
    <p class="note">Локальная замена платёжной системы: деньги не списываются.</p>
    <h1>Оплата банковской картой</h1>
    <p>${escapeHtml(payment.description ?? "")}</p>
    <p class="amount">${rubles} ₽</p>
    <p>Статус: <span data-status="${payment.status}">${statusText}</span></p>
    ${actions}
  </main>
</body>
</html>`;
}

paymentsStandIn.get("/checkout/:id", async (c) => {
  const payment = await load(c.env, c.req.param("id"));
  if (!payment) return c.html("<!doctype html><p>Платёж не найден</p>", 404);
  return c.html(checkoutPage(payment, styleNonceAttribute(c.env)));
});

// The notification enters the site at the same route and middleware YooKassa's POST would, through
// the function the site's wiring gave us (a Worker can't reliably call its own origin over the network).
async function deliverNotification(
  env: StandInEnv,
  event: string,
  object: StandInPayment | StandInRefund,
): Promise<void> {
  const response = await env.notify(
    new Request(`${origin(env)}/api/payment/webhook/standin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "notification", event, object }),
    }),
  );
  if (response.status !== 200) {
    // YooKassa would retry for 24 hours; the return URL asks the API again anyway.
    console.warn(JSON.stringify({ event: "standin.notification_refused", status: response.status, id: object.id }));
  }
}

paymentsStandIn.post("/checkout/:id", async (c) => {
  const payment = await load(c.env, c.req.param("id"));
  if (!payment) return c.html("<!doctype html><p>Платёж не найден</p>", 404);
  const form = await c.req.parseBody();
  const action = form.action;
  if (payment.status === "pending" && (action === "pay" || action === "cancel")) {
    const now = new Date().toISOString();
    const settled: StandInPayment =
      action === "pay"
        ? {
            ...payment,
            status: "succeeded",
            paid: true,
            captured_at: now,
            payment_method: { type: "bank_card", id: payment.id, saved: false, title: "Bank card *4444" },
            refundable: true,
          }
        : {
            ...payment,
            status: "canceled",
            cancellation_details: { party: "yoo_money", reason: "expired_on_confirmation" },
          };
    await save(c.env, settled);
    // `notification=drop` (tests, or by hand with the browser's tools): the payment changes but its
    // notification is lost, as after a crash on our side; only asking the API finds out.
    if (form.notification !== "drop") await deliverNotification(c.env, `payment.${settled.status}`, settled);
  }
  if (payment.status === "succeeded" && payment.refundable && action === "refund") {
    // The whole payment, once: YooKassa would refuse a refund beyond what is left of it.
    const refund: StandInRefund = {
      id: `${crypto.randomUUID().slice(0, 8)}-0015-5000-9000-${crypto.randomUUID().slice(-12)}`,
      payment_id: payment.id,
      status: "succeeded",
      amount: payment.amount,
      created_at: new Date().toISOString(),
      description: "Возврат платежа (локальный стенд)",
    };
    await c.env.paymentsKv.put(refundKey(refund.id), JSON.stringify(refund), { expirationTtlSeconds: TTL_SECONDS });
    await save(c.env, { ...payment, refundable: false, refunded_amount: payment.amount });
    await deliverNotification(c.env, "refund.succeeded", refund);
    return c.redirect(payment.confirmation.confirmation_url, 303);
  }
  return c.redirect(payment.confirmation.return_url, 303);
});
