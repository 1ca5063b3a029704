// Texts any part of the site answers with, whatever the area.

export const AUTH_REQUIRED = "Необходима авторизация";
export const UNKNOWN_SERVER_ERROR = "Неизвестная ошибка сервера";
export const NETWORK_ERROR = "Ошибка сети: сервер недоступен";
export const NOT_FOUND = "Не найдено";
export const PAGE_NOT_FOUND = "Страница не найдена";
export const FORBIDDEN = "Доступ запрещен";
export const NOT_JSON = "Неподдерживаемый тип содержимого: нужен application/json";
export const REQUEST_TOO_LARGE = "Слишком большой запрос";
export const BAD_FORM = "Некорректные данные формы";

/** A non-ok answer as the browser's API client reports it. */
export function serverErrorText(status: number, statusText: string): string {
  return `Ошибка сервера: ${status} ${statusText}`.trim();
}

/**
 * Every time a player reads is Moscow time, and says so (decision 140): «чт 22:00 МСК». A no-break
 * space keeps the label with its time on a narrow card.
 */
export const MOSCOW_LABEL = "МСК";
export function moscowTimeText(time: string): string {
  return `${time}\u00a0${MOSCOW_LABEL}`;
}
