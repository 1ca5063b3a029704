import { describe, expect, it } from "vitest";
import { consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { ensureGrantDeliveries } from "#worker/services/game/deliveries.ts";
import { STEAM_LOOKUP_LIMITS } from "#worker/services/shop/gift-lookup-limit.ts";
import { findGiftRecipient } from "#worker/services/shop/gift-recipient.ts";
import { loader as playerLoader } from "../app/routes/admin.player.tsx";
import { testClock, testDeps } from "./support/deps.ts";
import { balanceAndLedger, expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { buy, createItem, fetchApi } from "./support/shop-fixtures.ts";
import { bearer } from "./support/sign-in.ts";
import { firstRow, raw, rows, runBatch } from "./support/sql.ts";

// Gifts to a friend (issue 24): who it goes to, and the purchase that pays for it.

const deps = testDeps();

async function recipient(token: string, q: string) {
  const response = await fetchApi(`/gifts/recipient?q=${encodeURIComponent(q)}`, { headers: bearer(token) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/gifts/recipient", () => {
  it("finds a friend by SteamID64, profile link or custom address, with their Steam name and avatar", async () => {
    const buyer = await createPlayer({ deps });
    const steamId = uniqueSteamId();
    for (const q of [
      steamId,
      `https://steamcommunity.com/profiles/${steamId}/`,
      `steamcommunity.com/profiles/${steamId}`,
    ]) {
      expect(await recipient(buyer.token, q)).toEqual({
        status: 200,
        json: {
          steam_id: steamId,
          nickname: `Игрок ${steamId.slice(-4)}`,
          avatar: "http://localhost:5173/images/avatar-default.svg",
        },
      });
    }
    expect(await recipient(buyer.token, "https://www.steamcommunity.com/id/no-money/")).toMatchObject({
      status: 200,
      json: { steam_id: "76561198000000002", nickname: "Игрок без денег" },
    });
  });

  it("explains what it can't find or won't allow", async () => {
    const buyer = await createPlayer({ deps });
    const blocked = await createPlayer({ deps });
    await runBatch([raw("UPDATE users SET purchases_blocked = 1 WHERE id = ?", blocked.id)]);
    const bad =
      "Укажите SteamID64 друга или ссылку на его профиль Steam (steamcommunity.com/profiles/… или steamcommunity.com/id/…)";
    for (const q of [
      "друг",
      "7656119",
      "https://example.com/profiles/76561198000000002",
      "steamcommunity.com/profiles/123",
    ]) {
      expect(await recipient(buyer.token, q)).toEqual({ status: 400, json: { error: bad } });
    }
    expect(await recipient(buyer.token, "steamcommunity.com/id/nobody-here")).toEqual({
      status: 404,
      json: { error: "Профиль Steam не найден" },
    });
    expect(await recipient(buyer.token, buyer.steamId)).toEqual({
      status: 400,
      json: { error: "Нельзя подарить самому себе" },
    });
    expect(await recipient(buyer.token, blocked.steamId)).toEqual({
      status: 403,
      json: { error: "Этому игроку нельзя сделать подарок" },
    });
    const signedOut = await fetchApi(`/gifts/recipient?q=${buyer.steamId}`);
    expect(signedOut.status).toBe(401);
  });

  it("lets a player ask Steam 30 times in 10 minutes, then says how long to wait, and no one else waits", async () => {
    const buyer = await createPlayer({ deps });
    const clock = testClock(Date.parse("2026-11-25T10:00:00Z"));
    const timed = { ...deps, now: clock.now };
    const friend = uniqueSteamId();
    const from = { steamId: buyer.steamId, address: `198.51.100.${buyer.id % 250}` };
    for (let lookup = 0; lookup < STEAM_LOOKUP_LIMITS.player.calls; lookup++) {
      expect((await findGiftRecipient(timed, from, friend)).ok).toBe(true);
    }
    expect(await findGiftRecipient(timed, from, friend)).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 10 мин.",
    });
    clock.advance(STEAM_LOOKUP_LIMITS.player.windowMs - 60_000);
    expect(await findGiftRecipient(timed, from, friend)).toMatchObject({
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 1 мин.",
    });
    const other = await createPlayer({ deps });
    expect((await findGiftRecipient(timed, { steamId: other.steamId, address: "203.0.113.9" }, friend)).ok).toBe(true);
    clock.advance(60_000);
    expect((await findGiftRecipient(timed, from, friend)).ok).toBe(true);
  });

  it("answers 429 with the wait once the player used up their lookups", async () => {
    const buyer = await createPlayer({ deps });
    for (let lookup = 0; lookup < STEAM_LOOKUP_LIMITS.player.calls; lookup++) {
      await findGiftRecipient(deps, { steamId: buyer.steamId, address: "unknown" }, uniqueSteamId());
    }
    const answer = await recipient(buyer.token, uniqueSteamId());
    expect(answer.status).toBe(429);
    expect(answer.json.error).toMatch(/^Слишком много проверок получателя\. Попробуйте через ([1-9]|10) мин\.$/);
  });
});

describe("a gift purchase", () => {
  it("the buyer pays; the item waits in the friend's Корзина, even one who never signed in, for their SteamID", async () => {
    const buyer = await createPlayer({ deps, balance: 30_000 });
    const friendSteamId = uniqueSteamId();
    const itemId = await createItem({ name: "Подарочный набор", price: 12_000, serverType: "SOLO" });
    const response = await buy(buyer.token, itemId, {
      server_type: "SOLO",
      expected_price: 120,
      gift_to: `https://steamcommunity.com/profiles/${friendSteamId}`,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { purchase: { id: number }; balance: number; gift_to: unknown };
    expect(body).toMatchObject({
      balance: 180,
      gift_to: { steam_id: friendSteamId, nickname: `Игрок ${friendSteamId.slice(-4)}` },
    });

    const friend = await firstRow<{ id: number; nickname: string; balance: number }>(
      "SELECT id, nickname, balance FROM users WHERE steam_id = ?",
      friendSteamId,
    );
    expect(friend).toMatchObject({ nickname: `Игрок ${friendSteamId.slice(-4)}`, balance: 0 });
    expect(
      await firstRow("SELECT user_id, gift_to_user_id, price FROM purchases WHERE id = ?", body.purchase.id),
    ).toEqual({
      user_id: buyer.id,
      gift_to_user_id: friend?.id,
      price: 12_000,
    });
    expect(await rows("SELECT user_id, status FROM inventory_entries WHERE purchase_id = ?", body.purchase.id)).toEqual(
      [{ user_id: friend?.id, status: "not_used" }],
    );
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 18_000, ledger: 18_000 });
    expect(await balanceAndLedger(friend?.id ?? 0)).toEqual({ balance: 0, ledger: 0 });

    // The console names the friend beside the buyer's purchase.
    const support = await createOperator(deps, "support");
    const page = await playerLoader(
      consoleArgs(deps, `/admin/players/${buyer.steamId}`, {
        token: support.token,
        params: { steamId: buyer.steamId },
      }),
    );
    expect(page.purchases.find((row) => row.id === body.purchase.id)).toMatchObject({
      giftTo: `Игрок ${friendSteamId.slice(-4)}`,
    });

    // The plugin is handed it for the friend's SteamID.
    await ensureGrantDeliveries(deps, "SOLO");
    expect(
      await rows(
        `SELECT d.steam_id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
         WHERE e.purchase_id = ? AND d.kind = 'grant'`,
        body.purchase.id,
      ),
    ).toEqual([{ steam_id: friendSteamId }]);
  });

  it("refuses a gift to oneself or to a blocked player and moves no money; only the buyer may return one", async () => {
    const buyer = await createPlayer({ deps, balance: 30_000 });
    const blocked = await createPlayer({ deps });
    await runBatch([raw("UPDATE users SET purchases_blocked = 1 WHERE id = ?", blocked.id)]);
    const itemId = await createItem({ price: 5_000 });
    const self = await buy(buyer.token, itemId, { server_type: "SOLO", gift_to: buyer.steamId });
    expect(self.status).toBe(400);
    expect(await self.json()).toEqual({ error: "Нельзя подарить самому себе" });
    const toBlocked = await buy(buyer.token, itemId, { server_type: "SOLO", gift_to: blocked.steamId });
    expect(toBlocked.status).toBe(403);
    expect(await toBlocked.json()).toEqual({ error: "Этому игроку нельзя сделать подарок" });
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });

    const friend = await createPlayer({ deps });
    const gift = await buy(buyer.token, itemId, { server_type: "SOLO", gift_to: friend.steamId });
    expect(gift.status).toBe(201);
    const { purchase } = (await gift.json()) as { purchase: { id: number } };
    const byFriend = await fetchApi(`/purchases/${purchase.id}/return`, {
      method: "POST",
      headers: bearer(friend.token),
    });
    expect(byFriend.status).toBe(404);
    const byBuyer = await fetchApi(`/purchases/${purchase.id}/return`, {
      method: "POST",
      headers: bearer(buyer.token),
    });
    expect(byBuyer.status).toBe(200);
    expect(await rows("SELECT user_id, status FROM inventory_entries WHERE purchase_id = ?", purchase.id)).toEqual([
      { user_id: friend.id, status: "returned" },
    ]);
    await expectBalancesMatchLedger([buyer.id, friend.id, blocked.id]);
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });
  });
});
