import { PERMANENT, pluralRu } from "../format/plural.ts";
import { formatTerm } from "./until-wipe.ts";

/** Two characters find Rust names such as «АК», «C4» or «M2» (issue 20; the spec's 3 was too many). */
export const MIN_SEARCH_LENGTH = 2;
export const SEARCH_DELAY_MS = 500;

const SYMBOL_FORMS = { one: "символ", few: "символа", many: "символов" };

/** The search hint for a query shorter than the minimum, or null when the query is long enough (or empty). */
export function searchHint(query: string): string | null {
  const length = query.trim().length;
  if (length === 0 || length >= MIN_SEARCH_LENGTH) return null;
  const missing = MIN_SEARCH_LENGTH - length;
  return `Введите ещё ${missing} ${pluralRu(missing, SYMBOL_FORMS)}`;
}

/** A purchase's duration: Навсегда when permanent, else «7 дней» or «до вайпа». */
export function durationText(days: number | null | undefined): string {
  return days == null ? PERMANENT : formatTerm(days);
}

/** Reload time in hours and minutes: «24 ч», «1 ч 30 мин», «45 мин». */
export function reloadText(seconds: number): string {
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours && minutes) return `${hours} ч ${minutes} мин`;
  if (hours) return `${hours} ч`;
  return `${minutes} мин`;
}
