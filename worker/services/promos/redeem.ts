import { and, eq, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { PROMO_ERROR_CODE, PROMO_TEXT, type PromoErrorCode, tooManyAttemptsText } from "#core/messages/promos.ts";
import { isWellFormedPromoCode, normalizePromoCode } from "#core/promos/code.ts";
import type { PromoView } from "#core/promos/types.ts";
import { items, promoCodes, promoRedemptions } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, statement } from "../../ports/database.ts";
import { ringDoorbell } from "../game/doorbell.ts";
import {
  type AttemptSource,
  PROMO_ATTEMPT_WINDOW_MS,
  promoBlockedUntil,
  releasePromoAttempt,
  reservePromoAttempt,
} from "./rate-limit.ts";

export type RedeemResult =
  | { ok: true; status: 200; message: string; promo: PromoView }
  | {
      ok: false;
      status: 400 | 404 | 409 | 410 | 429;
      error: string;
      /** Tells the two 429s apart: the guessing pause and the code's use limit. */
      code?: PromoErrorCode;
      retryAfterSeconds?: number;
    };

type Failure = Extract<RedeemResult, { ok: false }>;

/**
 * Activates a promo code for a signed-in player.
 *
 * A guessing slot is reserved first (rate-limit.ts), before the code is even parsed, so a paused
 * player learns nothing about any code and burns none; the slot is kept only when the answer was
 * a wrong guess (not found, malformed, not started, expired, used up) and given back otherwise.
 * Then the code is looked up and checked for the friendly error; the write itself is one batch
 * whose constraints decide the races: the redemption row (unique per code and player, inserted
 * only inside the code's window), the use counter (CHECK used_count <= max_uses) and either a
 * ledger credit with the balance or a Корзина entry.
 */
export async function redeemPromo(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  input: AttemptSource & { code: string },
): Promise<RedeemResult> {
  const now = deps.now().getTime();
  const source = { userId: input.userId, ip: input.ip };
  const code = normalizePromoCode(input.code);
  if (code === "") return { ok: false, status: 400, error: PROMO_TEXT.empty };

  const attemptId = await reservePromoAttempt(deps, source, now);
  if (attemptId === null) {
    const blockedUntil = (await promoBlockedUntil(deps, source, now)) ?? now + PROMO_ATTEMPT_WINDOW_MS;
    const seconds = Math.max(1, Math.ceil((blockedUntil - now) / 1000));
    return {
      ok: false,
      status: 429,
      error: tooManyAttemptsText(Math.ceil(seconds / 60)),
      code: PROMO_ERROR_CODE.tooManyAttempts,
      retryAfterSeconds: seconds,
    };
  }
  let result: RedeemResult;
  try {
    result = await redeemChecked(deps, input.userId, code, now);
  } catch (error) {
    await releasePromoAttempt(deps, attemptId);
    throw error;
  }
  if (result.ok || result.status === 409) await releasePromoAttempt(deps, attemptId);
  return result;
}

const exhausted = (): Failure => ({
  ok: false,
  status: 429,
  error: PROMO_TEXT.exhausted,
  code: PROMO_ERROR_CODE.useLimitReached,
});

