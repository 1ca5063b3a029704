// Shop and purchase texts: the API's errors, the limited-offer badges and what the buy forms show.

import { formatRubles } from "../format/money.ts";
import { AUTH_REQUIRED } from "./common.ts";

export const ITEM_UNAVAILABLE = "Товар недоступен";
export const ITEM_NOT_FOUND = "Товар не найден";
export const BAD_ITEM_ID = "Некорректный идентификатор товара";
export const INSUFFICIENT_FUNDS = "Недостаточно средств на балансе";
export const PURCHASE_FAILED = "Произошла ошибка при покупке предмета";
export const BAD_PURCHASE = "Некорректные данные покупки";

/** The spec's «item info» failure: what /shop/items/<id> shows for an item it can't show. */
export const ITEM_INFO_FAILED = "Не удалось получить информацию о товаре";

export const SHOP_ERRORS = {
  badQuery: "Некорректные параметры запроса",
  badId: BAD_ITEM_ID,
  itemNotFound: ITEM_NOT_FOUND,
  queryRequired: "Поисковый запрос обязателен",
  queryTooShort: "Поисковый запрос должен содержать не менее 2 символов",
} as const;

export const PURCHASE_ERRORS = {
  badId: BAD_ITEM_ID,
  badBody: BAD_PURCHASE,
  itemNotFound: ITEM_NOT_FOUND,
  wrongServerType: "Этот товар недоступен для выбранного типа сервера",
  durationRequired: "Выберите срок действия",
  durationNotOffered: "Такой срок действия для этого товара не предусмотрен",
  oneTimeNoDuration: "Для разового товара срок действия не указывается",
  notStarted: "Продажа этого товара ещё не началась",
  ended: "Срок действия предложения истёк",
  soldOut: "Товар распродан",
  noServer: "Товары для этого типа серверов временно не продаются: сейчас нет ни одного сервера этого типа",
  unavailable: ITEM_UNAVAILABLE,
  insufficientFunds: INSUFFICIENT_FUNDS,
  blocked: "Покупки для вашего аккаунта заблокированы. Обратитесь в поддержку в Discord",
  idempotencyReused: "Этот ключ идемпотентности уже использован для другой покупки",
  conflict: "Не удалось завершить покупку, попробуйте ещё раз",
} as const;

/** «Цена изменилась: теперь 150 ₽»: the price changed after the player saw it (409, decision 112). */
export function priceChangedText(rubles: number): string {
  return `Цена изменилась: теперь ${formatRubles(rubles)}`;
}

/** Why a player who owes for a refunded deposit can't buy (decision 097); `rubles` is what is owed. */
export function refundDebtText(rubles: number): string {
  return `Покупки недоступны: после возврата платежа за вами долг ${formatRubles(rubles)}. Пополните баланс — пополнение сначала погасит долг.`;
}

export const LIMITED_BADGES = {
  upcoming: "Скоро",
  active: "Лимитированный",
  urgent: "Скоро закончится",
  unavailable: ITEM_UNAVAILABLE,
} as const;

export const UPCOMING_TOOLTIP = "Товар станет доступен позже";
export const UNAVAILABLE_TOOLTIP = ITEM_UNAVAILABLE;
/** A card or item page of a server type that has no game server for now (decision 122). */
export const NO_SERVER_TOOLTIP = "Временно не продаётся: сейчас нет сервера этого типа";

/** A limited offer whose stock is gone: the spec's «Товар недоступен», saying why, as its badge «Распродано» does (issue 36). */
export const SOLD_OUT_TOOLTIP = `${UNAVAILABLE_TOOLTIP}: распродан`;

/**
 * Why a card's or item page's «Купить» is off: an offer not started yet, one with no server of its
 * type for now (unless it has ended or sold out for good), a sold-out one, else «Товар недоступен».
 */
export function blockedText(
  item: { no_server: boolean; max_quantity?: number | null; sold_quantity?: number },
  state: string | null,
): string {
  if (state === "upcoming") return UPCOMING_TOOLTIP;
  if (item.no_server && state !== "unavailable") return NO_SERVER_TOOLTIP;
  if (item.max_quantity != null && (item.sold_quantity ?? 0) >= item.max_quantity) return SOLD_OUT_TOOLTIP;
  return UNAVAILABLE_TOOLTIP;
}

/** The purchase answer's status, not its text, says the balance was short: 402. */
export function isInsufficientFunds(status: number | null | undefined): boolean {
  return status === 402;
}

/** 401: Необходима авторизация; 402: Недостаточно средств на балансе; else the server's text. */
export function purchaseErrorText(status: number, error: string | null | undefined): string {
  if (status === 401) return AUTH_REQUIRED;
  if (isInsufficientFunds(status)) return INSUFFICIENT_FUNDS;
  return error?.trim() ? error : PURCHASE_FAILED;
}

/** A page number or page size the shop page or /api/shop/items can't serve (400). */
export const PAGINATION_ERRORS = {
  badPage: "Некорректный номер страницы: укажите целое число от 1",
  badPerPage: "Некорректное число товаров на странице: укажите целое число от 1 до 100",
} as const;

export function pageOutOfRange(pages: number): string {
  return `Такой страницы нет: всего страниц — ${pages}`;
}

/** What a signed-out visitor sees instead of the buy controls, on the item page and in the buy dialog. */
export const SIGN_IN_TO_BUY = "Войти через Steam, чтобы купить";

/** A limited offer whose stock is gone (an ended one stays «Товар недоступен»). */
export const SOLD_OUT = "Распродано";

/** How much a purchase is short of: «не хватает 93 ₽». */
export function shortOfText(rubles: number): string {
  return `не хватает ${formatRubles(rubles)}`;
}

/** The link from a purchase the balance can't cover to the top-up form with the missing amount. */
export function topUpByText(rubles: number): string {
  return `Пополнить на ${formatRubles(rubles)}`;
}

/** The receipt that stays after a purchase (the item page and the buy dialog). */
export const RECEIPT = {
  title: "Покупка совершена",
  item: "Товар",
  duration: "Срок",
  oneTime: "Выдаётся один раз",
  serverType: "Тип сервера",
  price: "Цена",
  balance: "Баланс после покупки",
  toInventory: "Открыть Корзину",
  allServers: "Все серверы",
  close: "Продолжить покупки",
} as const;

/** Where a bought item goes and how it arrives, in the player's words. */
export function deliveryHint(serverTypeLabel: string): string {
  return `Предмет в Корзине. Зайдите на сервер ${serverTypeLabel} — он придёт автоматически, а команда /store в чате игры покажет, что ждёт выдачи.`;
}

/** The link to a server of the type: Steam opens the game and joins it. */
export function connectText(serverName: string): string {
  return `Подключиться: ${serverName}`;
}

/** The item page after the player came back from paying a top-up started from it. */
export const TOPPED_UP_FOR_PURCHASE = "Баланс пополнен — теперь можно купить.";
export const TOP_UP_NOT_FINISHED = "Пополнение не завершено — баланс не изменился.";

/** How purchases reach the game, under the shop's title. */
export const SHOP_DELIVERY_HELP =
  "Покупки приходят автоматически, пока вы на сервере выбранного типа; команда /store в чате игры покажет, что ждёт выдачи.";

/** When a running sale's price ends, on the card, the item page and the buy dialog (issue 36): «Скидка до 30.11.2026, 23:59». */
export function saleEndsText(date: string): string {
  return `Скидка до ${date} (МСК)`;
}
