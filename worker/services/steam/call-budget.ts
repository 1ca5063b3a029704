import { and, eq, lt, or, sql } from "drizzle-orm";
import { steamCallBudget } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";

// The site's Steam Web API key has one daily quota (100 000 calls), shared by the live server list,
// sign-in's profiles and a gift's recipient lookup. Each call a caller makes is counted in fixed
// windows against every bucket the caller names (decisions 127 and 141). The count is one batch of
// increments under a CHECK: a call past any cap aborts them all, so a refused call counts nowhere,
// and parallel calls can't pass a cap together.

export type BudgetScope = (typeof steamCallBudget.$inferSelect)["scope"];

/** One budget a call counts against: whose, how many calls, in what window. */
export interface Bucket {
  scope: BudgetScope;
  /** A SteamID, an address's bucket, or "" for a budget the whole site shares. */
  subject: string;
  calls: number;
  windowMs: number;
}

/** The first bucket a call would overflow, and when its window ends (ms epoch). */
export interface BudgetRefusal {
  scope: BudgetScope;
  until: number;
}

/** The longest window any bucket uses: rows older than it are forgotten. */
export const LONGEST_WINDOW_MS = 24 * 60 * 60_000;

function windowStart(bucket: Bucket, now: number): number {
  return now - (now % bucket.windowMs);
}

/**
 * Counts one Steam call in every bucket; null when it may go ahead, else the bucket that is used up
 * and when it frees. Windows that ended a day ago are forgotten in the same batch.
 */
export async function takeSteamCalls(
  deps: Pick<Deps, "db" | "now">,
  buckets: readonly Bucket[],
): Promise<BudgetRefusal | null> {
  const now = deps.now().getTime();
  try {
    await deps.db.batch([
      statement(deps.db.orm.delete(steamCallBudget).where(lt(steamCallBudget.windowStart, now - LONGEST_WINDOW_MS))),
      ...buckets.map((bucket) =>
        statement(sql`INSERT INTO steam_call_budget (scope, subject, window_start, calls, cap)
          VALUES (${bucket.scope}, ${bucket.subject}, ${windowStart(bucket, now)}, 1, ${bucket.calls})
          ON CONFLICT (scope, subject, window_start) DO UPDATE SET calls = calls + 1`),
      ),
    ]);
    return null;
  } catch (error) {
    const refusal = await usedUp(deps, buckets, now);
    if (refusal) return refusal;
    throw error;
  }
}

/** The bucket used up at `now`, if any: the one that frees last. */
async function usedUp(deps: Pick<Deps, "db">, buckets: readonly Bucket[], now: number): Promise<BudgetRefusal | null> {
  const rows = await deps.db.orm
    .select()
    .from(steamCallBudget)
    .where(
      or(
        ...buckets.map((bucket) =>
          and(
            eq(steamCallBudget.scope, bucket.scope),
            eq(steamCallBudget.subject, bucket.subject),
            eq(steamCallBudget.windowStart, windowStart(bucket, now)),
          ),
        ),
      ),
    );
  const full = rows
    .filter((row) => row.calls >= row.cap)
    .map((row) => {
      const bucket = buckets.find((one) => one.scope === row.scope && one.subject === row.subject);
      return { scope: row.scope, until: row.windowStart + (bucket?.windowMs ?? 0) };
    })
    .sort((a, b) => b.until - a.until);
  return full[0] ?? null;
}
