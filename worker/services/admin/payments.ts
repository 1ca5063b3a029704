import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { PaymentFilter } from "#core/admin/filters.ts";
import { PAYMENT_ADMIN_TEXT } from "#core/messages/admin.ts";
import { payments, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { handleNotification, type NotificationOutcome } from "../payments/payments.ts";
import { PaymentProviderError } from "../payments/provider.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";

export const RECHECK_TEXT: Record<NotificationOutcome, string> = {
  credited: "Провайдер подтвердил оплату: платёж зачислен",
  already_settled: "Платёж уже был зачислен раньше, повторно не зачисляется",
  cancelled: "Провайдер отменил платёж",
  pending: "Провайдер ещё не получил оплату",
  refused: "Данные провайдера не совпадают с платежом: не зачислено, подробности в логах",
  unknown: "Провайдер не знает этот платёж",
};

export const recheckSchema = z.object({ paymentId: z.string().uuid(PAYMENT_ADMIN_TEXT.notFound) });

export async function listPayments(deps: Pick<Deps, "db">, status: PaymentFilter) {
  return deps.db.orm
    .select({
      id: payments.id,
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      amount: payments.amount,
      status: payments.status,
      createdAt: payments.createdAt,
      completedAt: payments.completedAt,
      steamId: users.steamId,
      nickname: users.nickname,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(status === "all" ? undefined : eq(payments.status, status))
    .orderBy(desc(payments.createdAt))
    .limit(200);
}

export type RecheckResult = { ok: true; message: string } | { ok: false; status: 404 | 409 | 502; error: string };

/**
 * Asks the provider about a top-up, as a notification would make the site do, and settles it
 * through the webhook's own path (handleNotification → creditPayment): credited at most once,
 * whoever asks first. When it credits, the journal row is a statement of the credit's own batch;
 * otherwise nothing moved and the row records the question and the answer alone.
 */
export async function recheckPayment(deps: Deps, operator: Operator, paymentId: string): Promise<RecheckResult> {
  const [row] = await deps.db.orm
    .select({ providerPaymentId: payments.providerPaymentId, status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .limit(1);
  if (!row) return { ok: false, status: 404, error: PAYMENT_ADMIN_TEXT.notFound };
  if (!row.providerPaymentId) return { ok: false, status: 409, error: PAYMENT_ADMIN_TEXT.noProviderId };
  const journal = (outcome: NotificationOutcome) =>
    auditStatement({
      operator,
      action: "payment.recheck",
      targetType: "payment",
      targetId: paymentId,
      before: { status: row.status },
      after: { outcome },
      now: deps.now().getTime(),
    });
  let outcome: NotificationOutcome;
  try {
    outcome = await handleNotification(deps, row.providerPaymentId, undefined, [journal("credited")]);
  } catch (error) {
    if (error instanceof PaymentProviderError)
      return { ok: false, status: 502, error: PAYMENT_ADMIN_TEXT.providerDown };
    throw error;
  }
  if (outcome !== "credited") await deps.db.batch([journal(outcome)]);
  return { ok: true, message: RECHECK_TEXT[outcome] };
}
