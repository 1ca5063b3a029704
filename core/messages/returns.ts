// Returning a purchase that was never delivered (issue 24, decision 111): the player's words.

import { formatMoscowDate } from "../format/dates.ts";
import { formatRubles } from "../format/money.ts";
import { quoted } from "../format/quote.ts";

export const RETURN_ERRORS = {
  badId: "Некорректный идентификатор покупки",
  notFound: "Покупка не найдена",
  turnedOff: "Возврат покупок отключён",
  /** Bought with no return window (before returns existed, or while they were off), returns on now. */
  notWhenBought: "Эту покупку вернуть нельзя: когда она была сделана, возврат покупок не действовал",
  delivered: "Предмет уже выдан — вернуть его нельзя",
  delivering: "Предмет уже выдаётся на сервере — вернуть его нельзя",
  alreadyReturned: "Эта покупка уже возвращена",
  notReturnable: "Эту покупку вернуть нельзя",
  windowOver: "Срок возврата истёк",
  conflict: "Не удалось вернуть покупку, попробуйте ещё раз",
} as const;

export const RETURN_BUTTON = "Вернуть";
/** The confirmation a page without JavaScript asks before a return (issue 36). */
export const RETURN_CONFIRM_BUTTON = "Да, вернуть";
export const RETURN_CANCEL = "Не возвращать";

/** «Можно вернуть до 26.11.2026, 14:30 МСК» under a returnable entry. */
export function returnUntilText(iso: string): string {
  return `Можно вернуть до ${formatMoscowDate(iso)}`;
}

/**
 * The confirmation before a return, and the notice after it. A gift's (`giftTo`: the friend's name) says
 * it is the gift that is cancelled and that the friend won't get it (issue 46).
 */
export function returnConfirmText(itemName: string, rubles: number, giftTo: string | null = null): string {
  if (giftTo) {
    return `Отменить подарок ${quoted(itemName)} для ${giftTo}? Друг его не получит, ${formatRubles(rubles)} вернутся на ваш баланс.`;
  }
  return `Вернуть ${quoted(itemName)}? ${formatRubles(rubles)} вернутся на баланс.`;
}

export function returnedText(itemName: string, rubles: number, giftTo: string | null = null): string {
  if (giftTo) return `Подарок ${quoted(itemName)} для ${giftTo} отменён: ${formatRubles(rubles)} на балансе.`;
  return `${quoted(itemName)} возвращён: ${formatRubles(rubles)} на балансе.`;
}

/** A returned entry's note in the Корзина. */
export const RETURNED_NOTE = "Вы вернули покупку до выдачи, деньги на балансе.";
