import { and, eq } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import type { DepositView } from "#core/profile/types.ts";
import { paymentRefunds, payments } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

// The deposit history: the player's payments, and the provider's refunds of them (status
// refunded, shown as «Возврат»; decision 097), newest first.

const depositColumns = {
  id: payments.id,
  providerPaymentId: payments.providerPaymentId,
  amount: payments.amount,
  status: payments.status,
  completedAt: payments.completedAt,
  createdAt: payments.createdAt,
};

const refundColumns = {
  id: paymentRefunds.id,
  providerPaymentId: paymentRefunds.providerRefundId,
  amount: paymentRefunds.amount,
  createdAt: paymentRefunds.createdAt,
};

type DepositRow = {
  id: string;
  providerPaymentId: string | null;
  amount: number;
  status: DepositView["status"];
  completedAt: number | null;
  createdAt: number;
};

type RefundRow = { id: string; providerPaymentId: string; amount: number; createdAt: number };

const refundAsDeposit = (row: RefundRow): DepositRow => ({ ...row, status: "refunded", completedAt: row.createdAt });

function toView(row: DepositRow): DepositView {
  return {
    ID: row.id,
    payment_id: row.providerPaymentId,
    amount: kopecksToRubles(row.amount),
    status: row.status,
    completed_at: isoOrNull(row.completedAt),
    CreatedAt: isoOrNull(row.createdAt),
  };
}

/** The player's own deposits and refunds, newest first. */
export async function listDeposits(deps: Pick<Deps, "db">, userId: number): Promise<DepositView[]> {
  const [deposits, refunds] = await deps.db.orm.batch([
    deps.db.orm.select(depositColumns).from(payments).where(eq(payments.userId, userId)),
    deps.db.orm.select(refundColumns).from(paymentRefunds).where(eq(paymentRefunds.userId, userId)),
  ]);
  return [...deposits, ...refunds.map(refundAsDeposit)]
    .sort((a, b) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0))
    .map(toView);
}

/** One deposit or refund, only when it belongs to the player. */
export async function getDeposit(
  deps: Pick<Deps, "db">,
  userId: number,
  paymentId: string,
): Promise<DepositView | null> {
  const [[deposit], [refund]] = await deps.db.orm.batch([
    deps.db.orm
      .select(depositColumns)
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
      .limit(1),
    deps.db.orm
      .select(refundColumns)
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.id, paymentId), eq(paymentRefunds.userId, userId)))
      .limit(1),
  ]);
  if (deposit) return toView(deposit);
  return refund ? toView(refundAsDeposit(refund)) : null;
}
