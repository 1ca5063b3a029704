// A network-boundary fake of the YooKassa API v3 (POST /payments, GET /payments with created_at.gte and
// status filters and cursor paging, GET /payments/{id}, GET /refunds/{id}),
// answering in YooKassa's JSON with Basic auth and Idempotence-Key semantics. Pass
// `fake.fetch` as the Worker's outbound fetch and point YOOKASSA_API_BASE at `fake.base`.
// Tests move payments (pay, cancel), script failures, and read the requests it saw.

export const YOOKASSA_BASE = "https://api.yookassa.ru/v3";

export interface FakePayment {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  paid: boolean;
  amount: { value: string; currency: string };
  confirmation?: { type: "redirect"; return_url: string; confirmation_url: string };
  description?: string;
  metadata: Record<string, string>;
  created_at: string;
  test: boolean;
  refundable: boolean;
  recipient: { account_id: string; gateway_id: string };
}

export interface FakeRefund {
  id: string;
  payment_id: string;
  status: "pending" | "succeeded" | "canceled";
  amount: { value: string; currency: string };
  created_at: string;
  description?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  idempotenceKey: string | null;
  authorization: string | null;
  body: unknown;
}

/** What the next request gets instead of a normal answer. */
export type Failure = { status: number } | "network-error";

export class FakeYooKassa {
  readonly base = YOOKASSA_BASE;
  readonly requests: SeenRequest[] = [];
  readonly payments = new Map<string, FakePayment>();
  readonly refunds = new Map<string, FakeRefund>();
  private readonly byIdempotenceKey = new Map<string, string>();
  private readonly failures: Failure[] = [];
  /** Every request fails with a network error while set. */
  down = false;

  readonly shopId: string;
  readonly secretKey: string;

  constructor(shopId = "123456", secretKey = "test_SecretKeyOfTheFakeShop") {
    this.shopId = shopId;
    this.secretKey = secretKey;
  }

  /** The env a Worker needs to talk to this fake. */
  env(trustedIps = ""): Record<string, string> {
    return {
      PAYMENT_PROVIDER: "yookassa",
      YOOKASSA_API_BASE: this.base,
      YOOKASSA_SHOP_ID: this.shopId,
      YOOKASSA_SECRET_KEY: this.secretKey,
      YOOKASSA_TRUSTED_IPS: trustedIps,
    };
  }

  /** The next requests answer these failures, in order, before answering normally again. */
  failNext(...failures: Failure[]): this {
    this.failures.push(...failures);
    return this;
  }

  /** Adds a payment the fake knows about without a create call (as if made elsewhere). */
  add(payment: Partial<FakePayment> & { amount: FakePayment["amount"] }): FakePayment {
    const full: FakePayment = {
      id: newPaymentId(),
      status: "pending",
      paid: false,
      metadata: {},
      created_at: new Date().toISOString(),
      test: true,
      refundable: false,
      recipient: { account_id: "100500", gateway_id: "100700" },
      ...payment,
    };
    this.payments.set(full.id, full);
    return full;
  }

