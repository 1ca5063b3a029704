// How a gift reads where it shows (issue 24).

/** In the buyer's purchase history and receipt. */
export function giftToText(nickname: string): string {
  return `Подарок для ${nickname}`;
}

/** The gift part of the item page's form. */
export const GIFT_FORM = {
  toggle: "В подарок другу",
  field: "SteamID64 друга или ссылка на его профиль Steam",
  check: "Показать получателя",
  recipient: "Получатель подарка",
  change: "Другой получатель",
  receiptRecipient: "Получатель",
  receiptHint: "Подарок в Корзине друга: он получит его на сервере, как свою покупку.",
  buy: "Подарить",
} as const;

/** On the friend's Корзина card. */
export function giftFromText(nickname: string): string {
  return `Подарок от ${nickname}`;
}
