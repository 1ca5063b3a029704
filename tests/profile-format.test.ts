import { describe, expect, it } from "vitest";
import { formatDate } from "#app/lib/format/dates.ts";
import { formatRubles, kopecksToRubles } from "#app/lib/format/money.ts";
import { formatDays, formatDuration } from "#app/lib/format/plural.ts";
import { serverTypeLabel } from "#app/lib/format/server-type.ts";

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
    expect(formatRubles(100)).toBe("100 ₽");
    expect(formatRubles(149.5)).toBe("149,5 ₽");
    expect(formatRubles(1234567).replace(/\s/g, " ")).toBe("1 234 567 ₽");
  });

  it("spells NO_LIMIT as NO LIMIT x5 Loot", () => {
    expect(serverTypeLabel("NO_LIMIT")).toBe("NO LIMIT x5 Loot");
    expect(serverTypeLabel("MAX2")).toBe("MAX2");
  });
});
