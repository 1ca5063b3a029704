// Top-up rules. The /balance page's browser code checks them before calling the API and the
// server's schemas (core/schemas/top-up.ts) check them again, so both read them from here.

import { TOP_UP_MESSAGES } from "../messages/payments.ts";
import { MAX_EMAIL_LENGTH, MAX_TOP_UP_RUBLES, MIN_TOP_UP_RUBLES } from "./limits.ts";

export { MAX_TOP_UP_RUBLES, MIN_TOP_UP_RUBLES };

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

/** What is wrong with a ruble amount, or null: the minimum, then the ceiling, then the kopecks. */
export function amountError(amount: number): string | null {
  if (!Number.isFinite(amount) || amount < MIN_TOP_UP_RUBLES) return TOP_UP_MESSAGES.amountMin;
  if (amount > MAX_TOP_UP_RUBLES) return TOP_UP_MESSAGES.amountMax;
  if (rublesToKopecks(amount) === null) return TOP_UP_MESSAGES.amountPrecision;
  return null;
}

/**
 * Control characters (CR/LF, NUL, the C1 range), line separators, and every format character
 * (\p{Cf}: bidi controls, zero-width spaces and joiners U+200B–U+200D, the word joiner U+2060, the
 * soft hyphen U+00AD, the BOM): the address goes to the provider's receipt, where a line break starts
 * a new field, a bidi control shows the address reversed, and an invisible character makes an
 * address that looks right but delivers nowhere (issue 36).
 */
const UNSAFE_IN_EMAIL = /[\p{Cc}\p{Cf}\p{Bidi_Control}\u2028\u2029]/u;

/** What is wrong with the receipt e-mail (already trimmed), or null. */
export function emailError(email: string): string | null {
  return email.includes("@") && email.length <= MAX_EMAIL_LENGTH && !UNSAFE_IN_EMAIL.test(email)
    ? null
    : TOP_UP_MESSAGES.emailInvalid;
}

export interface TopUpFieldErrors {
  amount?: string;
  email?: string;
}

/** The checks, in the order a player reads them. */
export function checkTopUp(amount: number, email: string): TopUpFieldErrors {
  const errors: TopUpFieldErrors = {};
  const amountProblem = amountError(amount);
  if (amountProblem) errors.amount = amountProblem;
  const emailProblem = emailError(email.trim());
  if (emailProblem) errors.email = emailProblem;
  return errors;
}
