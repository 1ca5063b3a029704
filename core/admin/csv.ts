// CSV for Russian Excel (decision 110): `;` between fields (the decimal comma's list separator), CRLF
// between rows, UTF-8 with a BOM in front of the file so Cyrillic opens as such.

export const CSV_BOM = "\uFEFF";
export const CSV_SEPARATOR = ";";
export const CSV_LINE_END = "\r\n";

/** Moscow has kept UTC+3 all year since 2014. */
const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;

/**
 * A text cell. A value Excel would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return in
 * front) gets a leading `'`; a value holding `;`, a quote or a line break is quoted, its quotes doubled.
 */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** A whole number (ids, days): as is, never guarded, since Excel reads it as the number it is. */
export function csvInteger(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(Math.trunc(value));
}

/** Kopecks as rubles with a decimal comma and two decimals («-1250,50»), a number to Russian Excel. */
export function csvRubles(kopecks: number | null | undefined): string {
  if (kopecks === null || kopecks === undefined) return "";
  const sign = kopecks < 0 ? "-" : "";
  const abs = Math.abs(Math.round(kopecks));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

/** A moment as ISO 8601 in Moscow time: «2026-11-22T15:00:00+03:00». */
export function csvMoment(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  return `${new Date(ms + MOSCOW_OFFSET_MS).toISOString().slice(0, 19)}+03:00`;
}

/** One line: cells already made by the functions above. */
export function csvLine(cells: readonly string[]): string {
  return cells.join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** The start of a Moscow calendar day («2026-11-22») in ms since the epoch, or null for a bad date. */
export function moscowDayStart(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00+03:00`);
  if (Number.isNaN(ms) || new Date(ms + MOSCOW_OFFSET_MS).toISOString().slice(0, 10) !== day) return null;
  return ms;
}
