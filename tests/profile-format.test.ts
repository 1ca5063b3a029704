import { describe, expect, it } from "vitest";
import { formatDate, timeLeft } from "#core/format/dates.ts";
import { formatRubles, kopecksToRubles } from "#core/format/money.ts";
import { formatDays, formatDuration } from "#core/format/plural.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";

describe("formatDate", () => {
  it("prints ru-RU date and Moscow time", () => {
    expect(formatDate("2026-11-20T10:00:00.000Z")).toBe("20.11.2026, 13:00");
    expect(formatDate(Date.parse("2025-03-19T21:30:00Z"))).toBe("20.03.2025, 00:30");
    expect(formatDate(new Date("2026-01-02T00:00:00Z"))).toBe("02.01.2026, 03:00");
  });

  it("says Нет данных when the date is missing", () => {
    expect(formatDate(null)).toBe("Нет данных");
    expect(formatDate(undefined)).toBe("Нет данных");
    expect(formatDate("")).toBe("Нет данных");
  });

  it("says Неверная дата when the value is not a date", () => {
    expect(formatDate("вчера")).toBe("Неверная дата");
    expect(formatDate(Number.NaN)).toBe("Неверная дата");
    expect(formatDate(8.64e15 + 1)).toBe("Неверная дата");
  });

  it("says Ошибка даты when the value can't be converted at all", () => {
    expect(formatDate(Symbol("x"))).toBe("Ошибка даты");
  });
});

describe("timeLeft", () => {
  const now = "2026-11-22T12:00:00.000Z";
  const inFuture = (ms: number) => new Date(Date.parse(now) + ms).toISOString();
  const HOUR = 60 * 60 * 1000;
  const DAY = 24 * HOUR;

  it("counts whole days, then whole hours, rounding down, with the verb and noun agreeing", () => {
    expect(timeLeft(inFuture(6 * DAY + 23 * HOUR), now)).toBe("осталось 6 дней 23 часа");
    // A 7-day rank bought a minute ago (issue 36).
    expect(timeLeft(inFuture(7 * DAY - 60_000), now)).toBe("осталось 6 дней 23 часа");
    expect(timeLeft(inFuture(DAY + HOUR), now)).toBe("остался 1 день 1 час");
    expect(timeLeft(inFuture(21 * DAY), now)).toBe("остался 21 день");
    expect(timeLeft(inFuture(3 * DAY), now)).toBe("осталось 3 дня");
    expect(timeLeft(inFuture(DAY), now)).toBe("остался 1 день");
    expect(timeLeft(inFuture(DAY - 1), now)).toBe("осталось 23 часа");
    expect(timeLeft(inFuture(21 * HOUR + 59 * 60 * 1000), now)).toBe("остался 21 час");
    expect(timeLeft(inFuture(5 * HOUR), now)).toBe("осталось 5 часов");
    expect(timeLeft(inFuture(HOUR - 1), now)).toBe("осталось меньше часа");
  });

  it("says the term is over once it is", () => {
    expect(timeLeft(now, now)).toBe("срок истёк");
    expect(timeLeft(inFuture(-DAY), now)).toBe("срок истёк");
  });

  it("says Неверная дата for a date it can't read", () => {
    expect(timeLeft("скоро", now)).toBe("Неверная дата");
  });
});

describe("durations", () => {
  it("uses день / дня / дней by Russian plural rules", () => {
    expect(formatDays(1)).toBe("1 день");
    expect(formatDays(2)).toBe("2 дня");
    expect(formatDays(4)).toBe("4 дня");
    expect(formatDays(5)).toBe("5 дней");
    expect(formatDays(11)).toBe("11 дней");
    expect(formatDays(14)).toBe("14 дней");
    expect(formatDays(21)).toBe("21 день");
    expect(formatDays(22)).toBe("22 дня");
    expect(formatDays(30)).toBe("30 дней");
    expect(formatDays(101)).toBe("101 день");
    expect(formatDays(111)).toBe("111 дней");
  });

  it("says Навсегда for permanent entries", () => {
    expect(formatDuration({ is_permanent: true, duration: 30 })).toBe("Навсегда");
    expect(formatDuration({ is_permanent: false, duration: null })).toBe("Навсегда");
    expect(formatDuration({ is_permanent: false, duration: 7 })).toBe("7 дней");
  });
});

describe("money and server types", () => {
  it("turns kopecks into rubles and prints them the ru-RU way", () => {
    expect(kopecksToRubles(14950)).toBe(149.5);
    expect(formatRubles(100)).toBe("100\u00a0₽");
    expect(formatRubles(149.5)).toBe("149,5\u00a0₽");
    // No-break spaces throughout: «745 ₽» never wraps before the sign (issue 36).
    expect(formatRubles(1234567)).toBe("1\u00a0234\u00a0567\u00a0₽");
  });

  it("spells NO_LIMIT as NO LIMIT x5 Loot", () => {
    expect(serverTypeLabel("NO_LIMIT")).toBe("NO LIMIT x5 Loot");
    expect(serverTypeLabel("MAX2")).toBe("MAX2");
  });
});
