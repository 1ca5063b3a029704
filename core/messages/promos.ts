// Every text a player can see from promo activation.

import { formatRubles } from "../format/money.ts";
import type { PromoView } from "../promos/types.ts";
import { AUTH_REQUIRED } from "./common.ts";

export const PROMO_TEXT = {
  success: "Промокод успешно активирован!",
  empty: "Введите промокод",
  malformed: "Некорректный формат промокода",
  unauthorized: AUTH_REQUIRED,
  notFound: "Промокод не найден",
  alreadyUsed: "Вы уже использовали этот промокод",
  expired: "Срок действия промокода истёк",
  notStarted: "Промокод ещё не действует",
  exhausted: "Промокод больше не действителен (достигнут лимит использований)",
  generic: "Произошла ошибка при активации промокода",
} as const;

/**
 * The `code` of a 429 answer: the spec's 429 is the code's use limit («Промокод больше не
 * действителен…»); the guessing pause is another 429 that must not read like it.
 */
export const PROMO_ERROR_CODE = {
  useLimitReached: "use_limit_reached",
  tooManyAttempts: "too_many_attempts",
} as const;

export type PromoErrorCode = (typeof PROMO_ERROR_CODE)[keyof typeof PROMO_ERROR_CODE];

export function tooManyAttemptsText(minutes: number): string {
  return `Слишком много попыток. Попробуйте через ${minutes} мин.`;
}

/** What the form shows after a success: the spec's sentence plus what was received. */
export function promoSuccessText(promo: PromoView): string {
  if (promo.type === "BALANCE" && promo.value !== null) {
    return `${PROMO_TEXT.success} На ваш баланс начислено ${formatRubles(promo.value)}`;
  }
  if (promo.type === "ITEM" && promo.item) return `${PROMO_TEXT.success} Вы получили предмет: ${promo.item.name}`;
  return PROMO_TEXT.success;
}
