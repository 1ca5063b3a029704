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

  it("pauses one address after 10 failures from several players", async () => {
    const clock = testClock(Date.parse("2026-11-23T09:00:00Z"));
    const deps = testDeps({ now: clock.now });
    const ip = uniqueIp();
    const promo = await createPromo(deps, { type: "BALANCE", value: 500 });
    for (let attempt = 0; attempt < 10; attempt++) {
      const player = await createPlayer({ deps });
      const result = await redeemPromo(deps, { userId: player.id, ip, code: "WRONG-CODE" });
      expect(result.status).toBe(404);
    }
    const newcomer = await createPlayer({ deps });
    const paused = await redeemPromo(deps, { userId: newcomer.id, ip, code: promo.code });
    expect(paused).toMatchObject({ ok: false, status: 429, error: "Слишком много попыток. Попробуйте через 10 мин." });
    // The same player from another address is not paused.
    const elsewhere = await redeemPromo(deps, { userId: newcomer.id, ip: uniqueIp(), code: promo.code });
    expect(elsewhere).toMatchObject({ ok: true });
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

  it("answers 429 over HTTP with a Retry-After header once an address has failed 10 times", async () => {
    const ip = uniqueIp();
    const deps = testDeps();
    const player = await createPlayer({ deps });
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await api("/promos/validate", { token: player.token, ip, body: { code: unique("NOPE") } });
      expect(response.status).toBe(404);
    }
    const promo = await createPromo(deps, { type: "BALANCE", value: 100 });
    const response = await api("/promos/validate", { token: player.token, ip, body: { code: promo.code } });
    expect(response.status).toBe(429);
    expect(response.json).toEqual({ error: "Слишком много попыток. Попробуйте через 10 мин." });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(await usedCount(promo.id)).toBe(0);
  });
});
