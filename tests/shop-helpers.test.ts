import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isInsufficientFunds, purchaseErrorText } from "#core/messages/shop.ts";
import { formatCountdown, limitedState, quantityInfo } from "#core/shop/limited.ts";
import { durationText, reloadText, searchHint } from "#core/shop/plural.ts";
import { discounted, durationBasePrice, proRatedPrice } from "#core/shop/pricing.ts";
import { resolveServerTypes } from "#core/shop/server-types.ts";

const HOUR = 3_600_000;
const NOW = Date.parse("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(NOW + ms).toISOString();
const limited = (fields: Partial<Parameters<typeof limitedState>[0]>) => ({
  is_limited: true,
  start_time: null,
  end_time: null,
  max_quantity: null,
  sold_quantity: 0,
  ...fields,
});

describe("limited offer states", () => {
  it("upcoming, active, urgent (time or stock), unavailable (ended or sold out)", () => {
    expect(limitedState(limited({ start_time: at(HOUR), end_time: at(9 * HOUR) }), NOW)).toBe("upcoming");
    expect(limitedState(limited({ start_time: at(-HOUR), end_time: at(48 * HOUR) }), NOW)).toBe("active");
    expect(limitedState(limited({ end_time: at(24 * HOUR - 1000) }), NOW)).toBe("urgent");
    expect(limitedState(limited({ end_time: at(24 * HOUR) }), NOW)).toBe("active");
    expect(limitedState(limited({ max_quantity: 50, sold_quantity: 45 }), NOW)).toBe("urgent");
    expect(limitedState(limited({ max_quantity: 50, sold_quantity: 44 }), NOW)).toBe("active");
    expect(limitedState(limited({ end_time: at(-1) }), NOW)).toBe("unavailable");
    expect(limitedState(limited({ max_quantity: 5, sold_quantity: 5 }), NOW)).toBe("unavailable");
    expect(limitedState(limited({ is_limited: false }), NOW)).toBeNull();
  });

  it("formats the countdown as days/hours, hours/minutes or minutes/seconds", () => {
    expect(formatCountdown((2 * 24 + 5) * HOUR + 59_000)).toBe("2 д 5 ч");
    expect(formatCountdown(5 * HOUR + 12 * 60_000)).toBe("5 ч 12 мин");
    expect(formatCountdown(12 * 60_000 + 5_000)).toBe("12 мин 05 с");
    expect(formatCountdown(-5)).toBe("0 мин 00 с");
  });

  it("shows percent remaining and remaining/max", () => {
    expect(quantityInfo(limited({ max_quantity: 50, sold_quantity: 46 }))).toEqual({ percent: 8, label: "4/50" });
    expect(quantityInfo(limited({}))).toBeNull();
  });
});

describe("search hint", () => {
  it("asks for the missing characters with the right plural, nothing when empty or long enough", () => {
    expect(searchHint("а")).toBe("Введите ещё 1 символ");
    expect(searchHint("  а  ")).toBe("Введите ещё 1 символ");
    expect(searchHint("   ")).toBeNull();
    expect(searchHint("ак")).toBeNull();
  });

  it("durations and reload times read in Russian", () => {
    expect(durationText(null)).toBe("Навсегда");
    expect([1, 3, 7, 21, 14].map(durationText)).toEqual(["1 день", "3 дня", "7 дней", "21 день", "14 дней"]);
    expect(reloadText(86_400)).toBe("24 ч");
    expect(reloadText(5_400)).toBe("1 ч 30 мин");
    expect(reloadText(2_700)).toBe("45 мин");
  });
});

describe("prices", () => {
  it("pro-rates round(days / 30 × price) and applies the discount", () => {
    expect(proRatedPrice(7, 19_900)).toBe(4_600);
    expect(proRatedPrice(90, 19_900)).toBe(59_700);
    expect(durationBasePrice(90, 49_900, 19_900)).toBe(49_900);
    expect(discounted(19_900, 15)).toBe(16_900);
    expect(discounted(19_900, 0)).toBe(19_900);
    expect(discounted(19_900, 100)).toBe(0);
  });

  it("matches the purchase SQL's arithmetic for every day count and a spread of prices", async () => {
    const cases: [number, number, number][] = [];
    for (const days of [1, 3, 7, 14, 15, 30, 45, 90, 365]) {
      for (const price of [100, 4_900, 14_950, 19_900, 39_900, 99_999]) {
        for (const discount of [0, 10, 15, 33, 50]) cases.push([days, price, discount]);
      }
    }
    const statement = env.DB.prepare(
      `SELECT CASE WHEN ?3 <= 0 THEN base ELSE CAST(ROUND(base * (100 - ?3) / 10000.0) AS INTEGER) * 100 END AS price
       FROM (SELECT CAST(ROUND(?1 * ?2 / 3000.0) AS INTEGER) * 100 AS base)`,
    );
    const results = await env.DB.batch(cases.map(([days, price, discount]) => statement.bind(days, price, discount)));
    results.forEach((result, index) => {
      const [days, price, discount] = cases[index] as [number, number, number];
      expect((result.results[0] as { price: number }).price, `${days} ${price} ${discount}`).toBe(
        discounted(proRatedPrice(days, price), discount),
      );
    });
  });
});

describe("errors and server types", () => {
  it("shows Недостаточно средств на балансе for a 402, whatever its text", () => {
    expect(isInsufficientFunds(402)).toBe(true);
    expect(isInsufficientFunds(400)).toBe(false);
    expect(isInsufficientFunds(null)).toBe(false);
    expect(purchaseErrorText(402, "insufficient balance")).toBe("Недостаточно средств на балансе");
    expect(purchaseErrorText(401, "whatever")).toBe("Необходима авторизация");
    expect(purchaseErrorText(500, "")).toBe("Произошла ошибка при покупке предмета");
    expect(purchaseErrorText(410, "Товар распродан")).toBe("Товар распродан");
  });

  it("falls back from /server-types to the items' types, then to SOLO", () => {
    expect(resolveServerTypes(["MAX2"], [{ server_type: "SOLO" }])).toEqual(["MAX2"]);
    expect(resolveServerTypes(null, [{ server_type: "VANILLA" }, { server_type: "VANILLA" }])).toEqual(["VANILLA"]);
    expect(resolveServerTypes([], [])).toEqual(["SOLO"]);
  });
});
