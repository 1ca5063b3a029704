import { and, desc, eq, gt, lte } from "drizzle-orm";
import { promoAttempts } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";

/** Ten failed attempts within ten minutes, from one player or from one address, pause activation. */
export const PROMO_ATTEMPT_WINDOW_MS = 10 * 60 * 1000;
export const PROMO_MAX_FAILED_ATTEMPTS = 10;

export interface AttemptSource {
  userId: number;
  /** The client address (CF-Connecting-IP). */
  ip: string;
}

/**
 * When the player or address may try again (ms epoch), or null when they may try now.
 * The pause lifts once the tenth most recent failure leaves the window.
 */
export async function promoBlockedUntil(
  deps: Pick<Deps, "db">,
  source: AttemptSource,
  now: number,
): Promise<number | null> {
  const since = now - PROMO_ATTEMPT_WINDOW_MS;
  const tenthMostRecent = (where: ReturnType<typeof and>) =>
    deps.db.orm
      .select({ createdAt: promoAttempts.createdAt })
      .from(promoAttempts)
      .where(where)
      .orderBy(desc(promoAttempts.createdAt))
      .limit(1)
      .offset(PROMO_MAX_FAILED_ATTEMPTS - 1);
  const [byUser, byIp] = await deps.db.orm.batch([
    tenthMostRecent(and(eq(promoAttempts.userId, source.userId), gt(promoAttempts.createdAt, since))),
    tenthMostRecent(and(eq(promoAttempts.ip, source.ip), gt(promoAttempts.createdAt, since))),
  ]);
  const times = [...byUser, ...byIp].map((row) => row.createdAt);
  if (times.length === 0) return null;
  return Math.max(...times) + PROMO_ATTEMPT_WINDOW_MS;
}

/** Remembers one failed attempt and forgets this player's attempts that left the window. */
export async function recordFailedPromoAttempt(
  deps: Pick<Deps, "db">,
  source: AttemptSource,
  now: number,
): Promise<void> {
  await deps.db.orm.batch([
    deps.db.orm.insert(promoAttempts).values({ userId: source.userId, ip: source.ip, createdAt: now }),
    deps.db.orm
      .delete(promoAttempts)
      .where(and(eq(promoAttempts.userId, source.userId), lte(promoAttempts.createdAt, now - PROMO_ATTEMPT_WINDOW_MS))),
  ]);
}
