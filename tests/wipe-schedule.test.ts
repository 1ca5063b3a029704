// Decision 128: the wipe schedule's arithmetic and the phrases players read. The properties check the
// fixed-offset arithmetic against Intl's own "Europe/Moscow" across month ends, year ends and Moscow
// midnights; the examples pin the texts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  forcedWipeAt,
  nextWipes,
  parseMinute,
  parseWipeSchedule,
  scheduleFromColumns,
  scheduleText,
  scheduleToColumns,
  type WipeSchedule,
  wipeDate,
  wipePhrase,
} from "#core/wipe/schedule.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

const moscowParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "Europe/Moscow",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** What Intl says an instant is in Moscow: the oracle the arithmetic is held to. */
function inMoscow(at: number) {
  const parts = Object.fromEntries(moscowParts.formatToParts(at).map((part) => [part.type, part.value]));
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  return {
    key: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    /** Whole days since 1970-01-01 of the Moscow calendar date. */
    date: Date.UTC(year, month - 1, day) / DAY,
    day,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? "") + 1,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const isForcedDay = (moment: ReturnType<typeof inMoscow>) => moment.weekday === 4 && moment.day <= 7;
const FORCED_MINUTE = 22 * 60;

/** The minute of a Moscow date's scheduled wipe by the oracle's calendar, ignoring the forced wipe. */
function scheduledMinute(schedule: WipeSchedule, moment: ReturnType<typeof inMoscow>): number | null {
  if (schedule.kind === "weekly") return moment.weekday === schedule.weekday ? schedule.minute : null;
  if (schedule.kind === "every_weeks") {
    const from = Date.parse(`${schedule.from}T00:00:00Z`) / DAY;
    const since = moment.date - from;
    return since >= 0 && since % (7 * schedule.weeks) === 0 ? schedule.minute : null;
  }
  return null;
}

const minute = fc.integer({ min: 0, max: 24 * 60 - 1 });
const schedule: fc.Arbitrary<WipeSchedule> = fc.oneof(
  fc.constant<WipeSchedule>({ kind: "forced" }),
  fc.record({ kind: fc.constant("weekly" as const), weekday: fc.integer({ min: 1, max: 7 }), minute }),
  fc.record({
    kind: fc.constant("every_weeks" as const),
    weeks: fc.integer({ min: 2, max: 8 }),
    from: fc
      .integer({ min: Date.UTC(2019, 0, 1) / DAY, max: Date.UTC(2036, 0, 1) / DAY })
      .map((day) => new Date(day * DAY).toISOString().slice(0, 10)),
    minute,
  }),
);
const uniformInstant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 11, 31) });
/** Instants within three days of a month's end, where the forced wipe and the calendar turn over. */
const nearMonthEnd = fc
  .record({
    year: fc.integer({ min: 2020, max: 2035 }),
    month: fc.integer({ min: 0, max: 11 }),
    shift: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
  })
  .map(({ year, month, shift }) => Date.UTC(year, month + 1, 1) + shift);
/** Instants within two hours of Moscow midnight (21:00 UTC), where Moscow's day differs from UTC's. */
const nearMoscowMidnight = fc
  .record({
    day: fc.integer({ min: Date.UTC(2020, 0, 1) / DAY, max: Date.UTC(2035, 0, 1) / DAY }),
    shift: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
  })
  .map(({ day, shift }) => day * DAY + 21 * HOUR + shift);
const instant = fc.oneof(uniformInstant, nearMonthEnd, nearMoscowMidnight);

