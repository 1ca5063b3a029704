// A server's wipe schedule and its next wipes (decision 128). Pure and browser-safe: the server list
// computes the next wipe from the status document on the server and again in the browser.
//
// Arithmetic in Moscow days with a fixed offset (UTC+3, no daylight saving since 2014); text by Intl
// in "Europe/Moscow". The property tests hold the two to each other.

import { moscowTimeText } from "../messages/common.ts";
import { WIPE_TEXT } from "../messages/wipe.ts";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Moscow is UTC+3 all year. */
export const MOSCOW_OFFSET_MS = 3 * HOUR_MS;
export const MOSCOW_TIME_ZONE = "Europe/Moscow";

/** Facepunch's forced wipe: the first Thursday of the month at 19:00 UTC, 22:00 in Moscow. */
export const FORCED_WIPE_UTC_HOUR = 19;
const FORCED_WIPE_MINUTE = (FORCED_WIPE_UTC_HOUR * 60 + MOSCOW_OFFSET_MS / MINUTE_MS) % (24 * 60);
const THURSDAY = 4;

export const WIPE_KINDS = ["none", "weekly", "every_weeks", "forced"] as const;
export type WipeKind = (typeof WIPE_KINDS)[number];
export const MIN_EVERY_WEEKS = 2;
export const MAX_EVERY_WEEKS = 8;

export type WipeSchedule =
  | { kind: "none" }
  | { kind: "forced" }
  /** `weekday`: 1 Monday … 7 Sunday; `minute`: minutes after Moscow midnight. */
  | { kind: "weekly"; weekday: number; minute: number }
  /** Every `weeks` weeks from the Moscow date `from` ("YYYY-MM-DD"), at `minute` Moscow time. */
  | { kind: "every_weeks"; weeks: number; from: string; minute: number };

export interface Wipe {
  /** The instant, ms since the epoch (UTC). */
  at: number;
  /** Facepunch's forced wipe. */
  forced: boolean;
}

export const NO_SCHEDULE: WipeSchedule = { kind: "none" };

/** Days since 1970-01-01 in Moscow. */
export function moscowDay(ms: number): number {
  return Math.floor((ms + MOSCOW_OFFSET_MS) / DAY_MS);
}

/** The Moscow calendar date of an instant, "YYYY-MM-DD". */
export function moscowDate(ms: number): string {
  return new Date(moscowDay(ms) * DAY_MS).toISOString().slice(0, 10);
}

/** The instant a Moscow day starts (00:00 Moscow). */
function dayStart(day: number): number {
  return day * DAY_MS - MOSCOW_OFFSET_MS;
}

/** 1 Monday … 7 Sunday of a Moscow day (1970-01-01 was a Thursday). */
function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** The Moscow day of a "YYYY-MM-DD" date, or null when it is not a real date. */
export function dayOfDate(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, dayOfMonth);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== dayOfMonth)
    return null;
  return ms / DAY_MS;
}

/** The forced wipe of a month (`month` 0–11): its first Thursday, 19:00 UTC. */
export function forcedWipeAt(year: number, month: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return Date.UTC(year, month, 1 + ((THURSDAY - firstWeekday + 7) % 7), FORCED_WIPE_UTC_HOUR);
}

function isForcedWipeDay(day: number): boolean {
  return isoWeekday(day) === THURSDAY && new Date(day * DAY_MS).getUTCDate() <= 7;
}

function scheduledOn(schedule: WipeSchedule, day: number): number | null {
  switch (schedule.kind) {
    case "weekly":
      return isoWeekday(day) === schedule.weekday ? schedule.minute : null;
    case "every_weeks": {
      const from = dayOfDate(schedule.from);
      if (from === null || day < from) return null;
      return (day - from) % (7 * schedule.weeks) === 0 ? schedule.minute : null;
    }
    default:
      return null;
  }
}

/**
 * The next `count` wipes after `now`, earliest first: the schedule's own, and every forced wipe,
 * which replaces a scheduled wipe on its Moscow day. None for a server without a schedule.
 */
export function nextWipes(schedule: WipeSchedule, now: number, count: number): Wipe[] {
  if (schedule.kind === "none" || count <= 0) return [];
  const wipes: Wipe[] = [];
  const first = moscowDay(now);
  // Each month has a forced wipe, so `count` wipes are always within `count` months and a week.
  const last = first + (count + 1) * 37;
  for (let day = first; day <= last && wipes.length < count; day++) {
    const forced = isForcedWipeDay(day);
    const minute = forced ? FORCED_WIPE_MINUTE : scheduledOn(schedule, day);
    if (minute === null) continue;
    const at = dayStart(day) + minute * MINUTE_MS;
    if (at > now) wipes.push({ at, forced });
  }
  return wipes;
}

