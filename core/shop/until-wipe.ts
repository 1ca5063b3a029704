// «До вайпа» as a term (decision 130). It travels everywhere a duration does, as 0 days: the
// purchase's terms and idempotency, the receipt, the statement, the exports and the API. Only what
// computes an end reads 0 as "until the next wipe of the server it was delivered on".

import { formatDays } from "../format/plural.ts";
import { moscowTimeText } from "../messages/common.ts";
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

/** When a «до вайпа» entry ends, as the Корзина says it: «до вайпа, чт 22:00 МСК», or the date when a week or more away. */
export function untilWipeText(at: number, now: number): string {
  const days = moscowDay(at) - moscowDay(now);
  return UNTIL_WIPE_TEXT.until(moscowTimeText(days >= 0 && days < 7 ? weekdayTime(at) : wipeDate(at)));
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Under this much time to the wipe, the «до вайпа» choice warns that the term is short and its price
 * the same (decision 139): three days, under half the shortest timed term the shop sells (7 days).
 */
export const UNTIL_WIPE_SOON_MS = 72 * HOUR_MS;

/** What the «до вайпа» choice says beside its price (decision 139). */
export interface UntilWipeOffer {
  /** «закончится чт, 3 декабря в 22:00 МСК», or that the date is not announced. */
  ends: string;
  /** «Вайп уже через 20 ч: …» when the wipe is under UNTIL_WIPE_SOON_MS away; else null. */
  soon: string | null;
}

/**
 * The offer of «до вайпа» when the earliest server of the item's type wipes at `wipeAt` (null: none
 * announced), as seen at `now`. The earliest, since a term may be delivered on any server of the type.
 */
export function untilWipeOffer(wipeAt: number | null, now: number): UntilWipeOffer {
  if (wipeAt === null) return { ends: UNTIL_WIPE_TEXT.endsUnknown, soon: null };
  const left = wipeAt - now;
  return {
    ends: UNTIL_WIPE_TEXT.ends(moscowTimeText(wipeDate(wipeAt))),
    soon: left < UNTIL_WIPE_SOON_MS ? UNTIL_WIPE_TEXT.soon(hoursLeftText(left)) : null,
  };
}

/** «20 ч», or «час» when less is left: whole hours, rounded down, so the warning never promises more than there is. */
function hoursLeftText(left: number): string {
  const hours = Math.floor(left / HOUR_MS);
  return hours < 1 ? "час" : `${hours} ч`;
}
