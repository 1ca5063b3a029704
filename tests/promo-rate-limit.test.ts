import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { promoCodes } from "#db/schema.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createPromo } from "#tests/support/profile-fixtures.ts";
import { unique, uniqueIp } from "#tests/support/unique.ts";
import { redeemPromo } from "#worker/services/promos/redeem.ts";

async function usedCount(promoId: number) {
  const [row] = await testDeps().db.orm.select().from(promoCodes).where(eq(promoCodes.id, promoId));
  return row?.usedCount;
}

describe("slowing down promo code guessing", () => {
  it("pauses a player after 10 failures in 10 minutes, without burning or revealing a real code, then lets them in", async () => {
    const clock = testClock(Date.parse("2026-11-22T12:00:00Z"));
    const deps = testDeps({ now: clock.now });
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 10000, maxUses: 5 });

    for (let attempt = 0; attempt < 10; attempt++) {
      // Each from a different address: the player's own count is what trips.
      const result = await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: unique("GUESS") });
      expect(result).toMatchObject({ ok: false, status: 404, error: "Промокод не найден" });
      clock.advance(30 * 1000);
    }

    const paused = await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: promo.code });
    expect(paused).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много попыток. Попробуйте через 5 мин.",
      code: "too_many_attempts",
      retryAfterSeconds: 300,
    });
    expect(await usedCount(promo.id)).toBe(0);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 0, ledger: 0 });

    // The first failure leaves the window 10 minutes after it happened.
    clock.set(Date.parse("2026-11-22T12:10:00Z") + 1);
    const later = await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: promo.code });
    expect(later).toMatchObject({ ok: true, status: 200 });
    expect(await usedCount(promo.id)).toBe(1);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 10000, ledger: 10000 });
  });

  it("does not pause other players behind one address for one player's guesses; only 100 failures pause an address", async () => {
    const clock = testClock(Date.parse("2026-11-23T09:00:00Z"));
    const deps = testDeps({ now: clock.now });
    const ip = uniqueIp();
    const guesser = await createPlayer({ deps });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await redeemPromo(deps, { userId: guesser.id, ip, code: unique("WRONG") })).status).toBe(404);
    }
    expect((await redeemPromo(deps, { userId: guesser.id, ip, code: unique("WRONG") })).status).toBe(429);
    const neighbour = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 500, maxUses: 5 });
    expect(await redeemPromo(deps, { userId: neighbour.id, ip, code: promo.code })).toMatchObject({ ok: true });

    // 9 players × 10 wrong guesses + the first 10 = 100 failures from the address.
    for (let player = 0; player < 9; player++) {
      const other = await createPlayer({ deps });
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await redeemPromo(deps, { userId: other.id, ip, code: unique("WRONG") })).status).toBe(404);
      }
    }
    const newcomer = await createPlayer({ deps });
    const paused = await redeemPromo(deps, { userId: newcomer.id, ip, code: promo.code });
    expect(paused).toMatchObject({ ok: false, status: 429, code: "too_many_attempts" });
    // The same player from another address is not paused.
    const elsewhere = await redeemPromo(deps, { userId: newcomer.id, ip: uniqueIp(), code: promo.code });
    expect(elsewhere).toMatchObject({ ok: true });
  });

  it("does not count «already used» (409) answers as guesses", async () => {
    const deps = testDeps();
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 100 });
    expect((await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: promo.code })).ok).toBe(true);
    for (let attempt = 0; attempt < 15; attempt++) {
      const again = await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: promo.code });
      expect(again).toMatchObject({ status: 409, error: "Вы уже использовали этот промокод" });
    }
    const next = await createPromo(deps, { type: "BALANCE", value: 100 });
    expect((await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code: next.code })).ok).toBe(true);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 200, ledger: 200 });
  });

  it("holds under a burst: 50 simultaneous wrong guesses by one player get at most 10 answers that aren't 429", async () => {
    const deps = testDeps();
    const player = await createPlayer({ deps });
    const ip = uniqueIp();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        api("/promos/validate", { token: player.token, ip, body: { code: unique("BURST") } }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(0);
    for (const response of responses.filter((r) => r.status === 429)) {
      expect(response.json).toMatchObject({ code: "too_many_attempts" });
    }
  });

  it("counts expired and malformed codes as failures too, but not successes", async () => {
    const clock = testClock(Date.parse("2026-11-24T09:00:00Z"));
    const deps = testDeps({ now: clock.now });
    const player = await createPlayer({ deps });
    const ip = uniqueIp();
    for (let attempt = 0; attempt < 5; attempt++) {
      const good = await createPromo(deps, { type: "BALANCE", value: 100 });
      expect((await redeemPromo(deps, { userId: player.id, ip, code: good.code })).ok).toBe(true);
    }
    const expired = await createPromo(deps, { type: "BALANCE", value: 100, endsAt: clock.now().getTime() - 1 });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await redeemPromo(deps, { userId: player.id, ip, code: expired.code })).status).toBe(410);
      expect((await redeemPromo(deps, { userId: player.id, ip, code: "!!" })).status).toBe(400);
    }
    const good = await createPromo(deps, { type: "BALANCE", value: 100 });
    expect((await redeemPromo(deps, { userId: player.id, ip, code: good.code })).status).toBe(429);
  });

  it("answers 429 over HTTP with a Retry-After header and code too_many_attempts once a player has failed 10 times", async () => {
    const deps = testDeps();
    const player = await createPlayer({ deps });
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await api("/promos/validate", {
        token: player.token,
        ip: uniqueIp(),
        body: { code: unique("NOPE") },
      });
      expect(response.status).toBe(404);
    }
    const promo = await createPromo(deps, { type: "BALANCE", value: 100 });
    const response = await api("/promos/validate", { token: player.token, ip: uniqueIp(), body: { code: promo.code } });
    expect(response.status).toBe(429);
    expect(response.json).toEqual({
      error: "Слишком много попыток. Попробуйте через 10 мин.",
      code: "too_many_attempts",
    });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(await usedCount(promo.id)).toBe(0);
  });
});
