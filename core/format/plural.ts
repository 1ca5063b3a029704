const pluralRules = new Intl.PluralRules("ru");

/** Picks the Russian word form for a count: one (1, 21), few (2–4, 22), many (5–20, 11–14); fractions use few. */
export function pluralRu(count: number, forms: { one: string; few: string; many: string }): string {
  switch (pluralRules.select(count)) {
    case "one":
      return forms.one;
    case "many":
      return forms.many;
    default:
      return forms.few;
  }
}

const DAY_FORMS = { one: "день", few: "дня", many: "дней" };

/** «1 день», «3 дня», «30 дней». */
export function formatDays(days: number): string {
  return `${days} ${pluralRu(days, DAY_FORMS)}`;
}

export const PERMANENT = "Навсегда";

/** An inventory entry's duration: «Навсегда» when permanent (or no duration), else days with the right plural. */
export function formatDuration(entry: { is_permanent: boolean; duration: number | null | undefined }): string {
  if (entry.is_permanent || entry.duration === null || entry.duration === undefined) return PERMANENT;
  return formatDays(entry.duration);
}
