import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { promoCodes } from "#db/schema.ts";
import { describePromo, promoInsertSql } from "#db/seed/promo-sql.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { createItem } from "#tests/support/profile-fixtures.ts";
import { unique, uniqueIp } from "#tests/support/unique.ts";
import { redeemPromo } from "#worker/services/promos/redeem.ts";

const deps = testDeps();

async function stored(code: string) {
  const [row] = await deps.db.orm.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row;
}

describe("operator promo creation (npm run promo -- create)", () => {
  it("stores a BALANCE code upper-case with its value in kopecks and its window, and it redeems", async () => {
    const code = unique("winter-").slice(0, 32);
    await env.DB.exec(
      promoInsertSql({
        code: `  ${code} `,
        type: "BALANCE",
        value: "100.5",
        maxUses: "50",
        startsAt: "2026-12-01",
        endsAt: "2027-01-10T00:00:00+03:00",
      }),
    );
    const row = await stored(code.toUpperCase());
    expect(row).toMatchObject({
      type: "BALANCE",
      value: 10050,
      itemId: null,
      maxUses: 50,
      usedCount: 0,
      startsAt: Date.parse("2026-11-30T21:00:00Z"),
      endsAt: Date.parse("2027-01-09T21:00:00Z"),
    });

    const player = await createPlayer({ deps });
    const inWinter = testDeps({ now: () => new Date("2026-12-15T12:00:00Z") });
    const result = await redeemPromo(inWinter, { userId: player.id, ip: uniqueIp(), code });
    expect(result).toMatchObject({ ok: true, promo: { type: "BALANCE", value: 100.5 } });
  });

  it("stores an ITEM code with server type and days; a duplicate code is refused", async () => {
    const item = await createItem(deps);
    const code = unique("KIT").toUpperCase().slice(0, 32);
    const sql = promoInsertSql({ code, type: "ITEM", itemId: item.id, serverType: "MAX2", days: 7, maxUses: 3 });
    await env.DB.exec(sql);
    expect(await stored(code)).toMatchObject({
      type: "ITEM",
      value: null,
      itemId: item.id,
      itemServerType: "MAX2",
      itemDurationDays: 7,
      maxUses: 3,
    });
    await expect(env.DB.exec(sql)).rejects.toThrow(/UNIQUE/);
  });

  it("re-seeding a code updates its settings but keeps its use counter", async () => {
    const code = unique("SEED").toUpperCase().slice(0, 32);
    await env.DB.exec(promoInsertSql({ code, type: "BALANCE", value: 10, maxUses: 5 }, { upsert: true }));
    const player = await createPlayer({ deps });
    expect((await redeemPromo(deps, { userId: player.id, ip: uniqueIp(), code })).ok).toBe(true);
    await env.DB.exec(promoInsertSql({ code, type: "BALANCE", value: 20, maxUses: 9 }, { upsert: true }));
    expect(await stored(code)).toMatchObject({ value: 2000, maxUses: 9, usedCount: 1 });
  });

  it("refuses bad input before writing anything", () => {
    expect(() => promoInsertSql({ code: "ab", type: "BALANCE", value: 1, maxUses: 1 })).toThrow();
    expect(() => promoInsertSql({ code: "GOOD", type: "BALANCE", maxUses: 1 })).toThrow(/--value/);
    expect(() => promoInsertSql({ code: "GOOD", type: "ITEM", maxUses: 1 })).toThrow(/--item/);
    expect(() => promoInsertSql({ code: "GOOD", type: "BALANCE", value: 1, maxUses: 0 })).toThrow();
    expect(() =>
      promoInsertSql({
        code: "GOOD",
        type: "BALANCE",
        value: 1,
        maxUses: 1,
        startsAt: "2027-01-01",
        endsAt: "2026-01-01",
      }),
    ).toThrow(/позже/);
    expect(() => promoInsertSql({ code: "GOOD", type: "BALANCE", value: 1, maxUses: 1, endsAt: "потом" })).toThrow();
    // Quotes can't break out of the literal.
    expect(() => promoInsertSql({ code: "A'; DROP TABLE users; --", type: "BALANCE", value: 1, maxUses: 1 })).toThrow();
  });

  it("says what was made in a line an operator reads, not its SQL", () => {
    expect(
      describePromo({ code: "vipweek", type: "ITEM", itemId: 101, serverType: "SOLO", days: 7, maxUses: 10 }),
    ).toBe("VIPWEEK: товар #101 на SOLO, 7 дней, использований: 10, без срока");
    expect(describePromo({ code: "forever", type: "ITEM", itemId: 5, maxUses: 2, endsAt: "2027-01-10" })).toBe(
      "FOREVER: товар #5, навсегда, использований: 2, по 10.01.2027, 00:00 (МСК)",
    );
  });
});