describe("next wipes, held to Intl's Moscow time", () => {
  it("are after now, in order, each a forced wipe (first Thursday, 22:00) or the schedule's own weekday and time", () => {
    fc.assert(
      fc.property(schedule, instant, (plan, now) => {
        const wipes = nextWipes(plan, now, 6);
        expect(wipes).toHaveLength(6);
        let previous = now;
        for (const wipe of wipes) {
          expect(wipe.at).toBeGreaterThan(previous);
          previous = wipe.at;
          const moment = inMoscow(wipe.at);
          if (wipe.forced) {
            expect(isForcedDay(moment)).toBe(true);
            expect(moment.minute).toBe(FORCED_MINUTE);
          } else {
            expect(isForcedDay(moment)).toBe(false);
            expect(scheduledMinute(plan, moment)).toBe(moment.minute);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it("skip no wipe: every Moscow date with a wipe due between now and the last one is listed, once", () => {
    fc.assert(
      fc.property(schedule, instant, (plan, now) => {
        const wipes = nextWipes(plan, now, 4);
        const last = wipes.at(-1)?.at ?? now;
        const today = inMoscow(now);
        const expected: string[] = [];
        // Noon UTC is 15:00 in Moscow: one probe per Moscow date, the calendar read by Intl alone.
        for (let probe = Math.floor(now / DAY) * DAY + 12 * HOUR; probe <= last + DAY; probe += DAY) {
          const moment = inMoscow(probe);
          if (moment.date < today.date || moment.date > inMoscow(last).date) continue;
          const due = isForcedDay(moment) ? FORCED_MINUTE : scheduledMinute(plan, moment);
          if (due === null) continue;
          if (moment.date === today.date && due <= today.minute) continue;
          expected.push(moment.key);
        }
        expect(wipes.map((wipe) => inMoscow(wipe.at).key)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("find one forced wipe a month, on the month's first Thursday at 22:00 in Moscow", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2020, max: 2035 }), fc.integer({ min: 0, max: 11 }), (year, month) => {
        const forced = forcedWipeAt(year, month);
        const moment = inMoscow(forced);
        expect(isForcedDay(moment)).toBe(true);
        expect(moment.minute).toBe(FORCED_MINUTE);
        expect(new Date(forced).getUTCMonth()).toBe(month);
        const start = Date.UTC(year, month, 1);
        const wipes = nextWipes({ kind: "forced" }, start, 12);
        expect(wipes.every((wipe) => wipe.forced)).toBe(true);
        expect(wipes.map((wipe) => wipe.at)).toEqual(
          Array.from({ length: 12 }, (_, index) => forcedWipeAt(year, month + index)),
        );
      }),
    );
  });

  it("read «сегодня» and «завтра» by Moscow's calendar day, not UTC's", () => {
    fc.assert(
      fc.property(schedule, instant, (plan, now) => {
        const [next] = nextWipes(plan, now, 1);
        if (!next) throw new Error("a schedule always has a next wipe");
        const days = inMoscow(next.at).date - inMoscow(now).date;
        const phrase = wipePhrase(plan, null, now) ?? "";
        const time = `${String(Math.floor(inMoscow(next.at).minute / 60)).padStart(2, "0")}:${String(inMoscow(next.at).minute % 60).padStart(2, "0")}`;
        if (days === 0) expect(phrase).toBe(`вайп сегодня в ${time}\u00a0МСК`);
        else if (days === 1) expect(phrase).toBe(`вайп завтра в ${time}\u00a0МСК`);
        else
          expect(phrase).toMatch(
            new RegExp(`^вайп через ${days} (день|дня|дней), (пн|вт|ср|чт|пт|сб|вс) ${time}\u00a0МСК$`),
          );
      }),
      { numRuns: 300 },
    );
  });
});

// Thursday 26 November 2026 is a Thursday; the forced wipe of December 2026 is Thursday the 3rd.
const TUESDAY_10_MSK = Date.parse("2026-12-01T07:00:00Z");

describe("what a server card says", () => {
  it("names the next wipe by the Moscow day", () => {
    expect(wipePhrase({ kind: "weekly", weekday: 2, minute: 20 * 60 }, null, TUESDAY_10_MSK)).toBe(
      "вайп сегодня в 20:00\u00a0МСК",
    );
    expect(wipePhrase({ kind: "weekly", weekday: 3, minute: 18 * 60 }, null, TUESDAY_10_MSK)).toBe(
      "вайп завтра в 18:00\u00a0МСК",
    );
    // A Thursday schedule on forced-wipe day: the forced wipe replaces it.
    expect(wipePhrase({ kind: "weekly", weekday: 4, minute: 14 * 60 }, null, TUESDAY_10_MSK)).toBe(
      "вайп через 2 дня, чт 22:00\u00a0МСК",
    );
    expect(wipePhrase({ kind: "forced" }, null, Date.parse("2026-11-26T12:00:00Z"))).toBe(
      "вайп через 7 дней, чт 22:00\u00a0МСК",
    );
  });

  it("turns the day at Moscow's midnight and the year at Moscow's new year", () => {
    // 23:59 on Tuesday in Moscow is still Tuesday 20:59 in UTC.
    const lateTuesday = Date.parse("2026-12-01T20:59:00Z");
    expect(wipePhrase({ kind: "weekly", weekday: 3, minute: 30 }, null, lateTuesday)).toBe(
      "вайп завтра в 00:30\u00a0МСК",
    );
    const newYearsEve = Date.parse("2026-12-31T20:30:00Z");
    expect(wipePhrase({ kind: "weekly", weekday: 5, minute: 15 }, null, newYearsEve)).toBe(
      "вайп завтра в 00:15\u00a0МСК",
    );
  });

  it("says a reported wipe under a day old first, then the next wipe, then an older reported one", () => {
    const weekly: WipeSchedule = { kind: "weekly", weekday: 3, minute: 18 * 60 };
    expect(wipePhrase(weekly, TUESDAY_10_MSK - 3 * HOUR, TUESDAY_10_MSK)).toBe("вайп был 3 ч назад");
    expect(wipePhrase(weekly, TUESDAY_10_MSK - 15 * 60_000, TUESDAY_10_MSK)).toBe("вайп был 15 мин. назад");
    expect(wipePhrase(weekly, TUESDAY_10_MSK - 20_000, TUESDAY_10_MSK)).toBe("вайп был только что");
    expect(wipePhrase(weekly, TUESDAY_10_MSK - 2 * DAY, TUESDAY_10_MSK)).toBe("вайп завтра в 18:00\u00a0МСК");
    expect(wipePhrase({ kind: "none" }, TUESDAY_10_MSK - 2 * DAY, TUESDAY_10_MSK)).toBe("вайп был 2 дня назад");
    expect(wipePhrase({ kind: "none" }, TUESDAY_10_MSK - 5 * DAY, TUESDAY_10_MSK)).toBe("вайп был 5 дней назад");
    expect(wipePhrase({ kind: "none" }, null, TUESDAY_10_MSK)).toBeNull();
  });
});

describe("schedules", () => {
  it("every N weeks starts at its date and keeps its weekday, the forced wipe in between", () => {
    const fortnightly: WipeSchedule = { kind: "every_weeks", weeks: 2, from: "2026-11-19", minute: 16 * 60 };
    expect(nextWipes(fortnightly, TUESDAY_10_MSK, 5).map((wipe) => [wipeDate(wipe.at), wipe.forced])).toEqual([
      ["чт, 3 декабря в 22:00", true],
      ["чт, 17 декабря в 16:00", false],
      ["чт, 31 декабря в 16:00", false],
      ["чт, 7 января в 22:00", true],
      ["чт, 14 января в 16:00", false],
    ]);
    // Before its first date only the forced wipes count.
    const later: WipeSchedule = { kind: "every_weeks", weeks: 3, from: "2027-01-20", minute: 12 * 60 };
    expect(nextWipes(later, TUESDAY_10_MSK, 3).map((wipe) => wipeDate(wipe.at))).toEqual([
      "чт, 3 декабря в 22:00",
      "чт, 7 января в 22:00",
      "ср, 20 января в 12:00",
    ]);
    expect(nextWipes({ kind: "none" }, TUESDAY_10_MSK, 3)).toEqual([]);
  });

  it("reads as a few words", () => {
    expect(scheduleText({ kind: "weekly", weekday: 4, minute: 14 * 60 })).toBe("каждую неделю: чт 14:00\u00a0МСК");
    expect(scheduleText({ kind: "every_weeks", weeks: 2, from: "2026-12-03", minute: 9 * 60 + 5 })).toBe(
      "раз в 2 недели: чт 09:05\u00a0МСК, с 03.12.2026",
    );
    expect(scheduleText({ kind: "every_weeks", weeks: 5, from: "2026-12-05", minute: 0 })).toBe(
      "раз в 5 недель: сб 00:00\u00a0МСК, с 05.12.2026",
    );
    expect(scheduleText({ kind: "forced" })).toBe("только глобальный вайп (первый четверг месяца, 22:00\u00a0МСК)");
    expect(scheduleText({ kind: "none" })).toBe("не задано");
  });

  it("survives the database's columns and refuses what is not a schedule", () => {
    fc.assert(
      fc.property(schedule, (plan) => {
        expect(scheduleFromColumns(scheduleToColumns(plan))).toEqual(plan);
      }),
    );
    expect(parseWipeSchedule({ kind: "weekly", weekday: 8, minute: 0 })).toBeNull();
    expect(parseWipeSchedule({ kind: "weekly", weekday: 1, minute: 1440 })).toBeNull();
    expect(parseWipeSchedule({ kind: "every_weeks", weeks: 1, from: "2026-12-03", minute: 0 })).toBeNull();
    expect(parseWipeSchedule({ kind: "every_weeks", weeks: 9, from: "2026-12-03", minute: 0 })).toBeNull();
    expect(parseWipeSchedule({ kind: "every_weeks", weeks: 2, from: "2026-02-30", minute: 0 })).toBeNull();
    expect(parseWipeSchedule({ kind: "monthly" })).toBeNull();
    expect(parseWipeSchedule(null)).toBeNull();
    expect(
      scheduleFromColumns({
        wipeKind: "weekly",
        wipeWeekday: null,
        wipeMinute: 60,
        wipeEveryWeeks: null,
        wipeFrom: null,
      }),
    ).toEqual({ kind: "none" });
    expect(parseMinute("9:05")).toBe(545);
    expect(parseMinute("24:00")).toBeNull();
    expect(parseMinute("14.00")).toBeNull();
  });
});
