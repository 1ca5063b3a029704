// The fair-play window's words (decisions 129, 140). Pure and browser-safe.

import { moscowTimeText } from "../messages/common.ts";
import { FAIR_PLAY_TEXT } from "../messages/wipe.ts";
import { moscowDay, wipeDate, wipeTime } from "./schedule.ts";

const weekdayFormat = new Intl.DateTimeFormat("ru-RU", { weekday: "short", timeZone: "Europe/Moscow" });

/** When the window ends as seen at `now`: «01:00 МСК» the same Moscow day, else «пт 01:00 МСК». */
export function fairPlayUntil(until: number, now: number): string {
  const time = wipeTime(until);
  return moscowTimeText(moscowDay(until) === moscowDay(now) ? time : `${weekdayFormat.format(until)} ${time}`);
}

/** The Корзина's note on a waiting entry: «Выдаётся через 3 ч после вайпа, с 01:00 МСК». */
export function fairPlayText(hours: number, until: number, now: number): string {
  return FAIR_PLAY_TEXT.closed(hours, fairPlayUntil(until, now));
}

/** A window as the shop knows it: what it holds back, until when, and whether buying stays open. */
export interface ShopWindow {
  /** The items it holds back: the one item, or its category's items of the type. */
  itemIds: number[];
  kind: "item" | "category";
  name: string;
  hours: number;
  purchasesOpen: boolean;
  /** The latest end among the type's servers: when buying opens again. */
  until: number;
  /** The earliest end: when a waiting delivery can first go out. */
  firstUntil: number;
}

const holds = (window: ShopWindow, item: { id: number }) => window.itemIds.includes(item.id);

/** The window that closes buying `item` the longest, or null: what the card, the page and the refusal say. */
export function closingWindow(windows: readonly ShopWindow[], item: { id: number }) {
  let found: ShopWindow | null = null;
  for (const window of windows)
    if (!window.purchasesOpen && holds(window, item) && (!found || window.until > found.until)) found = window;
  return found;
}

/** The window a bought `item` waits out first, or null: what its receipt says. */
export function waitingWindow(windows: readonly ShopWindow[], item: { id: number }) {
  let found: ShopWindow | null = null;
  for (const window of windows)
    if (holds(window, item) && (!found || window.firstUntil < found.firstUntil)) found = window;
  return found;
}

/** «Покупка «VIP» закрыта после вайпа до сб, 28 ноября в 18:00 МСК». */
export function purchaseClosedText(window: Pick<ShopWindow, "kind" | "name" | "until">): string {
  return FAIR_PLAY_TEXT.purchaseClosed(window, moscowTimeText(wipeDate(window.until)));
}

/** A receipt's delivery hint while the window holds the item back: how long and until when. */
export function receiptWaitsText(window: Pick<ShopWindow, "hours" | "firstUntil">, serverType: string): string {
  return FAIR_PLAY_TEXT.receiptWaits(window.hours, serverType, moscowTimeText(wipeDate(window.firstUntil)));
}
