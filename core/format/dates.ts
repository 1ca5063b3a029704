// Dates as players read them: ru-RU, Moscow time on the server and in the browser alike,
// so a server-rendered page and its hydrated copy print the same text.

import { moscowTimeText } from "../messages/common.ts";
import { formatDays, pluralRu } from "./plural.ts";

export const DATE_MISSING = "Нет данных";
export const DATE_INVALID = "Неверная дата";
export const DATE_ERROR = "Ошибка даты";

export const DISPLAY_TIME_ZONE = "Europe/Moscow";

const dateTimeFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: DISPLAY_TIME_ZONE,
});

/**
 * A date and time such as «22.11.2026, 15:00».
 * Missing (null, undefined, empty) gives «Нет данных», an unparseable value «Неверная дата»,
 * a value that can't even be converted «Ошибка даты».
 */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === "") return DATE_MISSING;
  try {
    const date = value instanceof Date ? value : new Date(value as string | number);
    if (Number.isNaN(date.getTime())) return DATE_INVALID;
    return dateTimeFormat.format(date);
  } catch {
    return DATE_ERROR;
  }
}

/** «22.11.2026, 15:00 МСК»: a time a player reads beside other text, labelled (decision 140). */
export function formatMoscowDate(value: unknown): string {
  const text = formatDate(value);
  return text === DATE_MISSING || text === DATE_INVALID || text === DATE_ERROR ? text : moscowTimeText(text);
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const HOUR_FORMS = { one: "час", few: "часа", many: "часов" };
// «остался 1 день», «осталось 2 дня»: the verb agrees with the count.
const LEFT_FORMS = { one: "остался", few: "осталось", many: "осталось" };

/**
 * What is left of a timed privilege at `now`: «осталось 6 дней 23 часа», «остался 21 час»,
 * «осталось меньше часа», or «срок истёк». Whole days and hours, rounded down, so the
 * page never promises more than there is, and a 7-day rank bought a minute ago doesn't read
 * as «6 дней» (issue 36). `now` comes from the loader, so the server and the hydrated page
 * print the same text.
 */
export function timeLeft(expiresAt: string, now: string): string {
  const left = Date.parse(expiresAt) - Date.parse(now);
  if (Number.isNaN(left)) return DATE_INVALID;
  if (left <= 0) return "срок истёк";
  if (left >= DAY_MS) {
    const days = Math.floor(left / DAY_MS);
    const hours = Math.floor((left % DAY_MS) / HOUR_MS);
    const rest = hours > 0 ? ` ${hours} ${pluralRu(hours, HOUR_FORMS)}` : "";
    return `${pluralRu(days, LEFT_FORMS)} ${formatDays(days)}${rest}`;
  }
  if (left >= HOUR_MS) {
    const hours = Math.floor(left / HOUR_MS);
    return `${pluralRu(hours, LEFT_FORMS)} ${hours} ${pluralRu(hours, HOUR_FORMS)}`;
  }
  return "осталось меньше часа";
}