/**
 * How far the wipe calendar looks (issue 46): to the first forced wipe at least `minDays` days after
 * `now`. Every server with a schedule wipes on a forced wipe, so a calendar that ends on one lists
 * every such server on its last day, and each server's rows run to the same date.
 */
export function calendarHorizon(now: number, minDays = 14): number {
  const date = new Date(now + minDays * DAY_MS);
  for (let month = date.getUTCMonth(), year = date.getUTCFullYear(); ; month++) {
    const at = forcedWipeAt(year + Math.floor(month / 12), month % 12);
    if (at >= now + minDays * DAY_MS) return at;
  }
}

/** Every wipe of `schedule` after `now` up to `until`, inclusive, earliest first. */
export function wipesUntil(schedule: WipeSchedule, now: number, until: number): Wipe[] {
  // A weekly schedule wipes at most once a day: the days to `until` bound the count.
  const days = Math.ceil((until - now) / DAY_MS) + 1;
  return nextWipes(schedule, now, days).filter((wipe) => wipe.at <= until);
}

export function nextWipe(schedule: WipeSchedule, now: number): Wipe | null {
  return nextWipes(schedule, now, 1)[0] ?? null;
}

/**
 * The schedule's last wipe at or before `now` (decision 129), the forced wipe replacing a scheduled
 * one on its day as in `nextWipes`; null for a server without a schedule.
 */
export function lastWipe(schedule: WipeSchedule, now: number): Wipe | null {
  if (schedule.kind === "none") return null;
  const today = moscowDay(now);
  // Each month has a forced wipe, so one is always within the last 37 days.
  for (let day = today; day >= today - 37; day--) {
    const forced = isForcedWipeDay(day);
    const minute = forced ? FORCED_WIPE_MINUTE : scheduledOn(schedule, day);
    if (minute === null) continue;
    const at = dayStart(day) + minute * MINUTE_MS;
    if (at <= now) return { at, forced };
  }
  return null;
}

const timeFormat = new Intl.DateTimeFormat("ru-RU", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: MOSCOW_TIME_ZONE,
});
const weekdayFormat = new Intl.DateTimeFormat("ru-RU", { weekday: "short", timeZone: MOSCOW_TIME_ZONE });
const dateFormat = new Intl.DateTimeFormat("ru-RU", {
  weekday: "short",
  day: "numeric",
  month: "long",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: MOSCOW_TIME_ZONE,
});
const fromDateFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  timeZone: "UTC",
});
const daysAuto = new Intl.RelativeTimeFormat("ru", { numeric: "auto" });
const daysAlways = new Intl.RelativeTimeFormat("ru", { numeric: "always" });
const shortAgo = new Intl.RelativeTimeFormat("ru", { numeric: "always", style: "short" });

/** «22:00», Moscow time. */
export function wipeTime(at: number): string {
  return timeFormat.format(at);
}

/** «чт 22:00», Moscow time: a wipe within the coming week. One line: a narrow card never parts the day from its time. */
export function weekdayTime(at: number): string {
  return `${weekdayFormat.format(at)}\u00a0${wipeTime(at)}`;
}

/** «чт, 3 декабря в 22:00», Moscow time: a line of the wipe calendar. */
export function wipeDate(at: number): string {
  return dateFormat.format(at);
}

/**
 * What a server card says of the wipe (decision 128): a reported wipe under a day old («вайп был
 * 3 ч назад»), else the next one («вайп сегодня в 22:00», «вайп завтра в 22:00», «вайп через 2 дня,
 * чт 22:00»), else an older reported wipe («вайп был 2 дня назад»); null when nothing is known.
 */
export function wipePhrase(schedule: WipeSchedule, wipedAt: number | null | undefined, now: number): string | null {
  const since = wipedAt == null ? null : now - wipedAt;
  if (since !== null && since < DAY_MS && since > -DAY_MS) return wasPhrase(Math.max(0, since));
  const next = nextWipe(schedule, now);
  if (next) return nextPhrase(next.at, now);
  if (since !== null && since > 0) return wasPhrase(since);
  return null;
}

function wasPhrase(since: number): string {
  if (since < MINUTE_MS) return WIPE_TEXT.justNow;
  if (since < HOUR_MS) return WIPE_TEXT.was(shortAgo.format(-Math.floor(since / MINUTE_MS), "minute"));
  if (since < DAY_MS) return WIPE_TEXT.was(shortAgo.format(-Math.floor(since / HOUR_MS), "hour"));
  return WIPE_TEXT.was(daysAlways.format(-Math.floor(since / DAY_MS), "day"));
}

/** The next wipe at `at` as seen at `now`, counted in Moscow calendar days. */
export function nextPhrase(at: number, now: number): string {
  const days = moscowDay(at) - moscowDay(now);
  // Labelled: the card, the item page and /wipes say Moscow time (decision 140).
  const time = moscowTimeText(wipeTime(at));
  if (days <= 1) return WIPE_TEXT.soon(daysAuto.format(days, "day"), time);
  return WIPE_TEXT.later(daysAlways.format(days, "day"), weekdayFormat.format(at), time);
}

