// Price helpers. Money is integer kopecks inside; the API and the
// pages show rubles. The duration rule (price per 30 days pro-rated as
// round(days / 30 × price)) and the discount both round to whole rubles, the
// same arithmetic the purchase SQL does (see worker/services/shop/purchase.ts).

export const KOPECKS_PER_RUBLE = 100;

/** Whole rubles of a pro-rated duration: round(days / 30 × price). */
export function proRatedPrice(days: number, pricePer30DaysKopecks: number): number {
  return Math.round((days * pricePer30DaysKopecks) / 3000) * KOPECKS_PER_RUBLE;
}

/** A duration's own price, else the pro-rated item price. */
export function durationBasePrice(days: number, ownPriceKopecks: number | null, itemPriceKopecks: number): number {
  return ownPriceKopecks ?? proRatedPrice(days, itemPriceKopecks);
}

/** The price after a percent discount, in kopecks rounded to whole rubles. */
export function discounted(priceKopecks: number, discountPercent: number): number {
  if (discountPercent <= 0) return priceKopecks;
  return Math.round((priceKopecks * (100 - discountPercent)) / 10000) * KOPECKS_PER_RUBLE;
}
