import { and, count, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import { rublesToKopecks } from "#core/payments/top-up.ts";
import type { TopUpInput } from "#core/schemas/top-up.ts";
import { ledger, payments, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { kopecksToYooKassaValue } from "../../integrations/yookassa/client.ts";
import { constraintViolation, type Statement, statement } from "../../ports/database.ts";
import { safeReturnPath } from "../auth/return-path.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { type PaymentProvider, PaymentProviderError, type ProviderPayment, paymentProvider } from "./provider.ts";
import { findProviderPayment, restoredCreditJournal, restoreMissingPayment, siteOf } from "./restored-payment.ts";

// Balance top-up: create a payment at the provider, then settle it exactly once
// from what the provider's API says (never from what a notification says).

/** The provider couldn't create the payment; the player sees the "try later" text. */
export class TopUpUnavailableError extends Error {}
/** Too many payments started in a short time (each one is a call to the provider). */
export class TopUpTooFrequentError extends TopUpUnavailableError {}

export const TOP_UP_WINDOW_MS = 10 * 60 * 1000;
export const TOP_UP_MAX_PER_WINDOW = 10;

export interface CreatedTopUp {
  paymentId: string;
  paymentUrl: string;
}

function log(event: string, details: Record<string, unknown>) {
  console.warn(JSON.stringify({ event, ...details }));
}

/** The provider's return address; `next` (a same-site path, see paymentReturnNext) is where it then sends the player. */
export function paymentReturnUrl(deps: Pick<Deps, "config">, paymentId: string, next: string | null = null): string {
  const url = `${deps.config.publicUrl}/api/payment/return/${paymentId}`;
  return next ? `${url}?next=${encodeURIComponent(next)}` : url;
}

/** A top-up's return path when it is a same-site path other than the home page, else null (the profile). */
export function paymentReturnNext(value: string | null | undefined): string | null {
  if (!value) return null;
  const path = safeReturnPath(value);
  return path === "/" ? null : path;
}

/** Where the return sends the player: `next` with the payment's result, or the profile as before. */
export function paymentReturnLocation(next: string | null | undefined, result: "success" | "failed"): string {
  const path = paymentReturnNext(next);
  if (!path) return `/profile?payment=${result}`;
  const url = new URL(path, "http://site.invalid");
  url.searchParams.set("payment", result);
  return `${url.pathname}${url.search}`;
}

/** Records a pending payment, creates it at the provider, and returns where the player pays. */
export async function createTopUp(
  deps: Deps,
  user: { id: number; steamId: string },
  input: TopUpInput,
  provider: PaymentProvider = paymentProvider(deps),
): Promise<CreatedTopUp> {
  const amount = rublesToKopecks(input.amount);
  if (amount === null) throw new Error("amount was validated to whole kopecks");
  const paymentId = crypto.randomUUID();
  const now = deps.now().getTime();
  const [recent] = await deps.db.orm
    .select({ count: count() })
    .from(payments)
    .where(and(eq(payments.userId, user.id), gt(payments.createdAt, now - TOP_UP_WINDOW_MS)));
  if ((recent?.count ?? 0) >= TOP_UP_MAX_PER_WINDOW) {
    throw new TopUpTooFrequentError(`user ${user.id} started ${recent?.count} payments in 10 minutes`);
  }
  await deps.db.orm.insert(payments).values({
    id: paymentId,
    userId: user.id,
    provider: provider.name,
    amount,
    email: input.email,
    status: "pending",
    createdAt: now,
  });

  const fail = async (reason: string): Promise<never> => {
    log("payment.create_failed", { paymentId, provider: provider.name, reason });
    await deps.db.orm
      .update(payments)
      .set({ status: "failed" })
      .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")));
    throw new TopUpUnavailableError(reason);
  };

  let remote: ProviderPayment;
  try {
    remote = await provider.create({
      paymentId,
      steamId: user.steamId,
      site: siteOf(deps.config),
      amount,
      email: input.email,
      description: `Пополнение баланса на ${kopecksToYooKassaValue(amount).replace(".", ",")} ₽`,
      returnUrl: paymentReturnUrl(deps, paymentId, paymentReturnNext(input.return_to)),
    });
  } catch (error) {
    if (error instanceof PaymentProviderError) return fail(error.message);
    throw error;
  }
  if (remote.status !== "pending" || !remote.confirmationUrl) {
    return fail(`provider answered status ${remote.status} without a confirmation URL`);
  }
  if (remote.ourPaymentId !== paymentId || remote.amount !== amount || remote.currency !== "RUB") {
    return fail(`provider answered another payment: ${JSON.stringify(remote)}`);
  }
  await deps.db.orm
    .update(payments)
    .set({ providerPaymentId: remote.id, confirmationUrl: remote.confirmationUrl })
    .where(eq(payments.id, paymentId));
  return { paymentId, paymentUrl: remote.confirmationUrl };
}

export type SettleOutcome =
  | "credited" // this call moved the money
  | "already_settled" // a previous call did; nothing changed
  | "cancelled" // the provider says canceled; our row is cancelled
  | "pending" // the provider hasn't decided yet
  | "refused"; // the provider's payment doesn't match ours (logged)

/** The guards of the credit batch below: the payment isn't pending with these terms, or was credited already. */
function isGuardFailure(error: unknown): boolean {
  const violation = constraintViolation(error);
  if (!violation) return false;
  return (
    (violation.kind === "NOT NULL" && /^ledger\.(user_id|amount)$/.test(violation.target)) ||
    (violation.kind === "UNIQUE" && violation.target === "ledger.provider_payment_id")
  );
}

/**
 * Brings our payment in line with the provider's payment as its API reported it:
 * only a payment the API reports for our row (metadata and provider id both
 * match), succeeded, in RUB and for the amount we created, is credited. A succeeded
 * payment whose row a restore took away is put back first (restoreMissingPayment) and
 * credited with a journal line (decision 135), as is any credit made `afterRestore` (the walk).
 */
export async function settleFromProvider(
  deps: Deps,
  provider: PaymentProvider,
  remote: ProviderPayment,
  alongsideCredit: readonly Statement[] = [],
  options: { afterRestore?: boolean } = {},
): Promise<SettleOutcome> {
  const ourId = remote.ourPaymentId;
  const read = async () =>
    ourId ? (await deps.db.orm.select().from(payments).where(eq(payments.id, ourId)).limit(1))[0] : undefined;
  let row = await read();
  let journal = options.afterRestore === true;
  if (ourId && (!row || row.providerPaymentId === null) && (await restoreMissingPayment(deps, provider, remote))) {
    row = await read();
    journal = true;
  }
  if (journal && ourId && row?.status === "pending") {
    alongsideCredit = [...alongsideCredit, restoredCreditJournal(ourId, remote, deps.now().getTime())];
  }
  if (!row || row.provider !== provider.name || row.providerPaymentId !== remote.id) {
    log("payment.notification_mismatch", {
      providerPaymentId: remote.id,
      ourPaymentId: ourId,
      provider: provider.name,
    });
    return "refused";
  }

  if (remote.status === "canceled") {
    await deps.db.orm
      .update(payments)
      .set({ status: "cancelled" })
      .where(and(eq(payments.id, row.id), eq(payments.status, "pending"), eq(payments.providerPaymentId, remote.id)));
    return "cancelled";
  }
  if (remote.status !== "succeeded") return "pending";

  if (remote.currency !== "RUB" || remote.amount !== row.amount) {
    log("payment.amount_mismatch", {
      paymentId: row.id,
      providerPaymentId: remote.id,
      expected: row.amount,
      reported: remote.amount,
      currency: remote.currency,
    });
    return "refused";
  }
  if (row.status === "completed") return "already_settled";
  if (row.status !== "pending") {
    log("payment.succeeded_but_closed", { paymentId: row.id, providerPaymentId: remote.id, status: row.status });
    return "refused";
  }

  return creditPayment(
    deps,
    { paymentId: row.id, provider: provider.name, providerPaymentId: remote.id, amount: remote.amount },
    alongsideCredit,
  );
}

/**
 * A deposit pays off the player's refund debt first (decision 097): a `refund_debt` ledger row
 * takes MIN(debt, balance) right after the credit, and the balance and the debt follow that row.
 */
function payOffRefundDebt(paymentId: string, userId: SQL, now: number): Statement[] {
  const paid = sql`(SELECT -amount FROM ledger WHERE payment_id = ${paymentId} AND kind = 'refund_debt')`;
  return [
    statement(sql`INSERT INTO ledger (user_id, amount, kind, payment_id, created_at)
      SELECT d.user_id, -MIN(d.amount, u.balance), 'refund_debt', ${paymentId}, ${now}
      FROM refund_debts d JOIN users u ON u.id = d.user_id
      WHERE d.user_id = ${userId} AND d.amount > 0`),
    statement(sql`UPDATE users SET balance = balance - ${paid} WHERE id = ${userId} AND ${paid} IS NOT NULL`),
    statement(sql`UPDATE refund_debts SET amount = amount - ${paid}, updated_at = ${now}
      WHERE user_id = ${userId} AND ${paid} IS NOT NULL`),
  ];
}

/**
 * The one batch that moves a deposit's money, guarded in SQL so it is right
 * whatever was read before it: the ledger row is inserted only while our
 * payment is pending with this provider, provider id and amount (else its
 * user_id is NULL and the NOT NULL constraint aborts the batch), and the
 * ledger's unique provider_payment_id refuses a second credit. `alongside` joins the same batch,
 * so it is written exactly when the money moves (an operator's journal row).
 */
export async function creditPayment(
  deps: Pick<Deps, "db" | "now">,
  payment: { paymentId: string; provider: string; providerPaymentId: string; amount: number },
  alongside: readonly Statement[] = [],
): Promise<"credited" | "already_settled"> {
  const now = deps.now().getTime();
  const guard = and(
    eq(payments.id, payment.paymentId),
    eq(payments.status, "pending"),
    eq(payments.amount, payment.amount),
    eq(payments.provider, payment.provider),
    eq(payments.providerPaymentId, payment.providerPaymentId),
  );
  const creditedRow = sql`(SELECT ${ledger.userId} FROM ${ledger} WHERE ${ledger.providerPaymentId} = ${payment.providerPaymentId})`;
  try {
    await deps.db.batch(
      [
        deps.db.orm.insert(ledger).values({
          userId: sql`(SELECT ${payments.userId} FROM ${payments} WHERE ${guard})`,
          amount: sql`(SELECT ${payments.amount} FROM ${payments} WHERE ${guard})`,
          kind: "deposit",
          paymentId: payment.paymentId,
          providerPaymentId: payment.providerPaymentId,
          createdAt: now,
        }),
        deps.db.orm.update(payments).set({ status: "completed", completedAt: now }).where(guard),
        deps.db.orm
          .update(users)
          .set({
            balance: sql`${users.balance} + (SELECT ${ledger.amount} FROM ${ledger} WHERE ${ledger.providerPaymentId} = ${payment.providerPaymentId})`,
            updatedAt: now,
          })
          .where(eq(users.id, creditedRow)),
      ]
        .map(statement)
        .concat(payOffRefundDebt(payment.paymentId, creditedRow, now), alongside, [
          // The operators' Discord, when they asked for top-ups (decision 110).
          discordEventStatement(
            "topup",
            sql`SELECT json_object('nickname', u.nickname, 'amount', p.amount) AS payload
                FROM payments p JOIN users u ON u.id = p.user_id
                WHERE p.id = ${payment.paymentId} AND p.status = 'completed' AND p.completed_at = ${now}`,
            now,
          ),
        ]),
    );
  } catch (error) {
    if (!isGuardFailure(error)) throw error;
    return "already_settled";
  }
  return "credited";
}

export type NotificationOutcome = SettleOutcome | "unknown";

/**
 * A provider notification names a payment; only the provider's API says what
 * happened to it. Throws PaymentProviderError when the API can't be asked (the
 * provider will repeat the notification).
 */
export async function handleNotification(
  deps: Deps,
  providerPaymentId: string,
  provider: PaymentProvider = paymentProvider(deps),
  alongsideCredit: readonly Statement[] = [],
): Promise<NotificationOutcome> {
  const remote = await provider.get(providerPaymentId);
  if (!remote) {
    log("payment.notification_unknown", { providerPaymentId, provider: provider.name });
    return "unknown";
  }
  return settleFromProvider(deps, provider, remote, alongsideCredit);
}

/**
 * Where the provider's return URL sends the player: asks the provider if the payment is still pending
 * here, or, when the database doesn't know it (a restore took it), looks for it among the provider's
 * payments of the last day and settles what it finds (decision 135).
 */
export async function paymentReturnResult(
  deps: Deps,
  paymentId: string,
  provider: PaymentProvider = paymentProvider(deps),
): Promise<"success" | "failed"> {
  const read = async () => (await deps.db.orm.select().from(payments).where(eq(payments.id, paymentId)).limit(1))[0];
  let row = await read();
  if (!row || (row.status === "pending" && !row.providerPaymentId)) {
    try {
      const remote = await findProviderPayment(deps, provider, paymentId);
      if (remote) await settleFromProvider(deps, provider, remote);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      log("payment.return_lookup_failed", { paymentId, reason: error.message });
    }
    row = await read();
    if (!row) return "failed";
  }
  if (row.status === "pending" && row.providerPaymentId && row.provider === provider.name) {
    try {
      const remote = await provider.get(row.providerPaymentId);
      if (remote) await settleFromProvider(deps, provider, remote);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      log("payment.return_refresh_failed", { paymentId, reason: error.message });
    }
    row = await read();
  }
  return row?.status === "completed" ? "success" : "failed";
}

/** The e-mail the player gave last time, to prefill the form. */
export async function lastTopUpEmail(deps: Pick<Deps, "db">, userId: number): Promise<string> {
  const [row] = await deps.db.orm
    .select({ email: payments.email })
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row?.email ?? "";
}
