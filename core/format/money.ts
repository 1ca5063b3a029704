const rublesFormat = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** Kopecks as stored to rubles as the API speaks (two decimals at most). */
export function kopecksToRubles(kopecks: number): number {
  return Math.round(kopecks) / 100;
}

/**
 * «1 250 ₽», «99,5 ₽» (ru-RU grouping and decimal comma). The space before ₽ is a no-break one, as
 * ru-RU's grouping already is, so «745 ₽» never wraps into «745» and «₽» (issue 36).
 */
export function formatRubles(rubles: number): string {
  return `${rublesFormat.format(rubles)}\u00a0₽`;
}
