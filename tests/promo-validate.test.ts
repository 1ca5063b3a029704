import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledger, promoCodes } from "#db/schema.ts";
import { testDeps } from "#tests/support/deps.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api, createItem, createPromo } from "#tests/support/profile-fixtures.ts";
import { uniqueIp } from "#tests/support/unique.ts";

const deps = testDeps();
const HOUR = 60 * 60 * 1000;

async function activate(token: string | undefined, code: unknown, extra: { cookie?: string } = {}) {
  return api("/promos/validate", { token, body: { code }, ip: uniqueIp(), ...extra });
}

describe("POST /api/promos/validate", () => {
  it("needs a signed-in player: 401 Необходима авторизация", async () => {
    const promo = await createPromo(deps, { type: "BALANCE", value: 10000 });
    const response = await activate(undefined, promo.code);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: "Необходима авторизация" });
    const [after] = await deps.db.orm.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(after?.usedCount).toBe(0);
  });

  it("credits a BALANCE code once: 200 with message and value in rubles, a ledger row, balance = sum(ledger)", async () => {
    const player = await createPlayer({ deps, balance: 5000 });
    const promo = await createPromo(deps, { type: "BALANCE", value: 10000, maxUses: 50 });

    const response = await activate(player.token, promo.code);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      message: "Промокод успешно активирован!",
      promo: { type: "BALANCE", value: 100, item: null },
    });

    const money = await balanceAndLedger(player.id);
    expect(money).toEqual({ balance: 15000, ledger: 15000 });
    const rows = await deps.db.orm.select().from(ledger).where(eq(ledger.userId, player.id));
    expect(rows.filter((row) => row.kind === "promo").map((row) => row.amount)).toEqual([10000]);
    const [after] = await deps.db.orm.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(after?.usedCount).toBe(1);
  });

  it("trims the code and ignores letter case", async () => {
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 2550 });
    const response = await activate(player.token, `   ${promo.code.toLowerCase()}\t`);
    expect(response.status).toBe(200);
    expect(response.json.promo).toEqual({ type: "BALANCE", value: 25.5, item: null });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 2550, ledger: 2550 });
  });

  it("accepts the session cookie as well as the bearer token", async () => {
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 100 });
    const response = await activate(undefined, promo.code, { cookie: player.token });
    expect(response.status).toBe(200);
  });

  it("puts an ITEM code's item in the Корзина with the code's server type and duration", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Кит Старт", serverType: "SOLO" });
    const promo = await createPromo(deps, {
      type: "ITEM",
      itemId: item.id,
      itemServerType: "MAX3",
      itemDurationDays: 7,
    });

    const response = await activate(player.token, promo.code);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      message: "Промокод успешно активирован!",
      promo: { type: "ITEM", value: null, item: { name: "Кит Старт" } },
    });

    const inventory = await api("/inventory", { token: player.token });
    expect(inventory.status).toBe(200);
    expect(inventory.json.items).toEqual([
      expect.objectContaining({
        item_name: "Кит Старт",
        item_image: "/images/items/test.png",
        server_type: "MAX3",
        duration: 7,
        is_permanent: false,
        status: "not_used",
      }),
    ]);
    // An item changes no money.
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 0, ledger: 0 });
  });

  it("gives a permanent entry for an ITEM code without a duration, on the item's own server type", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Вечный кит", serverType: "VANILLA" });
    const promo = await createPromo(deps, { type: "ITEM", itemId: item.id });
    expect((await activate(player.token, promo.code)).status).toBe(200);
    const inventory = await api("/inventory", { token: player.token });
    expect(inventory.json.items).toEqual([
      expect.objectContaining({ server_type: "VANILLA", duration: null, is_permanent: true }),
    ]);
  });

  it("answers 409 Вы уже использовали этот промокод to the same player twice, crediting once", async () => {
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 5000 });
    expect((await activate(player.token, promo.code)).status).toBe(200);
    const again = await activate(player.token, promo.code);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: "Вы уже использовали этот промокод" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 5000, ledger: 5000 });
  });

  it("answers 404 Промокод не найден to an unknown code", async () => {
    const player = await createPlayer({ deps });
    const response = await activate(player.token, "NO-SUCH-CODE-42");
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: "Промокод не найден" });
  });

  it("answers 400 with the server's text for a blank or malformed code", async () => {
    const player = await createPlayer({ deps });
    const blank = await activate(player.token, "   ");
    expect(blank.status).toBe(400);
    expect(blank.json).toEqual({ error: "Введите промокод" });
    for (const code of ["AB", "ПРОМО", "A B C", "X".repeat(33), "<script>"]) {
      const response = await activate(player.token, code);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: "Некорректный формат промокода" });
    }
    const notJson = await activate(player.token, 12345);
    expect(notJson.status).toBe(400);
  });

  it("answers 410 Срок действия промокода истёк after the end, and 400 Промокод ещё не действует before the start", async () => {
    const player = await createPlayer({ deps });
    const expired = await createPromo(deps, { type: "BALANCE", value: 100, endsAt: Date.now() - HOUR });
    const late = await activate(player.token, expired.code);
    expect(late.status).toBe(410);
    expect(late.json).toEqual({ error: "Срок действия промокода истёк" });

    const future = await createPromo(deps, { type: "BALANCE", value: 100, startsAt: Date.now() + HOUR });
    const early = await activate(player.token, future.code);
    // Not 410: the spec's clients show «Срок действия промокода истёк» for any 410.
    expect(early.status).toBe(400);
    expect(early.json).toEqual({ error: "Промокод ещё не действует" });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 0, ledger: 0 });
  });

  it("answers 429 Промокод больше не действителен once the use limit is reached", async () => {
    const first = await createPlayer({ deps });
    const second = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 100, maxUses: 1 });
    expect((await activate(first.token, promo.code)).status).toBe(200);
    const response = await activate(second.token, promo.code);
    expect(response.status).toBe(429);
    expect(response.json).toEqual({
      error: "Промокод больше не действителен (достигнут лимит использований)",
      code: "use_limit_reached",
    });
    expect(await balanceAndLedger(second.id)).toEqual({ balance: 0, ledger: 0 });
  });

  it("never lets the counter pass the limit: the CHECK constraint refuses it", async () => {
    const promo = await createPromo(deps, { type: "BALANCE", value: 100, maxUses: 1, usedCount: 1 });
    await expect(
      deps.db.orm.run(sql`UPDATE promo_codes SET used_count = used_count + 1 WHERE id = ${promo.id}`),
    ).rejects.toThrow();
  });
});
