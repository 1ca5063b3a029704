// The promo code format: one rule for redemption and for the operator's SQL builder (db/seed/promo-sql.ts).

/** 3–32 characters of A–Z, 0–9, underscore and hyphen, after trimming and upper-casing. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/** Codes are trimmed and compared case-insensitively; they are stored upper-case. */
export function normalizePromoCode(raw: string): string {
  return raw.trim().toUpperCase();
}

export function isWellFormedPromoCode(code: string): boolean {
  return PROMO_CODE_PATTERN.test(code);
}
