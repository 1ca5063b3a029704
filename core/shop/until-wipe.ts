// «До вайпа» as a term (decision 130). It travels everywhere a duration does, as 0 days: the
// purchase's terms and idempotency, the receipt, the statement, the exports and the API. Only what
// computes an end reads 0 as "until the next wipe of the server it was delivered on".

import { formatDays } from "../format/plural.ts";
import { UNTIL_WIPE_TEXT } from "../messages/wipe.ts";
import { moscowDay, weekdayTime, wipeDate } from "../wipe/schedule.ts";

export const UNTIL_WIPE_DAYS = 0;

export function isUntilWipe(days: number | null | undefined): days is 0 {
  return days === UNTIL_WIPE_DAYS;
}

/** A term as a player reads it: «7 дней», «до вайпа». */
export function formatTerm(days: number): string {
  return isUntilWipe(days) ? UNTIL_WIPE_TEXT.term : formatDays(days);
}

/** When a «до вайпа» entry ends, as the Корзина says it: «до вайпа, чт 22:00», or the date when a week or more away. */
export function untilWipeText(at: number, now: number): string {
  const days = moscowDay(at) - moscowDay(now);
  return UNTIL_WIPE_TEXT.until(days >= 0 && days < 7 ? weekdayTime(at) : wipeDate(at));
}
