import { and, desc, eq } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import type { DepositView } from "#core/profile/types.ts";
import { payments } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

const depositColumns = {
  id: payments.id,
  providerPaymentId: payments.providerPaymentId,
  amount: payments.amount,
  status: payments.status,
  completedAt: payments.completedAt,
  createdAt: payments.createdAt,
};

function toView(row: {
  id: string;
  providerPaymentId: string | null;
  amount: number;
  status: DepositView["status"];
  completedAt: number | null;
  createdAt: number;
}): DepositView {
  return {
    ID: row.id,
    payment_id: row.providerPaymentId,
    amount: kopecksToRubles(row.amount),
    status: row.status,
    completed_at: isoOrNull(row.completedAt),
    CreatedAt: isoOrNull(row.createdAt),
  };
}

/** The player's own deposits, newest first. */
export async function listDeposits(deps: Pick<Deps, "db">, userId: number): Promise<DepositView[]> {
  const rows = await deps.db.orm
    .select(depositColumns)
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id));
  return rows.map(toView);
}

/** One deposit, only when it belongs to the player. */
export async function getDeposit(
  deps: Pick<Deps, "db">,
  userId: number,
  paymentId: string,
): Promise<DepositView | null> {
  const [row] = await deps.db.orm
    .select(depositColumns)
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
    .limit(1);
  return row ? toView(row) : null;
}
