// The player's journey, second pass (issue 36): a gift stays a gift through every refusal and a
// top-up, and each page says who paid, who gets it, where it is and what happens next.
import { describe, expect, it } from "vitest";
import { itemReturnPath } from "#core/payments/top-up-link.ts";
import { paymentReturnLocation } from "#worker/services/payments/payments.ts";
import { loader as balanceLoader } from "../app/routes/balance.tsx";
import { action, loader } from "../app/routes/shop.item.tsx";
import { testDeps } from "./support/deps.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { createItem } from "./support/shop-fixtures.ts";
import { sessionCookie, signInThroughStandIn } from "./support/sign-in.ts";
import { rows } from "./support/sql.ts";

type ItemArgs = Parameters<typeof action>[0] & Parameters<typeof loader>[0];

const deps = testDeps();

function itemArgs(url: string, init: RequestInit & { token?: string }, id: number) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("cookie", sessionCookie(init.token).cookie);
  return routeArgs<ItemArgs>(
    deps,
    url,
    { ...init, headers },
    { params: { id: String(id) }, pattern: "/shop/items/:id" },
  );
}

function post(id: number, fields: Record<string, string>, token: string) {
  return action(
    itemArgs(`http://localhost/shop/items/${id}`, { method: "POST", body: new URLSearchParams(fields), token }, id),
  );
}

function load(path: string, id: number, token?: string) {
  return loader(itemArgs(`http://localhost${path}`, { token }, id));
}

async function unwrap(result: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const value = result as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: value.init?.status ?? 200, body: value.data };
}

describe("a gift short of money (issue 36, item 1)", () => {
  it("stays the gift: the 402 keeps the friend, the top-up comes back to them, and the purchase is theirs", async () => {
    const buyer = await createPlayer({ balance: 1_000 });
    const friendSteamId = uniqueSteamId();
    const id = await createItem({ price: 19_900, serverType: "MAX2", durations: [[30, null]] });
    const form = { server_type: "MAX2", duration: "30", expected_price: "199" };

    const shown = await unwrap(
      await post(
        id,
        { ...form, idempotency_key: crypto.randomUUID(), intent: "gift-check", gift_to: friendSteamId },
        buyer.token,
      ),
    );
    expect(shown.body).toMatchObject({ ok: "gift", recipient: { steamId: friendSteamId }, duration: 30 });

    const key = crypto.randomUUID();
    const short = await unwrap(
      await post(
        id,
        { ...form, idempotency_key: key, gift_to: friendSteamId, gift_steam_id: friendSteamId },
        buyer.token,
      ),
    );
    // 199 ₽ against 10 ₽; the friend stays shown and the field keeps what was typed.
    expect(short).toEqual({
      status: 402,
      body: {
        ok: false,
        status: 402,
        error: "Недостаточно средств на балансе",
        missing: 189,
        duration: 30,
        giftQuery: friendSteamId,
        recipient: {
          steamId: friendSteamId,
          nickname: `Игрок ${friendSteamId.slice(-4)}`,
          avatarUrl: expect.any(String),
        },
      },
    });
    // The top-up's link comes back to the item with the duration and the friend.
    const back = itemReturnPath(id, 30, friendSteamId);
    expect(back).toBe(`/shop/items/${id}?duration=30&gift_to=${friendSteamId}`);
    const afterPaying = paymentReturnLocation(back, "success");
    expect(afterPaying).toBe(`/shop/items/${id}?duration=30&gift_to=${friendSteamId}&payment=success`);

    const page = await load(afterPaying, id, buyer.token);
    expect(page).toMatchObject({
      duration: 30,
      payment: "success",
      giftOpen: true,
      gift: { recipient: { steamId: friendSteamId }, query: friendSteamId, error: null },
    });
    // A signed-out visitor is shown no one.
    expect((await load(afterPaying, id)).gift).toBeNull();
    // An id that is no one's is said so, not shown as a friend.
    expect((await load(`/shop/items/${id}?gift_to=${buyer.steamId}`, id, buyer.token)).gift).toMatchObject({
      recipient: null,
      error: "Нельзя подарить самому себе",
    });
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 1_000, ledger: 1_000 });
    expect(await rows("SELECT id FROM users WHERE steam_id = ?", friendSteamId)).toEqual([]);
  });
});

describe("signing in from a page reached from the shop (issue 36, item 2)", () => {
  it("comes back to the page, never to the .data request the client navigation loaded it with", async () => {
    const id = await createItem({ price: 19_900, serverType: "MAX2", durations: [[30, null]] });
    // A client navigation from the shop loads the item page as "<path>.data" with React Router's _routes.
    const item = await load(`/shop/items/${id}.data?server_type=MAX2&_routes=routes%2Fshop.item`, id);
    expect(item.returnTo).toBe(`/shop/items/${id}?server_type=MAX2`);
    expect((await load(`/shop/items/${id}?server_type=MAX2`, id)).returnTo).toBe(`/shop/items/${id}?server_type=MAX2`);
    const balance = await balanceLoader(
      routeArgs<Parameters<typeof balanceLoader>[0]>(deps, "http://localhost/balance.data?amount=46&_routes=root"),
    );
    expect(balance.signInHref).toBe(`/api/auth/steam?return_to=${encodeURIComponent("/balance?amount=46")}`);
    // A link built from a .data address before this fix still brings the player to the page.
    const { location } = await signInThroughStandIn(
      uniqueSteamId(),
      `/api/auth/steam?return_to=${encodeURIComponent(`/shop/items/${id}.data?server_type=MAX2`)}`,
    );
    expect(new URL(location, "http://localhost").searchParams.get("next")).toBe(`/shop/items/${id}?server_type=MAX2`);
  });
});
