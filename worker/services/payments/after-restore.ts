import { inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { ledger } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { settleFromProvider } from "./payments.ts";
import { type PaymentProvider, PaymentProviderError, paymentProvider } from "./provider.ts";
import { RESTORE_MARKER_KEY } from "./restore-marker.ts";

// After a restore the database has forgotten the top-ups paid since its copy was made, and the
// provider has already been answered 200 for each, so it never notifies again. The provider keeps
// them all: this walks its payments created since the restored data's time (GET /v3/payments,
// newest first, cursor paging) and credits each succeeded one the ledger doesn't hold, through
// settleFromProvider (the row and the player put back, the one guarded batch, a journal line in it):
// once, whoever else asks. Decision 135.

export { RESTORE_MARKER_KEY };

/** Our clock and the provider's may differ: the walk starts this much before the restored data's time. */
export const CLOCK_MARGIN_MS = 60 * 60 * 1000;
/** YooKassa's largest page. */
const PAGE_SIZE = 100;
/** Pages a run reads at most; a longer walk goes on next minute from where it stopped (`until`). */
export const RECONCILE_PAGES_PER_RUN = 10;

const markerSchema = z.object({
  markedAt: z.number().int(),
  since: z.number().int().optional(),
  until: z.number().int().optional(),
  marginMs: z.number().int().min(0).optional(),
});
export type RestoreMarker = z.infer<typeof markerSchema>;

export interface ReconcileReport {
  /** Succeeded payments the provider listed. */
  listed: number;
  /** Already in the ledger. */
  held: number;
  /** Credited by this walk. */
  credited: number;
  /** Listed, not in the ledger, and not credited (another caller did, or they can't be matched: logged). */
  left: number;
  /** Whether the walk reached the oldest payment since `since`. */
  complete: boolean;
  /** Where an incomplete walk goes on: payments created at or before this (ms). */
  until: number | null;
}

function log(event: string, details: Record<string, unknown>) {
  console.warn(JSON.stringify({ event, ...details }));
}

/**
 * The restored data's time: the newest deposit or ledger row older than `before` (when the restore
 * was noticed), so rows written since then don't move it. Null for a database without money yet.
 */
export async function restoredDataTime(deps: Pick<Deps, "db">, before: number): Promise<number | null> {
  const rows = await deps.db.orm.all<{ at: number | null }>(sql`
    SELECT MAX(at) AS at FROM (
      SELECT MAX(created_at) AS at FROM payments WHERE created_at < ${before}
      UNION ALL SELECT MAX(created_at) FROM ledger WHERE created_at < ${before})`);
  return rows[0]?.at ?? null;
}

/**
 * Credits, once each, the succeeded payments created at the provider from `since` (ms; `marginMs`,
 * by default CLOCK_MARGIN_MS, earlier is asked) up to `until` (default: now) that the ledger doesn't hold. Reads at most
 * RECONCILE_PAGES_PER_RUN pages; the report says whether it reached the end, and where to go on.
 * A provider that can't answer throws PaymentProviderError (nothing half-credited: each credit is its batch).
 */
export async function reconcilePaymentsAfterRestore(
  deps: Deps,
  options: { since: number; until?: number; marginMs?: number },
  provider: PaymentProvider = paymentProvider(deps),
): Promise<ReconcileReport> {
  const report: ReconcileReport = { listed: 0, held: 0, credited: 0, left: 0, complete: false, until: null };
  let cursor: string | undefined;
  for (let page = 0; page < RECONCILE_PAGES_PER_RUN; page++) {
    const { items, nextCursor } = await provider.list({
      createdFrom: options.since - (options.marginMs ?? CLOCK_MARGIN_MS),
      createdUntil: options.until,
      status: "succeeded",
      limit: PAGE_SIZE,
      cursor,
    });
    const succeeded = items.filter((item) => item.status === "succeeded");
    const held = new Set(
      succeeded.length === 0
        ? []
        : (
            await deps.db.orm
              .select({ id: ledger.providerPaymentId })
              .from(ledger)
              .where(
                inArray(
                  ledger.providerPaymentId,
                  succeeded.map((item) => item.id),
                ),
              )
          ).map((row) => row.id),
    );
    for (const remote of succeeded) {
      report.listed++;
      if (held.has(remote.id)) {
        report.held++;
        continue;
      }
      const outcome = await settleFromProvider(deps, provider, remote, [], { afterRestore: true });
      if (outcome === "credited") {
        report.credited++;
        log("payment.credited_after_restore", {
          paymentId: remote.ourPaymentId,
          providerPaymentId: remote.id,
          amount: remote.amount,
        });
      } else {
        report.left++;
        log("payment.restore_not_credited", { paymentId: remote.ourPaymentId, providerPaymentId: remote.id, outcome });
      }
    }
    const oldest = items.at(-1)?.createdAt ?? null;
    if (!nextCursor) {
      report.complete = true;
      return report;
    }
    cursor = nextCursor;
    report.until = oldest;
  }
  return report;
}

/** Asks the minutely job to walk the provider's payments since the restored data's time. */
export async function markRestoreForPayments(
  deps: Pick<Deps, "kv" | "now">,
  marker: Omit<RestoreMarker, "markedAt"> = {},
): Promise<void> {
  const value: RestoreMarker = { markedAt: deps.now().getTime(), ...marker };
  await deps.kv.put(RESTORE_MARKER_KEY, JSON.stringify(value));
}

async function readMarker(deps: Pick<Deps, "kv">): Promise<RestoreMarker | null> {
  const raw = await deps.kv.get(RESTORE_MARKER_KEY);
  if (raw === null) return null;
  try {
    const parsed = markerSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // below
  }
  log("payment.restore_marker_unreadable", { raw: raw.slice(0, 200) });
  return null;
}

export type RestoreJobResult =
  | { ran: false }
  | { ran: true; since: number; unavailable: true }
  | ({ ran: true; since: number; unavailable: false } & ReconcileReport);

/**
 * The minutely job's step: nothing (one KV read) unless a restore marker is there; then the walk,
 * and the marker is deleted once the walk reached its end, or narrowed to where it stopped.
 */
export async function reconcileIfRestored(deps: Deps): Promise<RestoreJobResult> {
  const marker = await readMarker(deps);
  if (!marker) return { ran: false };
  // A database without money yet was copied before the first top-up: every payment is after it.
  const since = marker.since ?? (await restoredDataTime(deps, marker.markedAt)) ?? 0;
  let report: ReconcileReport;
  try {
    report = await reconcilePaymentsAfterRestore(deps, { since, until: marker.until, marginMs: marker.marginMs });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // The marker stays: next minute asks again from the start of what is left.
    log("payment.restore_reconcile_unavailable", { reason: error.message });
    return { ran: true, since, unavailable: true };
  }
  if (report.complete) await deps.kv.delete(RESTORE_MARKER_KEY);
  else await deps.kv.put(RESTORE_MARKER_KEY, JSON.stringify({ ...marker, since, until: report.until ?? undefined }));
  return { ran: true, since, unavailable: false, ...report };
}
