import type { Config } from "../../config.ts";
import { STANDIN_PREFIX } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { addressInRanges } from "../../integrations/yookassa/addresses.ts";
import {
  createYooKassaClient,
  kopecksToYooKassaValue,
  type YooKassaPayment,
  type YooKassaRefund,
  YooKassaRequestError,
  YooKassaUnavailableError,
  yooKassaValueToKopecks,
} from "../../integrations/yookassa/client.ts";

export type ProviderName = Config["paymentProvider"];

/** A payment as the provider's API reports it, in our units. */
export interface ProviderPayment {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  /** Kopecks, or null when the provider's amount couldn't be read. */
  amount: number | null;
  currency: string;
  /** Our payment id, as we put it in the provider's metadata. */
  ourPaymentId: string | null;
  /** The player's SteamID64, as we put it in the metadata (payments made before decision 135 lack it). */
  steamId: string | null;
  /** The host of the site that made it (metadata `site`): one shop may serve several sites. */
  site: string | null;
  /** When the provider made it (ms), if it said. */
  createdAt: number | null;
  /** Whether any of it was refunded at the provider. */
  refunded: boolean;
  confirmationUrl: string | null;
}

/** A page of the provider's payments, newest first; `nextCursor` while more remain. */
export interface ProviderPaymentPage {
  items: ProviderPayment[];
  nextCursor: string | null;
}

export interface ProviderPaymentQuery {
  /** Created at or after (ms). */
  createdFrom: number;
  /** Created at or before (ms). */
  createdUntil?: number;
  status?: ProviderPayment["status"];
  /** 1…100. */
  limit: number;
  cursor?: string;
}

/** A refund as the provider's API reports it, in our units. */
export interface ProviderRefund {
  id: string;
  /** The provider's id of the refunded payment. */
  providerPaymentId: string;
  status: "pending" | "succeeded" | "canceled";
  /** Kopecks, or null when the provider's amount couldn't be read. */
  amount: number | null;
  currency: string;
}

export interface CreateProviderPayment {
  /** Our payment id: the idempotence key and the metadata. */
  paymentId: string;
  /** The player's SteamID64, in the metadata: a restore that lost the player still knows whom it pays (decision 135). */
  steamId: string;
  /** This site's host, in the metadata: a payment is put back only by the site that made it. */
  site: string;
  /** Kopecks. */
  amount: number;
  email: string;
  description: string;
  returnUrl: string;
}

export interface PaymentProvider {
  name: ProviderName;
  create(input: CreateProviderPayment): Promise<ProviderPayment>;
  /** Null when the provider doesn't know the id. */
  get(providerPaymentId: string): Promise<ProviderPayment | null>;
  /** One page of the provider's payments by creation time (GET /v3/payments). */
  list(query: ProviderPaymentQuery): Promise<ProviderPaymentPage>;
  /** Null when the provider doesn't know the id. */
  getRefund(providerRefundId: string): Promise<ProviderRefund | null>;
  /** Whether a notification may come from this address (CF-Connecting-IP). */
  acceptsNotificationFrom(address: string | null): boolean;
}

/** The provider couldn't create or report a payment; nothing should be recorded as paid. */
export class PaymentProviderError extends Error {}

// Credentials the local stand-in accepts; it is never reachable in production.
export const STANDIN_SHOP_ID = "standin-shop";
export const STANDIN_SECRET_KEY = "standin-secret-key";

export function standInApiBase(config: Config): string {
  return `${config.publicUrl}${STANDIN_PREFIX}payments/v3`;
}

