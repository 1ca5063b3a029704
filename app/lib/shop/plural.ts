// Russian plurals through Intl.PluralRules("ru"): one / few / many.

const rules = new Intl.PluralRules("ru");

export function plural(count: number, forms: { one: string; few: string; many: string }): string {
  const category = rules.select(count);
  if (category === "one") return forms.one;
  if (category === "few") return forms.few;
  return forms.many;
}

export const MIN_SEARCH_LENGTH = 3;
export const SEARCH_DELAY_MS = 500;

/** The search hint for a query shorter than the minimum, or null when the query is long enough (or empty). */
export function searchHint(query: string): string | null {
  const length = query.trim().length;
  if (length === 0 || length >= MIN_SEARCH_LENGTH) return null;
  const missing = MIN_SEARCH_LENGTH - length;
  return `Введите еще ${missing} ${plural(missing, { one: "символ", few: "символа", many: "символов" })}`;
}

/** "7 дней", "1 день", "2 дня". */
export function daysText(days: number): string {
  return `${days} ${plural(days, { one: "день", few: "дня", many: "дней" })}`;
}

/** A purchase's or an entry's duration: Навсегда when permanent. */
export function durationText(days: number | null | undefined): string {
  return days == null ? "Навсегда" : daysText(days);
}

/** Reload time in hours and minutes: "24 ч", "1 ч 30 мин", "45 мин". */
export function reloadText(seconds: number): string {
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours && minutes) return `${hours} ч ${minutes} мин`;
  if (hours) return `${hours} ч`;
  return `${minutes} мин`;
}
