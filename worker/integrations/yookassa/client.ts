import { z } from "zod";

// A small client for the YooKassa API v3 (https://yookassa.ru/developers/api):
// create a payment and read one back, list payments by creation time (GET /payments, newest first,
// cursor paging: https://yookassa.ru/developers/using-api/lists), and read a refund (GET /refunds/{id}). HTTP Basic auth with shopId:secretKey,
// JSON bodies, amounts as strings with two decimals.

export const YOOKASSA_STATUSES = ["pending", "waiting_for_capture", "succeeded", "canceled"] as const;

const amountSchema = z.object({ value: z.string(), currency: z.string() });

/** The part of YooKassa's payment object we read. Unknown fields are ignored. */
export const yooKassaPaymentSchema = z.object({
  id: z.string().min(1),
  status: z.enum(YOOKASSA_STATUSES),
  paid: z.boolean().optional(),
  amount: amountSchema,
  description: z.string().optional(),
  confirmation: z
    .object({ type: z.string(), confirmation_url: z.string().optional(), return_url: z.string().optional() })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string().optional(),
  refunded_amount: amountSchema.optional(),
  test: z.boolean().optional(),
});

export type YooKassaPayment = z.infer<typeof yooKassaPaymentSchema>;

/** A page of GET /payments: `next_cursor` is there while more remain. */
export const yooKassaPaymentListSchema = z.object({
  type: z.literal("list"),
  items: z.array(yooKassaPaymentSchema),
  next_cursor: z.string().min(1).optional(),
});

export type YooKassaPaymentList = z.infer<typeof yooKassaPaymentListSchema>;

/** GET /payments filters we use: payments created at or after `createdAtGte`, in one status. */
export interface YooKassaPaymentListQuery {
  createdAtGte: Date;
  /** Inclusive upper bound of the creation time. */
  createdAtLte?: Date;
  status?: (typeof YOOKASSA_STATUSES)[number];
  /** 1…100. */
  limit: number;
  cursor?: string;
}

export const YOOKASSA_REFUND_STATUSES = ["pending", "succeeded", "canceled"] as const;

/** The part of YooKassa's refund object we read (GET /v3/refunds/{refund_id}). */
export const yooKassaRefundSchema = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  status: z.enum(YOOKASSA_REFUND_STATUSES),
  amount: amountSchema,
  created_at: z.string().optional(),
  description: z.string().optional(),
});

export type YooKassaRefund = z.infer<typeof yooKassaRefundSchema>;

export interface YooKassaCreatePaymentRequest {
  amount: { value: string; currency: "RUB" };
  capture: true;
  confirmation: { type: "redirect"; return_url: string };
  description: string;
  metadata: Record<string, string>;
  receipt: {
    customer: { email: string };
    items: Array<{
      description: string;
      quantity: string;
      amount: { value: string; currency: "RUB" };
      vat_code: number;
      payment_mode: "full_prepayment";
      payment_subject: "service";
    }>;
  };
}

/** The provider could not be reached, answered 5xx/429 every time, or answered something we can't read. */
export class YooKassaUnavailableError extends Error {}
/** The provider refused the request (4xx other than 404/429). */
export class YooKassaRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`YooKassa answered ${status}: ${body.slice(0, 500)}`);
  }
}