function toProviderPayment(payment: YooKassaPayment): ProviderPayment {
  const ourPaymentId = payment.metadata?.payment_id;
  const steamId = payment.metadata?.steam_id;
  const site = payment.metadata?.site;
  const createdAt = payment.created_at ? Date.parse(payment.created_at) : Number.NaN;
  return {
    id: payment.id,
    status: payment.status,
    amount: yooKassaValueToKopecks(payment.amount.value),
    currency: payment.amount.currency,
    ourPaymentId: typeof ourPaymentId === "string" ? ourPaymentId : null,
    steamId: typeof steamId === "string" ? steamId : null,
    site: typeof site === "string" ? site : null,
    createdAt: Number.isFinite(createdAt) ? createdAt : null,
    refunded: payment.refunded_amount !== undefined && yooKassaValueToKopecks(payment.refunded_amount.value) !== 0,
    confirmationUrl: payment.confirmation?.confirmation_url ?? null,
  };
}

function toProviderRefund(refund: YooKassaRefund): ProviderRefund {
  return {
    id: refund.id,
    providerPaymentId: refund.payment_id,
    status: refund.status,
    amount: yooKassaValueToKopecks(refund.amount.value),
    currency: refund.amount.currency,
  };
}

// The YooKassa protocol, spoken to YooKassa itself or to the local stand-in
// (which speaks the same API; see docs/decisions/040-*).
function yooKassaProtocol(
  deps: Pick<Deps, "fetch">,
  name: ProviderName,
  connection: { apiBase: string; shopId: string; secretKey: string },
  acceptsNotificationFrom: (address: string | null) => boolean,
): PaymentProvider {
  const client = createYooKassaClient({ ...connection, fetch: deps.fetch });
  const wrap = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof YooKassaUnavailableError || error instanceof YooKassaRequestError) {
        throw new PaymentProviderError(error.message);
      }
      throw error;
    }
  };
  return {
    name,
    acceptsNotificationFrom,
    create: (input) =>
      wrap(async () => {
        const value = kopecksToYooKassaValue(input.amount);
        const payment = await client.createPayment(
          {
            amount: { value, currency: "RUB" },
            capture: true,
            confirmation: { type: "redirect", return_url: input.returnUrl },
            description: input.description,
            metadata: { payment_id: input.paymentId, steam_id: input.steamId, site: input.site },
            receipt: {
              customer: { email: input.email },
              items: [
                {
                  description: "Пополнение баланса",
                  quantity: "1.00",
                  amount: { value, currency: "RUB" },
                  vat_code: 1,
                  payment_mode: "full_prepayment",
                  payment_subject: "service",
                },
              ],
            },
          },
          input.paymentId,
        );
        return toProviderPayment(payment);
      }),
    get: (providerPaymentId) =>
      wrap(async () => {
        const payment = await client.getPayment(providerPaymentId);
        return payment ? toProviderPayment(payment) : null;
      }),
    list: (query) =>
      wrap(async () => {
        const page = await client.listPayments({
          createdAtGte: new Date(query.createdFrom),
          createdAtLte: query.createdUntil === undefined ? undefined : new Date(query.createdUntil),
          status: query.status,
          limit: query.limit,
          cursor: query.cursor,
        });
        return { items: page.items.map(toProviderPayment), nextCursor: page.next_cursor ?? null };
      }),
    getRefund: (providerRefundId) =>
      wrap(async () => {
        const refund = await client.getRefund(providerRefundId);
        return refund ? toProviderRefund(refund) : null;
      }),
  };
}

/** The provider PAYMENT_PROVIDER names. */
export function paymentProvider(deps: Pick<Deps, "config" | "fetch">): PaymentProvider {
  const { config } = deps;
  if (config.paymentProvider === "yookassa") {
    const { apiBase, shopId, secretKey, trustedIps } = config.yookassa;
    if (!shopId || !secretKey) throw new PaymentProviderError("YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not set");
    return yooKassaProtocol(
      deps,
      "yookassa",
      { apiBase, shopId, secretKey },
      (address) => trustedIps.length === 0 || addressInRanges(address, trustedIps),
    );
  }
  return yooKassaProtocol(
    deps,
    "standin",
    { apiBase: standInApiBase(config), shopId: STANDIN_SHOP_ID, secretKey: STANDIN_SECRET_KEY },
    () => true,
  );
}
