// How a gift reads where it shows (issue 24).

import type { InventoryState } from "../profile/inventory-state.ts";

/** In the buyer's purchase history and receipt. */
export function giftToText(nickname: string): string {
  return `Подарок для ${nickname}`;
}

/**
 * A gift's «Статус» in the buyer's purchase history (issue 46): where the gift is, not the payment's
 * «Завершено», which read as delivered while the friend had nothing yet.
 */
export function giftStatusLabel(state: InventoryState): string {
  switch (state) {
    case "waiting":
      return "Подарок ждёт друга";
    case "delivering":
      return "Подарок выдаётся";
    case "failed":
      return "Подарок не выдан";
    case "active":
    case "received":
    case "expired":
      return "Подарок вручён";
    case "returned":
      return "Подарок отменён";
    case "refunded":
      return "Подарок возвращён";
  }
}

/** The gift part of the item page's form. */
export const GIFT_FORM = {
  toggle: "В подарок другу",
  field: "SteamID64 друга или ссылка на его профиль Steam",
  check: "Показать получателя",
  recipient: "Получатель подарка",
  change: "Другой получатель",
  receiptRecipient: "Получатель",
  /** The receipt's link for a gift: the history follows it; the buyer's own Корзина doesn't have it (issue 36). */
  follow: "Следить в истории покупок",
  buy: "Подарить",
} as const;

/** The receipt of a gift: where it is and what happens next (issue 36). */
export function giftReceiptHint(serverTypeLabel: string): string {
  return `Подарок в Корзине друга: он придёт, когда друг зайдёт на сервер ${serverTypeLabel}. Получил ли друг подарок, видно в истории покупок.`;
}

/** On the friend's Корзина card. */
export function giftFromText(nickname: string): string {
  return `Подарок от ${nickname}`;
}

/**
 * Where a gift is, for the buyer who paid for it (issue 36): its entry in the friend's Корзина, in
 * words. `date` is the delivery's or the term's end, formatted; `type` the server type's label.
 */
export function giftProgressText(state: InventoryState, type: string, date: string): string {
  switch (state) {
    case "waiting":
      return `Ждёт в Корзине друга: придёт, когда друг зайдёт на сервер ${type}.`;
    case "delivering":
      return "Друг уже получает подарок в игре: он отметится выданным после ближайшего сохранения сервера.";
    case "failed":
      return "Не удалось выдать другу: администратор видит ошибку и повторит выдачу.";
    case "active":
      return `Друг получил подарок: действует до ${date}.`;
    case "received":
      return `Друг получил подарок ${date}.`;
    case "expired":
      return `Друг получил подарок, срок истёк ${date}.`;
    case "returned":
      return "Вы отменили подарок до выдачи: деньги вернулись на ваш баланс.";
    case "refunded":
      return "Администратор отменил подарок: деньги вернулись на ваш баланс.";
  }
}
