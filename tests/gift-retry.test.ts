// A retried gift answers as the first time did (issue 47, item 3): before the funds check and before
// the friend is looked up, on the API and on the item page's form.
import { describe, expect, it } from "vitest";
import { STEAM_LOOKUP_LIMITS } from "#worker/services/shop/gift-lookup-limit.ts";
import { testDeps } from "./support/deps.ts";
import { formAnswer, postItemForm } from "./support/item-form.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { buy, createItem } from "./support/shop-fixtures.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

const deps = testDeps();

/** The player's ten minutes of Steam lookups used up, now and in the next window. */
async function useUpLookups(steamId: string) {
  const { calls, windowMs } = STEAM_LOOKUP_LIMITS.player;
  const start = Date.now() - (Date.now() % windowMs);
  await runBatch(
    [start, start + windowMs].map((window) =>
      raw(
        `INSERT INTO steam_call_budget (scope, subject, window_start, calls, cap) VALUES ('player', ?, ?, ?, ?)
          ON CONFLICT (scope, subject, window_start) DO UPDATE SET calls = excluded.calls`,
        steamId,
        window,
        calls,
        calls,
      ),
    ),
  );
}

const entriesOf = async (userId: number) =>
  (await rows<{ n: number }>("SELECT COUNT(*) AS n FROM inventory_entries WHERE user_id = ?", userId))[0]?.n;

describe("a retried gift on the API", () => {
  it("with 50 ₽ a 49 ₽ gift, sent again with its key, is the first one: not 402, not 429, bought once", async () => {
    const buyer = await createPlayer({ balance: 5_000 });
    const friend = uniqueSteamId();
    const itemId = await createItem({ price: 4_900 });
    const key = crypto.randomUUID();
    const first = await buy(buyer.token, itemId, { server_type: "SOLO", idempotency_key: key, gift_to: friend });
    expect(first.status).toBe(201);
    const bought = (await first.json()) as { purchase: { id: number } };

    const again = await buy(buyer.token, itemId, { server_type: "SOLO", idempotency_key: key, gift_to: friend });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      purchase: { id: bought.purchase.id },
      balance: 1,
      gift_to: { steam_id: friend },
    });
    // The buyer's lookups spent since: the retry still answers, a new key is told to wait.
    await useUpLookups(buyer.steamId);
    const later = await buy(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: key,
      gift_to: `https://steamcommunity.com/profiles/${friend}/`,
    });
    expect(later.status).toBe(200);
    expect(await later.json()).toMatchObject({ purchase: { id: bought.purchase.id } });
    // Another friend with the same key is another purchase: refused, as before.
    const other = await buy(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: key,
      gift_to: uniqueSteamId(),
    });
    expect(other.status).toBe(409);

    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 100, ledger: 100 });
    const [row] = await rows<{ id: number }>("SELECT id FROM users WHERE steam_id = ?", friend);
    expect(await entriesOf(row?.id ?? 0)).toBe(1);
  });
});

describe("a retried gift on the item page's form", () => {
  it("after a lost answer the same form shows the gift it made, never a top-up or a new key", async () => {
    const buyer = await createPlayer({ balance: 5_000 });
    const friend = await createPlayer({ nickname: "Друг Вася" });
    const itemId = await createItem({ price: 4_900, isOneTime: true });
    const fields = {
      server_type: "SOLO",
      expected_price: "49",
      idempotency_key: crypto.randomUUID(),
      gift_to: friend.steamId,
      gift_checked: friend.steamId,
      gift_steam_id: friend.steamId,
      gift_nickname: "Друг Вася",
      gift_avatar: "/images/avatar-default.svg",
    };
    const first = formAnswer(await postItemForm(deps, itemId, fields, buyer.token));
    expect(first.status).toBe(302);
    const again = formAnswer(await postItemForm(deps, itemId, fields, buyer.token));
    expect(again).toEqual(first);
    await useUpLookups(buyer.steamId);
    const dialog = formAnswer(await postItemForm(deps, itemId, { ...fields, _js: "1" }, buyer.token));
    expect(dialog).toMatchObject({ status: 200, body: { ok: true, balance: 1 } });
    expect(String(first.body)).toContain(`purchased=${(dialog.body as { purchase: { id: number } }).purchase.id}`);

    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 100, ledger: 100 });
    expect(await entriesOf(friend.id)).toBe(1);
  });
});
