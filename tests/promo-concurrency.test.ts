import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { promoCodes, promoRedemptions } from "#db/schema.ts";
import { testDeps } from "#tests/support/deps.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createPromo } from "#tests/support/profile-fixtures.ts";
import { uniqueIp } from "#tests/support/unique.ts";

const deps = testDeps();

describe("promo code use limit under concurrency", () => {
  it("lets exactly 5 of 20 simultaneous players redeem a 5-use code", async () => {
    const promo = await createPromo(deps, { type: "BALANCE", value: 7000, maxUses: 5 });
    const players = await Promise.all(Array.from({ length: 20 }, () => createPlayer({ deps })));

    const responses = await Promise.all(
      players.map((player) =>
        api("/promos/validate", { token: player.token, ip: uniqueIp(), body: { code: promo.code } }),
      ),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    for (const response of responses.filter((r) => r.status === 429)) {
      expect(response.json).toEqual({
        error: "Промокод больше не действителен (достигнут лимит использований)",
        code: "use_limit_reached",
      });
    }

    const [after] = await deps.db.orm.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(after?.usedCount).toBe(5);
    const redemptions = await deps.db.orm.select().from(promoRedemptions).where(eq(promoRedemptions.promoId, promo.id));
    expect(redemptions).toHaveLength(5);

    for (const [index, player] of players.entries()) {
      const money = await balanceAndLedger(player.id);
      expect(money.balance).toBe(money.ledger);
      expect(money.balance).toBe(responses[index]?.status === 200 ? 7000 : 0);
    }
  });

  it("credits one player once when the same code is sent twice at the same moment", async () => {
    const promo = await createPromo(deps, { type: "BALANCE", value: 1000, maxUses: 10 });
    const player = await createPlayer({ deps });
    const ip = uniqueIp();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => api("/promos/validate", { token: player.token, ip, body: { code: promo.code } })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 1000, ledger: 1000 });
    const [after] = await deps.db.orm.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(after?.usedCount).toBe(1);
  });
});
