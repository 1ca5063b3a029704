// Dates as players read them: ru-RU, Moscow time on the server and in the browser alike,
// so a server-rendered page and its hydrated copy print the same text.

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
