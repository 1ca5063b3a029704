// The Корзина in the player's words: each entry's state, and how purchases reach the game.

import type { InventoryState } from "../profile/inventory-state.ts";

export const INVENTORY_STATE_LABEL: Record<InventoryState, string> = {
  waiting: "Ждёт выдачи",
  delivering: "Выдаётся",
  failed: "Не удалось выдать",
  active: "Действует",
  received: "Получен",
  expired: "Срок истёк",
  refunded: "Возвращён",
  returned: "Возвращён вами",
};

/**
 * The filter's links; the values are the API's statuses (not_used, used), the labels what they mean
 * to the player (issue 36): a running VIP was given out, it isn't «used up».
 */
export const INVENTORY_FILTER_LABEL = {
  all: "Все",
  not_used: "Ждут выдачи",
  used: "Выданные",
} as const;

/** How a purchase reaches the game: the Корзина's help, above the list. */
export const INVENTORY_HELP =
  "Покупки приходят в игру автоматически, пока вы на сервере того типа, для которого они куплены. Команда /store в чате игры покажет, что ждёт выдачи.";

/** A waiting entry: where to go to receive it. */
export function waitingText(serverTypeLabel: string): string {
  return `Зайдите на сервер ${serverTypeLabel} — предмет придёт автоматически.`;
}

/**
 * Why a delivery failed, in the player's words (issue 36): the plugin's and the console's notes are
 * for operators («Доставка прервана, проверьте вручную», a missing Oxide group); only a full
 * inventory is something the player can act on.
 */
export function deliveryFailedText(operatorNote: string): string {
  return /не хватило места в инвентаре/i.test(operatorNote)
    ? "На сервере не хватило места в инвентаре: освободите место."
    : "Сервер не смог выдать предмет.";
}

/** Given in the game, not yet in a save of the server's world (decision 124). */
export const DELIVERING_TEXT =
  "Уже в игре: покупка отметится выданной после ближайшего сохранения сервера (обычно до 10 минут).";

export const FAILED_RETRY_TEXT =
  "Выдача будет повторена: администратор видит ошибку. Если предмет долго не приходит, напишите нам в Discord.";

export function activeUntilText(date: string, left: string): string {
  return `Действует до ${date} · ${left}`;
}

/** Under «Получен»: when it reached the game (not «Получен» twice, issue 36). */
export function receivedText(date: string): string {
  return `Выдан в игре ${date}`;
}

/** A one-off item's term on its card: it has none (not «Навсегда», issue 36). */
export const ONE_OFF_TERM = "Разовая выдача";

export function expiredText(date: string): string {
  return `Срок истёк ${date}`;
}

export const REFUNDED_TEXT = "Покупка отменена, деньги вернулись на баланс.";

/** A gift in its friend's Корзина that will never come (issue 36): who took it back, and where the money went. */
export const GIFT_CANCELLED_LABEL = "Подарок отменён";
export const GIFT_RETURNED_NOTE = "Даритель отменил подарок до выдачи. Деньги вернулись на баланс дарителя.";
export const GIFT_REFUNDED_NOTE = "Администратор отменил подарок. Деньги вернулись на баланс дарителя.";