  get(id: string): FakePayment {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`fake YooKassa: no payment ${id}`);
    return payment;
  }

  /** The player paid: status succeeded. */
  pay(id: string): FakePayment {
    const payment = this.get(id);
    Object.assign(payment, { status: "succeeded", paid: true });
    return payment;
  }

  /** The payment was canceled. */
  cancel(id: string): FakePayment {
    const payment = this.get(id);
    Object.assign(payment, { status: "canceled", paid: false });
    return payment;
  }

  /** The shop refunded a succeeded payment (all of it unless `value` says how much): status succeeded. */
  refund(
    paymentId: string,
    value = this.get(paymentId).amount.value,
    status: FakeRefund["status"] = "succeeded",
  ): FakeRefund {
    const payment = this.get(paymentId);
    const refund: FakeRefund = {
      id: newPaymentId().replace("-000f-", "-0015-"),
      payment_id: payment.id,
      status,
      amount: { value, currency: payment.amount.currency },
      created_at: new Date().toISOString(),
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /** The notification YooKassa would POST for this refund. */
  refundNotification(id: string, event = "refund.succeeded"): string {
    const refund = this.refunds.get(id);
    if (!refund) throw new Error(`fake YooKassa: no refund ${id}`);
    return JSON.stringify({ type: "notification", event, object: refund });
  }

  /** The notification YooKassa would POST for this payment's current state. */
  notification(id: string, event = `payment.${this.get(id).status}`): string {
    return JSON.stringify({ type: "notification", event, object: this.get(id) });
  }

  /** The POST /payments requests seen so far. */
  createRequests(): SeenRequest[] {
    return this.requests.filter((request) => request.method === "POST" && request.path === "/payments");
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${this.base}/`)) throw new TypeError(`fake YooKassa: unexpected ${request.url}`);
    const path = request.url.slice(this.base.length);
    const text = request.method === "POST" ? await request.text() : "";
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    this.requests.push({
      method: request.method,
      path,
      idempotenceKey: request.headers.get("idempotence-key"),
      authorization: request.headers.get("authorization"),
      body,
    });

    if (this.down) throw new TypeError("fetch failed: connect ECONNREFUSED");
    const failure = this.failures.shift();
    if (failure === "network-error") throw new TypeError("fetch failed: socket hang up");
    if (failure) return error(failure.status, "internal_server_error", "Internal server error");

    if (request.headers.get("authorization") !== `Basic ${btoa(`${this.shopId}:${this.secretKey}`)}`) {
      return error(401, "invalid_credentials", "Login or password is incorrect");
    }
    if (request.method === "POST" && path === "/payments") return this.create(request, body);
    if (request.method === "GET" && (path === "/payments" || path.startsWith("/payments?"))) return this.list(path);
    const match = /^\/payments\/([^/]+)$/.exec(path);
    if (request.method === "GET" && match?.[1]) {
      const payment = this.payments.get(decodeURIComponent(match[1]));
      return payment ? json(payment) : error(404, "not_found", "Payment not found");
    }
    const refundMatch = /^\/refunds\/([^/]+)$/.exec(path);
    if (request.method === "GET" && refundMatch?.[1]) {
      const refund = this.refunds.get(decodeURIComponent(refundMatch[1]));
      return refund ? json(refund) : error(404, "not_found", "Refund not found");
    }
    return error(404, "not_found", "Not found");
  };

  // Newest first; the cursor is the index of the next payment in that order.
  private list(path: string): Response {
    const query = new URL(path, this.base).searchParams;
    const from = Date.parse(query.get("created_at.gte") ?? "1970-01-01T00:00:00Z");
    const status = query.get("status");
    const limit = Number(query.get("limit") ?? "10");
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return error(400, "invalid_request", "Invalid limit", "limit");
    const matching = [...this.payments.values()]
      .filter((payment) => Date.parse(payment.created_at) >= from && (status === null || payment.status === status))
      .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    const start = Number(query.get("cursor") ?? "0");
    const items = matching.slice(start, start + limit);
    const next = start + limit < matching.length ? { next_cursor: String(start + limit) } : {};
    return json({ type: "list", items, ...next });
  }

  private create(request: Request, body: unknown): Response {
    const key = request.headers.get("idempotence-key");
    if (!key) return error(400, "invalid_request", "Idempotence-Key is required", "Idempotence-Key");
    const known = this.byIdempotenceKey.get(key);
    if (known) return json(this.get(known));
    const create = body as {
      amount?: { value?: string; currency?: string };
      confirmation?: { type?: string; return_url?: string };
      description?: string;
      metadata?: Record<string, string>;
      receipt?: { customer?: { email?: string }; items?: unknown[] };
      capture?: boolean;
    } | null;
    if (!create?.amount?.value || !/^\d+\.\d{2}$/.test(create.amount.value) || create.amount.currency !== "RUB") {
      return error(400, "invalid_request", "Invalid amount", "amount");
    }
    if (create.confirmation?.type !== "redirect" || !create.confirmation.return_url) {
      return error(400, "invalid_request", "Invalid confirmation", "confirmation");
    }
    if (!create.receipt?.customer?.email || !create.receipt.items?.length) {
      return error(400, "invalid_request", "Receipt is missing", "receipt");
    }
    const id = newPaymentId();
    const payment = this.add({
      id,
      amount: { value: create.amount.value, currency: "RUB" },
      description: create.description,
      metadata: create.metadata ?? {},
      confirmation: {
        type: "redirect",
        return_url: create.confirmation.return_url,
        confirmation_url: `https://yoomoney.ru/checkout/payments/v2/contract?orderId=${id}`,
      },
    });
    this.byIdempotenceKey.set(key, id);
    return json(payment);
  }
}

function newPaymentId(): string {
  const hex = crypto.randomUUID().replaceAll("-", "");
  return `${hex.slice(0, 8)}-000f-5000-8000-${hex.slice(8, 20)}`;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function error(status: number, code: string, description: string, parameter?: string): Response {
  return json(
    { type: "error", id: crypto.randomUUID(), code, description, ...(parameter ? { parameter } : {}) },
    status,
  );
}
