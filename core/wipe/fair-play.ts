// The fair-play window's words (decision 129). Pure and browser-safe.

import { FAIR_PLAY_TEXT } from "../messages/wipe.ts";
import { moscowDay, wipeTime } from "./schedule.ts";

const weekdayFormat = new Intl.DateTimeFormat("ru-RU", { weekday: "short", timeZone: "Europe/Moscow" });

/** When the window ends as seen at `now`: «01:00» the same Moscow day, else «пт 01:00». */
export function fairPlayUntil(until: number, now: number): string {
  const time = wipeTime(until);
  return moscowDay(until) === moscowDay(now) ? time : `${weekdayFormat.format(until)} ${time}`;
}

/** «Наборы выдаются через 3 ч после вайпа, с 01:00». */
export function fairPlayText(hours: number, until: number, now: number): string {
  return FAIR_PLAY_TEXT.closed(hours, fairPlayUntil(until, now));
}
