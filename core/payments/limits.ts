/** The smallest top-up, in rubles. */
export const MIN_TOP_UP_RUBLES = 10;
/** Our own ceiling, so a typo can't ask the bank for a fortune (not in the spec; see decision 041). */
export const MAX_TOP_UP_RUBLES = 100_000;
/** The longest e-mail address the receipt accepts. */
export const MAX_EMAIL_LENGTH = 254;
