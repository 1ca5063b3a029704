import { and, desc, eq, gt, lte, or, sql } from "drizzle-orm";
import { promoAttempts } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";

// Slowing down promo code guessing (decision 097). A player gets 10 wrong guesses in 10 minutes;
// an address gets 100, since many innocent players share a carrier's address. A slot is reserved
// before the code is looked up, by one guarded INSERT, so a burst of parallel requests can't all
// pass the check before any of them is counted; answers that weren't wrong guesses give it back.

export const PROMO_ATTEMPT_WINDOW_MS = 10 * 60 * 1000;
export const PROMO_MAX_FAILED_ATTEMPTS = 10;
export const PROMO_MAX_FAILED_ATTEMPTS_PER_ADDRESS = 100;

export interface AttemptSource {
  userId: number;
  /** The client address (CF-Connecting-IP). */
  ip: string;
}

/**
 * Takes one attempt slot for the player and address, or returns null when either has used up
 * its window. Also forgets the player's and the address's attempts that left the window.
 */
export async function reservePromoAttempt(
  deps: Pick<Deps, "db">,
  source: AttemptSource,
  now: number,
): Promise<number | null> {
  const since = now - PROMO_ATTEMPT_WINDOW_MS;
  const [, inserted] = await deps.db.batch([
    statement(
      deps.db.orm
        .delete(promoAttempts)
        .where(
          and(
            or(eq(promoAttempts.userId, source.userId), eq(promoAttempts.ip, source.ip)),
            lte(promoAttempts.createdAt, since),
          ),
        ),
    ),
    statement(sql`INSERT INTO promo_attempts (user_id, ip, created_at)
      SELECT ${source.userId}, ${source.ip}, ${now}
      WHERE (SELECT COUNT(*) FROM promo_attempts WHERE user_id = ${source.userId} AND created_at > ${since})
          < ${PROMO_MAX_FAILED_ATTEMPTS}
        AND (SELECT COUNT(*) FROM promo_attempts WHERE ip = ${source.ip} AND created_at > ${since})
          < ${PROMO_MAX_FAILED_ATTEMPTS_PER_ADDRESS}
      RETURNING id`),
  ]);
  const row = inserted?.rows[0] as { id: number } | undefined;
  return row ? Number(row.id) : null;
}

/** Gives back a reserved slot: the answer was not a wrong guess. */
export async function releasePromoAttempt(deps: Pick<Deps, "db">, attemptId: number): Promise<void> {
  await deps.db.orm.delete(promoAttempts).where(eq(promoAttempts.id, attemptId));
}

/**
 * When the player or address may try again (ms epoch), or null when they may try now.
 * The pause lifts once the oldest attempt that fills the limit leaves the window.
 */
export async function promoBlockedUntil(
  deps: Pick<Deps, "db">,
  source: AttemptSource,
  now: number,
): Promise<number | null> {
  const since = now - PROMO_ATTEMPT_WINDOW_MS;
  const nthMostRecent = (where: ReturnType<typeof and>, limit: number) =>
    deps.db.orm
      .select({ createdAt: promoAttempts.createdAt })
      .from(promoAttempts)
      .where(where)
      .orderBy(desc(promoAttempts.createdAt))
      .limit(1)
      .offset(limit - 1);
  const [byUser, byIp] = await deps.db.orm.batch([
    nthMostRecent(
      and(eq(promoAttempts.userId, source.userId), gt(promoAttempts.createdAt, since)),
      PROMO_MAX_FAILED_ATTEMPTS,
    ),
    nthMostRecent(
      and(eq(promoAttempts.ip, source.ip), gt(promoAttempts.createdAt, since)),
      PROMO_MAX_FAILED_ATTEMPTS_PER_ADDRESS,
    ),
  ]);
  const times = [...byUser, ...byIp].map((row) => row.createdAt);
  if (times.length === 0) return null;
  return Math.max(...times) + PROMO_ATTEMPT_WINDOW_MS;
}