async function redeemChecked(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  userId: number,
  code: string,
  now: number,
): Promise<RedeemResult> {
  const fail = (status: Failure["status"], error: string): Failure => ({ ok: false, status, error });
  if (!isWellFormedPromoCode(code)) return fail(400, PROMO_TEXT.malformed);

  const [promo] = await deps.db.orm
    .select({
      id: promoCodes.id,
      type: promoCodes.type,
      value: promoCodes.value,
      itemName: items.name,
      // Where an item code's entry waits: the type the code names, else the item's own.
      itemServerType: sql<string | null>`COALESCE(${promoCodes.itemServerType}, ${items.serverType})`,
      startsAt: promoCodes.startsAt,
      endsAt: promoCodes.endsAt,
      maxUses: promoCodes.maxUses,
      usedCount: promoCodes.usedCount,
      redeemedByMe: promoRedemptions.id,
    })
    .from(promoCodes)
    .leftJoin(items, eq(items.id, promoCodes.itemId))
    .leftJoin(promoRedemptions, and(eq(promoRedemptions.promoId, promoCodes.id), eq(promoRedemptions.userId, userId)))
    .where(eq(promoCodes.code, code))
    .limit(1);

  if (!promo) return fail(404, PROMO_TEXT.notFound);
  // 400 with the server's text: the spec's clients read 410 as «Срок действия промокода истёк».
  if (promo.startsAt !== null && now < promo.startsAt) return fail(400, PROMO_TEXT.notStarted);
  if (promo.endsAt !== null && now >= promo.endsAt) return fail(410, PROMO_TEXT.expired);
  if (promo.redeemedByMe !== null) return fail(409, PROMO_TEXT.alreadyUsed);
  if (promo.usedCount >= promo.maxUses) return exhausted();

  const promoId = promo.id;
  const redemptionExists = sql`EXISTS (SELECT 1 FROM promo_redemptions WHERE promo_id = ${promoId} AND user_id = ${userId})`;
  const statements = [
    // Inside the window only; a code that closed since the read above inserts nothing, and
    // every statement below keys off this row, so nothing else happens either.
    statement(sql`INSERT INTO promo_redemptions (promo_id, user_id, created_at)
      SELECT id, ${userId}, ${now} FROM promo_codes
      WHERE id = ${promoId} AND (starts_at IS NULL OR starts_at <= ${now}) AND (ends_at IS NULL OR ends_at > ${now})`),
    statement(sql`UPDATE promo_codes SET used_count = used_count + 1 WHERE id = ${promoId} AND ${redemptionExists}`),
  ];
  if (promo.type === "BALANCE") {
    statements.push(
      statement(sql`INSERT INTO ledger (user_id, amount, kind, promo_redemption_id, created_at)
        SELECT r.user_id, p.value, 'promo', r.id, ${now}
        FROM promo_redemptions r JOIN promo_codes p ON p.id = r.promo_id
        WHERE r.promo_id = ${promoId} AND r.user_id = ${userId}`),
      statement(sql`UPDATE users
        SET balance = balance + (SELECT value FROM promo_codes WHERE id = ${promoId}), updated_at = ${now}
        WHERE id = ${userId} AND ${redemptionExists}`),
    );
  } else {
    statements.push(
      statement(sql`INSERT INTO inventory_entries
          (user_id, item_id, promo_redemption_id, server_type, duration_days, is_permanent, status, created_at)
        SELECT r.user_id, p.item_id, r.id, COALESCE(p.item_server_type, i.server_type), p.item_duration_days,
          CASE WHEN p.item_duration_days IS NULL THEN 1 ELSE 0 END, 'not_used', ${now}
        FROM promo_redemptions r
          JOIN promo_codes p ON p.id = r.promo_id
          JOIN items i ON i.id = p.item_id
        WHERE r.promo_id = ${promoId} AND r.user_id = ${userId}`),
    );
  }

  let inserted: number;
  try {
    const [insertResult] = await deps.db.batch(statements);
    inserted = insertResult?.changes ?? 0;
  } catch (error) {
    const violation = constraintViolation(error);
    if (violation?.target.startsWith("promo_redemptions")) return fail(409, PROMO_TEXT.alreadyUsed);
    if (violation?.target === "promo_codes_limit") return exhausted();
    throw error;
  }
  if (inserted === 0) return fail(410, PROMO_TEXT.expired);
  // An item code's entry waits for its type's servers: they poll now.
  if (promo.type !== "BALANCE" && promo.itemServerType) ringDoorbell(deps, [promo.itemServerType]);

  return {
    ok: true,
    status: 200,
    message: PROMO_TEXT.success,
    promo: {
      type: promo.type,
      value: promo.type === "BALANCE" && promo.value !== null ? kopecksToRubles(promo.value) : null,
      item: promo.type === "ITEM" && promo.itemName !== null ? { name: promo.itemName } : null,
    },
  };
}
