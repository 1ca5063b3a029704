// Top-up rules: the /balance page's browser code checks the same rules before calling the API.

import { TOP_UP_MESSAGES } from "../messages/payments.ts";

export const MIN_TOP_UP_RUBLES = 10;
/** Our own ceiling, so a typo can't ask the bank for a fortune (not in the spec; see decision 041). */
export const MAX_TOP_UP_RUBLES = 100_000;

/** "150", "150.5", "150,50" → 150.5; anything else → NaN. */
export function parseRublesText(text: string): number {
  const normalized = text.trim().replace(",", ".");
  if (!/^\d+(\.\d*)?$/.test(normalized)) return Number.NaN;
  return Number(normalized);
}

/** Whole kopecks, or null when the ruble amount has more than two decimals. */
export function rublesToKopecks(rubles: number): number | null {
  const kopecks = Math.round(rubles * 100);
  return Math.abs(kopecks - rubles * 100) < 1e-6 ? kopecks : null;
}

export interface TopUpFieldErrors {
  amount?: string;
  email?: string;
}

/** The spec's checks, in the order a player reads them. */
export function checkTopUp(amount: number, email: string): TopUpFieldErrors {
  const errors: TopUpFieldErrors = {};
  if (!Number.isFinite(amount) || amount < MIN_TOP_UP_RUBLES) errors.amount = TOP_UP_MESSAGES.amountMin;
  else if (amount > MAX_TOP_UP_RUBLES) errors.amount = TOP_UP_MESSAGES.amountMax;
  else if (rublesToKopecks(amount) === null) errors.amount = TOP_UP_MESSAGES.amountPrecision;
  const trimmed = email.trim();
  if (!trimmed.includes("@") || trimmed.length > 254) errors.email = TOP_UP_MESSAGES.emailInvalid;
  return errors;
}
