// The code format lives beside the operator's SQL builder (db/seed/promo-sql.ts), one rule for both.
export { isWellFormedPromoCode, normalizePromoCode, PROMO_CODE_PATTERN } from "#db/seed/promo-sql.ts";