export interface YooKassaClientOptions {
  apiBase: string;
  shopId: string;
  secretKey: string;
  fetch: typeof fetch;
  /** Attempts for a request whose result is unknown (network error, 5xx, 429). */
  attempts?: number;
  /** Waits between attempts; tests pass a no-op. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Kopecks → "123.45". */
export function kopecksToYooKassaValue(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks) || kopecks < 0) throw new RangeError(`Bad amount: ${kopecks}`);
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, "0")}`;
}

/** "123.45" (or "123", "123.4") → kopecks; null when the string is not an amount. */
export function yooKassaValueToKopecks(value: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match?.[1]) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function createYooKassaClient(options: YooKassaClientOptions) {
  const attempts = options.attempts ?? 3;
  const sleep = options.sleep ?? defaultSleep;
  const authorization = `Basic ${btoa(`${options.shopId}:${options.secretKey}`)}`;

  // One request, repeated while its result is unknown. A repeated POST carries the
  // same Idempotence-Key, so YooKassa answers with the payment the first one made.
  async function send(path: string, init: { method: "GET" | "POST"; body?: string; idempotenceKey?: string }) {
    let lastProblem = "no attempt made";
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(200 * 2 ** (attempt - 2));
      const headers: Record<string, string> = { authorization, accept: "application/json" };
      if (init.body !== undefined) headers["content-type"] = "application/json";
      if (init.idempotenceKey) headers["idempotence-key"] = init.idempotenceKey;
      let response: Response;
      try {
        response = await options.fetch(`${options.apiBase}${path}`, {
          method: init.method,
          headers,
          body: init.body,
        });
      } catch (error) {
        lastProblem = `network: ${String(error)}`;
        continue;
      }
      if (response.status >= 500 || response.status === 429 || response.status === 202) {
        lastProblem = `HTTP ${response.status}`;
        await response.body?.cancel();
        continue;
      }
      return response;
    }
    throw new YooKassaUnavailableError(
      `YooKassa ${init.method} ${path} failed after ${attempts} attempts (${lastProblem})`,
    );
  }

  async function readObject<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new YooKassaUnavailableError(`YooKassa answered non-JSON: ${text.slice(0, 200)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new YooKassaUnavailableError(`YooKassa answered an unexpected ${what}: ${text.slice(0, 500)}`);
    return parsed.data;
  }
  const readPayment = (response: Response) => readObject(response, yooKassaPaymentSchema, "payment");

  /** GET of one object; null when YooKassa doesn't know the id (404, or 400 for a malformed one). */
  async function getObject(path: string): Promise<Response | null> {
    const response = await send(path, { method: "GET" });
    if (response.status === 404 || response.status === 400) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw new YooKassaRequestError(response.status, await response.text());
    return response;
  }

  return {
    /** POST /payments. `idempotenceKey` must be the same for every retry of one logical payment. */
    async createPayment(request: YooKassaCreatePaymentRequest, idempotenceKey: string): Promise<YooKassaPayment> {
      const response = await send("/payments", { method: "POST", body: JSON.stringify(request), idempotenceKey });
      if (!response.ok) throw new YooKassaRequestError(response.status, await response.text());
      return readPayment(response);
    },

    /** GET /payments/{id}; null when YooKassa doesn't know the id (404, or 400 for a malformed one). */
    async getPayment(id: string): Promise<YooKassaPayment | null> {
      const response = await getObject(`/payments/${encodeURIComponent(id)}`);
      return response ? readPayment(response) : null;
    },

    /** GET /payments: one page of the shop's payments, newest first. */
    async listPayments(query: YooKassaPaymentListQuery): Promise<YooKassaPaymentList> {
      const params = new URLSearchParams({
        "created_at.gte": query.createdAtGte.toISOString(),
        limit: String(query.limit),
      });
      if (query.createdAtLte) params.set("created_at.lte", query.createdAtLte.toISOString());
      if (query.status) params.set("status", query.status);
      if (query.cursor) params.set("cursor", query.cursor);
      const response = await send(`/payments?${params}`, { method: "GET" });
      if (!response.ok) throw new YooKassaRequestError(response.status, await response.text());
      return readObject(response, yooKassaPaymentListSchema, "payment list");
    },

    /** GET /refunds/{id}; null when YooKassa doesn't know the id. */
    async getRefund(id: string): Promise<YooKassaRefund | null> {
      const response = await getObject(`/refunds/${encodeURIComponent(id)}`);
      return response ? readObject(response, yooKassaRefundSchema, "refund") : null;
    },
  };
}

export type YooKassaClient = ReturnType<typeof createYooKassaClient>;