/** «14:00» from minutes after midnight. */
export function minuteText(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** Minutes after midnight from «14:00» (or «9:05»); null when it is not a time of day. */
export function parseMinute(text: string): number | null {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The schedule in a few words: «каждую неделю: чт 14:00», «раз в 2 недели: чт 14:00, с 03.12.2026». */
export function scheduleText(schedule: WipeSchedule): string {
  switch (schedule.kind) {
    case "none":
      return WIPE_TEXT.kindNone;
    case "forced":
      return WIPE_TEXT.kindForced;
    case "weekly":
      return WIPE_TEXT.weekly(
        WIPE_TEXT.weekdays[schedule.weekday - 1] ?? "",
        moscowTimeText(minuteText(schedule.minute)),
      );
    case "every_weeks": {
      const from = dayOfDate(schedule.from) ?? 0;
      return WIPE_TEXT.everyWeeks(
        schedule.weeks,
        WIPE_TEXT.weekdays[isoWeekday(from) - 1] ?? "",
        moscowTimeText(minuteText(schedule.minute)),
        fromDateFormat.format(from * DAY_MS),
      );
    }
  }
}

/** A schedule as the database keeps it: a kind and the columns that kind uses. */
export interface WipeColumns {
  wipeKind: string | null;
  wipeWeekday: number | null;
  wipeMinute: number | null;
  wipeEveryWeeks: number | null;
  wipeFrom: string | null;
}

/** The columns' schedule; anything inconsistent reads as no schedule, never as a wrong promise. */
export function scheduleFromColumns(row: WipeColumns): WipeSchedule {
  return (
    parseWipeSchedule({
      kind: row.wipeKind,
      weekday: row.wipeWeekday,
      minute: row.wipeMinute,
      weeks: row.wipeEveryWeeks,
      from: row.wipeFrom,
    }) ?? NO_SCHEDULE
  );
}

export function scheduleToColumns(schedule: WipeSchedule): WipeColumns {
  return {
    wipeKind: schedule.kind,
    wipeWeekday: schedule.kind === "weekly" ? schedule.weekday : null,
    wipeMinute: schedule.kind === "weekly" || schedule.kind === "every_weeks" ? schedule.minute : null,
    wipeEveryWeeks: schedule.kind === "every_weeks" ? schedule.weeks : null,
    wipeFrom: schedule.kind === "every_weeks" ? schedule.from : null,
  };
}

const isInt = (value: unknown, min: number, max: number): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/**
 * A well-formed schedule from anything (the status document, the columns), keeping only the fields
 * its kind uses; null when it is not one. Hand-written so the browser's bundle needs no schema library.
 */
export function parseWipeSchedule(value: unknown): WipeSchedule | null {
  if (typeof value !== "object" || value === null) return null;
  const raw = value as Record<string, unknown>;
  switch (raw.kind) {
    case "none":
    case "forced":
      return { kind: raw.kind };
    case "weekly":
      return isInt(raw.weekday, 1, 7) && isInt(raw.minute, 0, 24 * 60 - 1)
        ? { kind: "weekly", weekday: raw.weekday, minute: raw.minute }
        : null;
    case "every_weeks":
      return isInt(raw.weeks, MIN_EVERY_WEEKS, MAX_EVERY_WEEKS) &&
        isInt(raw.minute, 0, 24 * 60 - 1) &&
        typeof raw.from === "string" &&
        dayOfDate(raw.from) !== null
        ? { kind: "every_weeks", weeks: raw.weeks, from: raw.from, minute: raw.minute }
        : null;
    default:
      return null;
  }
}

/**
 * The earliest next wipe among the servers of a type (the item page's note, decision 128): the
 * server's name, the card's phrase and when; null when no server of the type has announced a schedule.
 */
export function nextWipeOfType(
  servers: readonly { name: string; server_type: string; wipe?: WipeSchedule | null }[],
  serverType: string,
  now: number,
): { server: string; phrase: string; at: number } | null {
  const best = earliestNextWipe(
    servers.filter((server) => server.server_type === serverType),
    (server) => server.wipe ?? NO_SCHEDULE,
    now,
  );
  return best && { server: best.of.name, phrase: nextPhrase(best.at, now), at: best.at };
}

/** Which of `all` wipes first after `now` by its schedule, and when; null when none has a schedule. */
export function earliestNextWipe<T>(
  all: readonly T[],
  scheduleOf: (one: T) => WipeSchedule,
  now: number,
): { of: T; at: number } | null {
  let best: { of: T; at: number } | null = null;
  for (const one of all) {
    const next = nextWipe(scheduleOf(one), now);
    if (next && (best === null || next.at < best.at)) best = { of: one, at: next.at };
  }
  return best;
}
