// The form field that carries the price the player saw (decision 112). Kept apart from the zod
// schemas so the item page's component can name it without bringing zod into the browser bundle.

/** The hidden field of the price shown for `days` (or for a one-off item). */
export function expectedPriceField(days: number | null): string {
  return days == null ? "expected_price" : `expected_price_${days}`;
}
