// From a purchase the balance can't cover to the top-up form and back: the missing amount, the form's
// address with it filled in, and where the payment's return brings the player (the item, ready to buy).

import { MIN_TOP_UP_RUBLES } from "./limits.ts";

/** What a price is short of the balance, in rubles (0 when the balance covers it). */
export function missingRubles(priceRubles: number, balanceRubles: number): number {
  const missing = Math.round(priceRubles * 100) - Math.round(balanceRubles * 100);
  return missing > 0 ? missing / 100 : 0;
}

/** What to top up to cover `missing`: the missing amount, at least the smallest top-up. */
export function topUpAmountFor(missing: number): number {
  return Math.max(MIN_TOP_UP_RUBLES, Math.ceil(missing * 100) / 100);
}

/**
 * The item page a top-up returns to, with the chosen duration ready and, for a gift, the friend's
 * SteamID64, so the purchase after paying is still the gift (issue 36).
 */
export function itemReturnPath(
  itemId: number,
  durationDays: number | null | undefined,
  giftSteamId?: string | null,
): string {
  const params = new URLSearchParams();
  if (durationDays != null) params.set("duration", String(durationDays));
  if (giftSteamId) params.set("gift_to", giftSteamId);
  const search = params.toString();
  return search ? `/shop/items/${itemId}?${search}` : `/shop/items/${itemId}`;
}

/** The top-up form with `amount` filled in and the address to come back to after paying. */
export function topUpHref(amount: number | null, returnTo: string | null): string {
  const params = new URLSearchParams();
  if (amount != null) params.set("amount", String(amount));
  if (returnTo) params.set("return_to", returnTo);
  const search = params.toString();
  return search ? `/balance?${search}` : "/balance";
}

/** The amounts the top-up form offers with one click, in rubles. */
export const TOP_UP_PRESETS = [100, 300, 500, 1000] as const;
