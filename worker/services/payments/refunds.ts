import { and, eq, sql } from "drizzle-orm";
import { payments, refundDebts } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, statement } from "../../ports/database.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { type PaymentProvider, type ProviderRefund, paymentProvider } from "./provider.ts";

// A provider refund of a deposit takes the money back from the player's balance, once per
// provider refund id. What the balance can't cover (CHECK balance >= 0) becomes a debt
// (refund_debts) that blocks purchases until deposits pay it off (decision 097).

export type RefundOutcome =
  | "debited" // this call took the money back
  | "already_settled" // a previous call did; nothing changed
  | "pending" // the provider hasn't finished the refund (or canceled it): nothing to take
  | "refused" // the refund doesn't match a completed deposit of ours (logged)
  | "unknown"; // the provider doesn't know the refund id

function log(event: string, details: Record<string, unknown>) {
  console.warn(JSON.stringify({ event, ...details }));
}

function isDuplicate(error: unknown): boolean {
  const violation = constraintViolation(error);
  return (
    violation?.kind === "UNIQUE" &&
    (violation.target === "payment_refunds.provider_refund_id" || violation.target === "ledger.provider_refund_id")
  );
}

/**
 * Applies a refund as the provider's API reported it: only a succeeded RUB refund of a
 * completed deposit we credited through this provider, not beyond what is left of it.
 */
export async function settleRefundFromProvider(
  deps: Pick<Deps, "db" | "now">,
  provider: Pick<PaymentProvider, "name">,
  remote: ProviderRefund,
): Promise<RefundOutcome> {
  if (remote.status !== "succeeded") return "pending";
  const [row] = await deps.db.orm
    .select()
    .from(payments)
    .where(and(eq(payments.providerPaymentId, remote.providerPaymentId), eq(payments.provider, provider.name)))
    .limit(1);
  if (row?.status !== "completed") {
    log("refund.payment_mismatch", { providerRefundId: remote.id, providerPaymentId: remote.providerPaymentId });
    return "refused";
  }
  if (remote.currency !== "RUB" || remote.amount === null || remote.amount <= 0) {
    log("refund.amount_unreadable", { providerRefundId: remote.id, amount: remote.amount, currency: remote.currency });
    return "refused";
  }
  return debitRefund(deps, { paymentId: row.id, providerRefundId: remote.id, amount: remote.amount });
}

/**
 * The one batch that takes a refund back, its guards in SQL: the refund row is inserted only
 * for a completed deposit whose refunds, with this one, don't exceed it, and takes what the
 * balance has at that moment (MIN(amount, balance)); the ledger row and the balance follow
 * that row, and the rest is added to the player's debt. The unique provider refund id (on
 * the refund row and on the ledger row) makes a repeated notification debit nothing.
 */
export async function debitRefund(
  deps: Pick<Deps, "db" | "now">,
  refund: { paymentId: string; providerRefundId: string; amount: number },
): Promise<"debited" | "already_settled" | "refused"> {
  const now = deps.now().getTime();
  const id = crypto.randomUUID();
  const refundRow = sql`FROM payment_refunds WHERE provider_refund_id = ${refund.providerRefundId}`;
  try {
    const [inserted] = await deps.db.batch([
      statement(sql`INSERT INTO payment_refunds (id, provider_refund_id, payment_id, user_id, amount, debited, created_at)
        SELECT ${id}, ${refund.providerRefundId}, p.id, p.user_id, ${refund.amount}, MIN(${refund.amount}, u.balance), ${now}
        FROM payments p JOIN users u ON u.id = p.user_id
        WHERE p.id = ${refund.paymentId} AND p.status = 'completed'
          AND ${refund.amount} + COALESCE((SELECT SUM(amount) FROM payment_refunds WHERE payment_id = p.id), 0) <= p.amount`),
      statement(sql`INSERT INTO ledger (user_id, amount, kind, payment_id, provider_refund_id, created_at)
        SELECT user_id, -debited, 'refund', payment_id, provider_refund_id, ${now} ${refundRow}`),
      statement(sql`UPDATE users SET balance = balance - (SELECT debited ${refundRow}), updated_at = ${now}
        WHERE id = (SELECT user_id ${refundRow})`),
      statement(sql`INSERT INTO ${refundDebts} (user_id, amount, updated_at)
        SELECT user_id, amount - debited, ${now} ${refundRow} AND amount > debited
        ON CONFLICT (user_id) DO UPDATE SET amount = amount + excluded.amount, updated_at = excluded.updated_at`),
      // The operators' Discord (decision 110): the refund, and the debt when the balance didn't cover it.
      discordEventStatement(
        "provider_refund",
        sql`SELECT json_object('nickname', u.nickname, 'amount', r.amount, 'debited', r.debited) AS payload
            FROM payment_refunds r JOIN users u ON u.id = r.user_id WHERE r.provider_refund_id = ${refund.providerRefundId}`,
        now,
      ),
      discordEventStatement(
        "debt",
        sql`SELECT json_object('nickname', u.nickname, 'debt', d.amount) AS payload
            FROM payment_refunds r JOIN users u ON u.id = r.user_id JOIN refund_debts d ON d.user_id = r.user_id
            WHERE r.provider_refund_id = ${refund.providerRefundId} AND r.amount > r.debited`,
        now,
      ),
    ]);
    if (inserted?.changes !== 1) {
      log("refund.refused", { ...refund, reason: "not a completed deposit, or refunds exceed it" });
      return "refused";
    }
    return "debited";
  } catch (error) {
    if (!isDuplicate(error)) throw error;
    return "already_settled";
  }
}

/**
 * A refund notification names a refund; only the provider's API says what it is. Throws
 * PaymentProviderError when the API can't be asked (the provider will repeat the notification).
 */
export async function handleRefundNotification(
  deps: Deps,
  providerRefundId: string,
  provider: PaymentProvider = paymentProvider(deps),
): Promise<RefundOutcome> {
  const remote = await provider.getRefund(providerRefundId);
  if (!remote) {
    log("refund.notification_unknown", { providerRefundId, provider: provider.name });
    return "unknown";
  }
  return settleRefundFromProvider(deps, provider, remote);
}

/** Kopecks the player still owes for refunds; purchases are refused while it is above zero. */
export async function refundDebtOf(deps: Pick<Deps, "db">, userId: number): Promise<number> {
  const [row] = await deps.db.orm
    .select({ amount: refundDebts.amount })
    .from(refundDebts)
    .where(eq(refundDebts.userId, userId))
    .limit(1);
  return row?.amount ?? 0;
}
