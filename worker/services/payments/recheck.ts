import { and, asc, eq, gt, isNotNull, lt, lte, or } from "drizzle-orm";
import { z } from "zod";
import { payments } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { handleNotification, type NotificationOutcome } from "./payments.ts";
import { type PaymentProvider, PaymentProviderError, paymentProvider } from "./provider.ts";

// The minutely job that asks the provider about payments still pending here (decision 105).
// A notification can be lost (a crash between the provider recording the payment and our credit,
// a webhook YooKassa gave up on); the player's return link asks again, but only if the player opens
// it. This job asks for them: each pending payment older than a few minutes goes through the
// webhook's own path (handleNotification: the provider's API, then the one guarded credit batch),
// so it is credited at most once whoever asks first, and a canceled one is marked cancelled.
// A payment stays pending here for as long as the provider keeps it open (YooKassa cancels an
// unpaid one after about an hour), so the job keeps asking until then.

/** Younger payments are still in the player's hands (or their notification is on its way). */
export const RECHECK_AFTER_MS = 5 * 60 * 1000;
/** Provider requests per run at most; the rest wait for the next minutes, oldest-checked first. */
export const RECHECK_PER_RUN = 20;

/** Where the last run stopped: the payments are asked round the clock in (created_at, id) order. */
const cursorKey = (provider: string) => `payment-recheck-cursor:${provider}`;
const CURSOR_TTL_SECONDS = 24 * 60 * 60;
const cursorSchema = z.object({ createdAt: z.number().int(), id: z.string().min(1) });
type Cursor = z.infer<typeof cursorSchema>;

export interface RecheckReport {
  /** Payments the provider was asked about. */
  asked: number;
  credited: number;
  cancelled: number;
  /** Still open at the provider. */
  pending: number;
  /** Already settled, refused (logged), or unknown to the provider (logged). */
  other: number;
  /** The provider couldn't answer; the run stopped there and the rest wait for the next one. */
  unavailable: boolean;
}

function log(event: string, details: Record<string, unknown>) {
  console.warn(JSON.stringify({ event, ...details }));
}

async function readCursor(deps: Pick<Deps, "kv">, provider: string): Promise<Cursor | null> {
  const raw = await deps.kv.get(cursorKey(provider));
  if (raw === null) return null;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The pending payments this run asks about, at most `limit`: those after the cursor first (never
 * asked, or asked longest ago), then from the start again.
 */
async function dueForCheck(
  deps: Pick<Deps, "db">,
  provider: string,
  olderThan: number,
  cursor: Cursor | null,
  limit: number,
) {
  const due = and(
    eq(payments.status, "pending"),
    eq(payments.provider, provider),
    isNotNull(payments.providerPaymentId),
    lte(payments.createdAt, olderThan),
  );
  const page = (after: Cursor | null, upTo: Cursor | null, count: number) =>
    deps.db.orm
      .select({ id: payments.id, createdAt: payments.createdAt, providerPaymentId: payments.providerPaymentId })
      .from(payments)
      .where(
        and(
          due,
          after
            ? or(
                gt(payments.createdAt, after.createdAt),
                and(eq(payments.createdAt, after.createdAt), gt(payments.id, after.id)),
              )
            : undefined,
          upTo
            ? or(
                lt(payments.createdAt, upTo.createdAt),
                and(eq(payments.createdAt, upTo.createdAt), lte(payments.id, upTo.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .limit(count);
  const first = await page(cursor, null, limit);
  if (!cursor || first.length === limit) return first;
  return first.concat(await page(null, cursor, limit - first.length));
}

/** Asks the provider about pending payments older than RECHECK_AFTER_MS and settles what it answers. */
export async function recheckPendingPayments(
  deps: Deps,
  provider: PaymentProvider = paymentProvider(deps),
  limit = RECHECK_PER_RUN,
): Promise<RecheckReport> {
  const report: RecheckReport = { asked: 0, credited: 0, cancelled: 0, pending: 0, other: 0, unavailable: false };
  const cursor = await readCursor(deps, provider.name);
  const due = await dueForCheck(deps, provider.name, deps.now().getTime() - RECHECK_AFTER_MS, cursor, limit);
  let last: Cursor | null = null;
  for (const payment of due) {
    if (!payment.providerPaymentId) continue;
    let outcome: NotificationOutcome;
    try {
      outcome = await handleNotification(deps, payment.providerPaymentId, provider);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      // Down or refusing: don't spend the rest of the run on it; this payment comes first next time.
      log("payment.recheck_unavailable", { paymentId: payment.id, reason: error.message });
      report.unavailable = true;
      break;
    }
    report.asked++;
    last = { createdAt: payment.createdAt, id: payment.id };
    if (outcome === "credited") {
      report.credited++;
      // Only a lost notification (or a player who never came back) leaves a paid payment to this job.
      log("payment.credited_by_recheck", { paymentId: payment.id, providerPaymentId: payment.providerPaymentId });
    } else if (outcome === "cancelled") report.cancelled++;
    else if (outcome === "pending") report.pending++;
    else report.other++;
  }
  // Remembered only when some due payments were left for later: a KV write is no free thing (decision 001).
  if (last && (due.length === limit || report.unavailable)) {
    await deps.kv.put(cursorKey(provider.name), JSON.stringify(last), { expirationTtlSeconds: CURSOR_TTL_SECONDS });
  }
  return report;
}
