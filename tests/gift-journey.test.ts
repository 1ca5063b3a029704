// The player's journey, second pass (issue 36): a gift stays a gift through every refusal and a
// top-up, and each page says who paid, who gets it, where it is and what happens next.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider, type RouterProvider as RP } from "react-router";
import { describe, expect, it } from "vitest";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { blockedText } from "#core/messages/shop.ts";
import { itemReturnPath } from "#core/payments/top-up-link.ts";
import { actionResult, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import type { Deps } from "#worker/deps.ts";
import { paymentReturnLocation } from "#worker/services/payments/payments.ts";
import { findGiftRecipient } from "#worker/services/shop/gift-recipient.ts";
import { InventoryList } from "../app/components/profile/inventory-list.tsx";
import { PurchaseTable } from "../app/components/profile/purchase-table.tsx";
import { ReturnNotice } from "../app/components/profile/return-form.tsx";
import { BuyDialog } from "../app/components/shop/buy-dialog.tsx";
import { ItemCard } from "../app/components/shop/item-card.tsx";
import { action as playerAction } from "../app/routes/admin.player.tsx";
import { loader as balanceLoader } from "../app/routes/balance.tsx";
import { action as inventoryAction, loader as inventoryLoader } from "../app/routes/profile.inventory.tsx";
import { action as purchasesAction, loader as purchasesLoader } from "../app/routes/profile.purchases.tsx";
import { loader as statementLoader } from "../app/routes/profile.statement.tsx";
import { middleware as profileMiddleware } from "../app/routes/profile.tsx";
import ShopItemPage, { action, loader } from "../app/routes/shop.item.tsx";
import { testClock, testDeps } from "./support/deps.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { buy as buyApi, createItem, fetchApi } from "./support/shop-fixtures.ts";
import { bearer, sessionCookie, signInThroughStandIn } from "./support/sign-in.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

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

/** The Корзина page as `token`'s player reads it: its loader, the list rendered, reduced to text. */
async function korzina(token: string, on: Deps = deps): Promise<string> {
  const url = "http://localhost/profile";
  const request = new Request(url, { headers: { Cookie: sessionCookie(token).cookie } });
  const args = { request, context: createRouterContext(on), params: {}, url: new URL(url), pattern: "/profile" };
  const [run] = profileMiddleware;
  if (!run) throw new Error("no middleware");
  await run(args as never, async () => new Response(null));
  // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
  const data = await inventoryLoader(args as any);
  const element = createElement(InventoryList, { items: data.items, now: data.now, servers: data.servers });
  const router = createMemoryRouter([{ path: "/profile", element }], { initialEntries: ["/profile"] });
  const html = renderToStaticMarkup(createElement(RouterProvider as typeof RP, { router }));
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The purchase history as `token`'s player reads it, reduced to text. */
async function history(token: string, on: Deps = deps): Promise<string> {
  const url = "http://localhost/purchases";
  const request = new Request(url, { headers: { Cookie: sessionCookie(token).cookie } });
  const args = { request, context: createRouterContext(on), params: {}, url: new URL(url), pattern: "/purchases" };
  const [run] = profileMiddleware;
  if (!run) throw new Error("no middleware");
  await run(args as never, async () => new Response(null));
  // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
  const data = await purchasesLoader(args as any);
  const element = createElement(PurchaseTable, { purchases: data.purchases, now: data.now });
  const router = createMemoryRouter([{ path: "/purchases", element }], { initialEntries: ["/purchases"] });
  const html = renderToStaticMarkup(createElement(RouterProvider as typeof RP, { router }));
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
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
        {
          ...form,
          idempotency_key: key,
          gift_to: friendSteamId,
          gift_steam_id: friendSteamId,
          gift_checked: friendSteamId,
        },
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

    // Paid: the 190 ₽ arrive, and the page's form (the friend shown again) buys the gift, not one for the buyer.
    await runBatch([
      raw("INSERT INTO ledger (user_id, amount, kind, created_at) VALUES (?, 19000, 'adjustment', 0)", buyer.id),
      raw("UPDATE users SET balance = balance + 19000 WHERE id = ?", buyer.id),
    ]);
    const gift = page.gift?.recipient;
    const bought = await post(
      id,
      {
        ...form,
        idempotency_key: key,
        gift_to: page.gift?.query ?? "",
        gift_steam_id: gift?.steamId ?? "",
        gift_checked: page.gift?.query ?? "",
      },
      buyer.token,
    ).catch((thrown: unknown) => thrown);
    expect(bought).toBeInstanceOf(Response);
    expect(
      await rows(
        `SELECT p.price, f.steam_id AS friend, e.user_id = f.id AS friendHasIt FROM purchases p
         JOIN users f ON f.id = p.gift_to_user_id JOIN inventory_entries e ON e.purchase_id = p.id WHERE p.user_id = ?`,
        buyer.id,
      ),
    ).toEqual([{ price: 19_900, friend: friendSteamId, friendHasIt: 1 }]);
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 100, ledger: 100 });
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

describe("a gift taken back, in the friend's Корзина (issue 36, item 3)", () => {
  it("says the giver cancelled it and the money went back to the giver, not to the friend", async () => {
    const buyer = await createPlayer({ balance: 30_000, nickname: "Даритель Петя" });
    const friend = await createPlayer({ nickname: "Друг Вася" });
    const itemId = await createItem({ name: "Набор «Подарочный»", price: 5_000 });
    const gift = await buyApi(buyer.token, itemId, { server_type: "SOLO", gift_to: friend.steamId });
    expect(gift.status).toBe(201);
    const { purchase } = (await gift.json()) as { purchase: { id: number } };
    expect(await korzina(friend.token)).toMatch(/Подарок от Даритель Петя .*Ждёт выдачи/);

    const back = await fetchApi(`/purchases/${purchase.id}/return`, { method: "POST", headers: bearer(buyer.token) });
    expect(back.status).toBe(200);
    const text = await korzina(friend.token);
    expect(text).toContain("Подарок от Даритель Петя");
    expect(text).toContain("Подарок отменён");
    expect(text).toContain("Даритель отменил подарок до выдачи. Деньги вернулись на баланс дарителя.");
    expect(text).not.toContain("Возвращён вами");
    expect(text).not.toContain("Вы вернули");
    // The buyer's history: a gift cancelled before delivery, said apart from an operator's «Возврат» (item 12).
    const bought = await history(buyer.token);
    expect(bought).toContain("Подарок отменён");
    expect(bought).toContain("Вы отменили подарок до выдачи: деньги вернулись на ваш баланс.");
    expect(await balanceAndLedger(friend.id)).toEqual({ balance: 0, ledger: 0 });
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });
  });

  it("a gift an operator refunded: the giver got the money back", async () => {
    const admin = await createOperator(deps, "admin");
    const buyer = await createPlayer({ balance: 30_000, nickname: "Даритель Оля" });
    const friend = await createPlayer({ nickname: "Друг Коля" });
    const itemId = await createItem({ name: "Набор «Подарочный»", price: 5_000 });
    const gift = await buyApi(buyer.token, itemId, { server_type: "SOLO", gift_to: friend.steamId });
    const { purchase } = (await gift.json()) as { purchase: { id: number } };
    const refund = await playerAction(
      consoleArgs(deps, `/admin/players/${buyer.steamId}`, {
        token: admin.token,
        params: { steamId: buyer.steamId },
        form: { intent: "refund", purchaseId: purchase.id, reason: "Ошибся другом" },
      }),
    ).then(actionResult);
    expect(refund.status).toBe(302);
    const text = await korzina(friend.token);
    expect(text).toContain("Подарок отменён");
    expect(text).toContain("Администратор отменил подарок. Деньги вернулись на баланс дарителя.");
    expect(text).not.toContain("деньги вернулись на баланс.");
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });
  });
});

describe("a delivery that failed, in the Корзина (issue 36, item 4)", () => {
  async function world() {
    const clock = testClock();
    const timed = testDeps({ now: clock.now });
    const serverType = uniqueServerType();
    const server = await createGameServer(timed, { serverType, name: "Свобода #9" });
    const player = await createPlayer({ deps: timed });
    const item = await createDeliverableItem(timed, {
      serverType,
      grant: ["oxide.grant user {steamid} kits.start"],
      name: "Набор «Старт»",
    });
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    await createEntry(timed, { userId: player.id, itemId: item.id, serverType });
    return { timed, player, sim };
  }

  it("an interrupted one says what the player needs to know, never the operators' note", async () => {
    const { timed, player, sim } = await world();
    const [served] = (await sim.poll([player.steamId])).deliveries;
    await sim.ack([{ delivery_id: served?.delivery_id ?? "", ok: false, message: "", interrupted: true }]);
    const text = await korzina(player.token, timed);
    expect(text).toContain("Не удалось выдать");
    expect(text).toContain("Сервер не смог выдать предмет.");
    expect(text).toContain("Выдача будет повторена: администратор видит ошибку.");
    expect(text).not.toContain("Доставка прервана");
    expect(text).not.toContain("проверьте вручную");
    expect(text).not.toContain("Ошибка выдачи");
    // The API answers the same words.
    const inventory = await fetchApi("/inventory", { headers: bearer(player.token) });
    const { items } = (await inventory.json()) as { items: { last_error: string | null }[] };
    expect(items.map((entry) => entry.last_error)).toEqual(["Сервер не смог выдать предмет."]);
  });
});

describe("«Вернуть» without JavaScript (issue 36, item 5)", () => {
  /** The Корзина's action, as the card's plain form posts it. */
  async function postReturn(token: string, fields: Record<string, string>) {
    const url = "http://localhost/profile";
    const request = new Request(url, {
      method: "POST",
      headers: { Cookie: sessionCookie(token).cookie },
      body: new URLSearchParams(fields),
    });
    const args = { request, context: createRouterContext(deps), params: {}, url: new URL(url), pattern: "/profile" };
    const [run] = profileMiddleware;
    if (!run) throw new Error("no middleware");
    await run(args as never, async () => new Response(null));
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
    return unwrap(await inventoryAction(args as any));
  }

  it("asks first, with the item and the amount; only «Да, вернуть» returns", async () => {
    const player = await createPlayer({ balance: 10_000 });
    const itemId = await createItem({ name: "Дерево ×10 000", price: 4_900 });
    const bought = await buyApi(player.token, itemId, { server_type: "SOLO" });
    const { purchase } = (await bought.json()) as { purchase: { id: number } };

    const asked = await postReturn(player.token, { intent: "return", purchase_id: String(purchase.id), confirmed: "" });
    expect(asked).toEqual({
      status: 200,
      body: { confirm: { purchaseId: purchase.id, itemName: "Дерево ×10 000", amount: 49, giftTo: null } },
    });
    expect(await rows("SELECT status FROM inventory_entries WHERE purchase_id = ?", purchase.id)).toEqual([
      { status: "not_used" },
    ]);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 5_100, ledger: 5_100 });
    // Someone else's purchase is not even asked about.
    const other = await createPlayer();
    expect(await postReturn(other.token, { intent: "return", purchase_id: String(purchase.id) })).toEqual({
      status: 404,
      body: { error: "Покупка не найдена" },
    });

    const done = await postReturn(player.token, { intent: "return", purchase_id: String(purchase.id), confirmed: "1" });
    expect(done).toEqual({ status: 200, body: { success: "«Дерево ×10 000» возвращён: 49\u00a0₽ на балансе." } });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 10_000, ledger: 10_000 });
  });
});

describe("Enter in the item form (issue 36, item 6)", () => {
  it("a friend typed but not shown, or changed since, is shown first and nothing is bought", async () => {
    const buyer = await createPlayer({ balance: 30_000 });
    const friend = uniqueSteamId();
    const other = uniqueSteamId();
    const id = await createItem({ price: 5_000, serverType: "SOLO", isOneTime: true });
    const form = { server_type: "SOLO", expected_price: "50" };
    // Enter in the friend's field presses the form's first button, the purchase: the friend is shown instead.
    const typed = await unwrap(
      await post(id, { ...form, idempotency_key: crypto.randomUUID(), gift_to: friend }, buyer.token),
    );
    expect(typed.body).toMatchObject({ ok: "gift", recipient: { steamId: friend }, giftQuery: friend });
    // Shown, then the field changed to someone else: shown again, not bought for the first one.
    const changed = await unwrap(
      await post(
        id,
        { ...form, idempotency_key: crypto.randomUUID(), gift_to: other, gift_steam_id: friend, gift_checked: friend },
        buyer.token,
      ),
    );
    expect(changed.body).toMatchObject({ ok: "gift", recipient: { steamId: other } });
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });
    // «Показать получателя» with an empty field opens the gift part with the reason.
    const empty = await unwrap(
      await post(id, { ...form, idempotency_key: crypto.randomUUID(), intent: "gift-check", gift_to: "" }, buyer.token),
    );
    expect(empty.body).toMatchObject({ ok: false, status: 400, giftQuery: "" });

    // The shown friend, unchanged: the gift is bought.
    const bought = await post(
      id,
      { ...form, idempotency_key: crypto.randomUUID(), gift_to: friend, gift_steam_id: friend, gift_checked: friend },
      buyer.token,
    ).catch((thrown: unknown) => thrown);
    expect(bought).toBeInstanceOf(Response);
    expect(
      await rows(
        "SELECT f.steam_id FROM purchases p JOIN users f ON f.id = p.gift_to_user_id WHERE p.user_id = ?",
        buyer.id,
      ),
    ).toEqual([{ steam_id: friend }]);
  });
});

describe("the buyer follows a gift (issue 36, item 7)", () => {
  it("the history says where the gift is, from waiting to received, and offers «Вернуть» while it may", async () => {
    const clock = testClock();
    const timed = testDeps({ now: clock.now });
    // A type the shop sells (the purchase API takes only those); only this test's friend polls for it.
    const serverType = "MAX3";
    const server = await createGameServer(timed, { serverType, name: "Свобода #7" });
    const item = await createDeliverableItem(timed, {
      serverType,
      grant: ["inventory.giveto {steamid} wood 10000"],
      name: "Дерево ×10 000",
    });
    await runBatch([raw("UPDATE items SET price = 4900 WHERE id = ?", item.id)]);
    const buyer = await createPlayer({ balance: 10_000, deps: timed });
    const friend = await createPlayer({ nickname: "Друг Вася", deps: timed });
    const gift = await buyApi(buyer.token, item.id, { server_type: serverType, gift_to: friend.steamId });
    expect(gift.status).toBe(201);

    const waiting = await history(buyer.token, timed);
    expect(waiting).toContain("Подарок для Друг Вася");
    expect(waiting).toContain(`Ждёт в Корзине друга: придёт, когда друг зайдёт на сервер ${serverType}.`);
    expect(waiting).toMatch(/Можно вернуть до \d\d\.\d\d\.\d{4}/);
    expect(waiting).toContain("Вернуть");
    // The API says the same.
    const api = await fetchApi("/purchase/history", { headers: bearer(buyer.token) });
    const { purchases } = (await api.json()) as { purchases: { gift: unknown }[] };
    expect(purchases[0]?.gift).toMatchObject({ status: "not_used", returnable: true, last_error: null });

    // The friend joins the server and receives it.
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const [served] = (await sim.poll([friend.steamId])).deliveries;
    expect(served).toBeDefined();
    await sim.ack([{ delivery_id: served?.delivery_id ?? "", ok: true }]);
    const received = await history(buyer.token, timed);
    expect(received).toMatch(/Друг получил подарок \d\d\.\d\d\.\d{4}, \d\d:\d\d\./);
    expect(received).not.toContain("Вернуть");
    expect(received).not.toContain("Ждёт в Корзине друга");
  });
});

describe("a retried purchase with other terms (issue 36, item 8)", () => {
  it("the same idempotency key with another friend, or with none, is refused and moves nothing", async () => {
    const buyer = await createPlayer({ balance: 30_000 });
    const friend = await createPlayer({ nickname: "Друг Вася" });
    const other = await createPlayer({ nickname: "Друг Петя" });
    const itemId = await createItem({ price: 5_000 });
    const refused = { error: "Этот ключ идемпотентности уже использован для другой покупки" };

    // First for oneself, then the same key naming a friend.
    const own = crypto.randomUUID();
    expect((await buyApi(buyer.token, itemId, { server_type: "SOLO", idempotency_key: own })).status).toBe(201);
    const asGift = await buyApi(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: own,
      gift_to: friend.steamId,
    });
    expect(asGift.status).toBe(409);
    expect(await asGift.json()).toEqual(refused);

    // First a gift, then the same key for another friend, or for oneself.
    const gift = crypto.randomUUID();
    const first = await buyApi(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: gift,
      gift_to: friend.steamId,
    });
    expect(first.status).toBe(201);
    const toOther = await buyApi(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: gift,
      gift_to: other.steamId,
    });
    expect(toOther.status).toBe(409);
    expect(await toOther.json()).toEqual(refused);
    const forSelf = await buyApi(buyer.token, itemId, { server_type: "SOLO", idempotency_key: gift });
    expect(forSelf.status).toBe(409);

    // The same gift again is the first one, named rightly.
    const again = await buyApi(buyer.token, itemId, {
      server_type: "SOLO",
      idempotency_key: gift,
      gift_to: friend.steamId,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ gift_to: { steam_id: friend.steamId } });

    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 20_000, ledger: 20_000 });
    expect(await rows("SELECT COUNT(*) AS n FROM inventory_entries WHERE user_id = ?", friend.id)).toEqual([{ n: 1 }]);
    expect(await rows("SELECT COUNT(*) AS n FROM inventory_entries WHERE user_id = ?", other.id)).toEqual([{ n: 0 }]);
    expect(await rows("SELECT COUNT(*) AS n FROM inventory_entries WHERE user_id = ?", buyer.id)).toEqual([{ n: 1 }]);
  });
});

describe("a gift to a SteamID no one can have (issue 36, item 9)", () => {
  it("below Steam's first individual account: refused before paying, no account made", async () => {
    const buyer = await createPlayer({ balance: 30_000 });
    const itemId = await createItem({ price: 5_000 });
    const bad =
      "Укажите SteamID64 друга или ссылку на его профиль Steam (steamcommunity.com/profiles/… или steamcommunity.com/id/…)";
    for (const impossible of [
      "76561190000000000",
      "76561197960265727",
      "steamcommunity.com/profiles/76561190000000000",
    ]) {
      const gift = await buyApi(buyer.token, itemId, { server_type: "SOLO", gift_to: impossible });
      expect(gift.status, impossible).toBe(400);
      expect(await gift.json()).toEqual({ error: bad });
      const lookup = await fetchApi(`/gifts/recipient?q=${encodeURIComponent(impossible)}`, {
        headers: bearer(buyer.token),
      });
      expect(lookup.status, impossible).toBe(400);
    }
    expect(await rows("SELECT id FROM users WHERE steam_id IN ('76561190000000000', '76561197960265727')")).toEqual([]);
    expect(await balanceAndLedger(buyer.id)).toEqual({ balance: 30_000, ledger: 30_000 });
    // Steam's first individual account is one.
    const first = await fetchApi("/gifts/recipient?q=76561197960265728", { headers: bearer(buyer.token) });
    expect(first.status).toBe(200);
  });

  it("with Steam's key, an id Steam has no account for is «Профиль Steam не найден», not a number to pay for", async () => {
    const answers = new Map<string, Response | "down">();
    const steam: typeof fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const steamId = url.searchParams.get("steamids") ?? "";
      const answer = answers.get(steamId);
      if (answer === "down") return new Response("<html>502</html>", { status: 502 });
      return Response.json({ response: { players: [] } });
    };
    const base = testDeps({ fetch: steam });
    const production = {
      ...base,
      config: { ...base.config, steamApiKey: "production-key", steamWebApiBase: "https://api.steampowered.com" },
    };
    const buyer = await createPlayer();
    const nobody = uniqueSteamId();
    expect(await findGiftRecipient(production, { steamId: buyer.steamId, address: "unknown" }, nobody)).toEqual({
      ok: false,
      status: 404,
      error: "Профиль Steam не найден",
    });
    // Steam down: one the site doesn't know can't be checked now…
    answers.set(nobody, "down");
    expect(await findGiftRecipient(production, { steamId: buyer.steamId, address: "unknown" }, nobody)).toEqual({
      ok: false,
      status: 502,
      error: "Steam не ответил, попробуйте ещё раз",
    });
    // …and one who signed in here is shown as the site knows them.
    const known = await createPlayer({ nickname: "Друг с сайта" });
    answers.set(known.steamId, "down");
    expect(
      await findGiftRecipient(production, { steamId: buyer.steamId, address: "unknown" }, known.steamId),
    ).toMatchObject({
      ok: true,
      recipient: { steamId: known.steamId, nickname: "Друг с сайта" },
    });
  });
});

describe("the site's Steam budget (issue 36, item 10)", () => {
  /** Calls counted for the player (any window). */
  const counted = async (steamId: string) =>
    (
      await rows<{ n: number | null }>(
        "SELECT SUM(calls) AS n FROM steam_call_budget WHERE scope = 'player' AND subject = ?",
        steamId,
      )
    )[0]?.n ?? 0;

  it("a custom profile address costs two calls of the player's thirty", async () => {
    const clock = testClock(Date.parse("2026-12-01T10:00:00Z"));
    const timed = testDeps({ now: clock.now });
    const buyer = await createPlayer({ deps: timed });
    const from = { steamId: buyer.steamId, address: "198.51.100.20" };
    for (let lookup = 0; lookup < 15; lookup++) {
      expect((await findGiftRecipient(timed, from, "steamcommunity.com/id/no-money")).ok).toBe(true);
    }
    expect(await counted(buyer.steamId)).toBe(30);
    expect(await findGiftRecipient(timed, from, "steamcommunity.com/id/no-money")).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 10 мин.",
    });
    // A SteamID typed instead costs one, and is refused too: the budget is the player's, not the method's.
    expect((await findGiftRecipient(timed, from, uniqueSteamId())).ok).toBe(false);
    expect(await counted(buyer.steamId)).toBe(30);
  });

  it("sixty calls from one address in ten minutes, whoever signs in there", async () => {
    const clock = testClock(Date.parse("2026-12-02T10:03:00Z"));
    const timed = testDeps({ now: clock.now });
    const address = "198.51.100.61";
    for (const _ of [1, 2]) {
      const player = await createPlayer({ deps: timed });
      for (let lookup = 0; lookup < 30; lookup++) {
        expect((await findGiftRecipient(timed, { steamId: player.steamId, address }, uniqueSteamId())).ok).toBe(true);
      }
    }
    const third = await createPlayer({ deps: timed });
    expect(await findGiftRecipient(timed, { steamId: third.steamId, address }, uniqueSteamId())).toEqual({
      ok: false,
      status: 429,
      error: "Слишком много проверок получателя. Попробуйте через 7 мин.",
    });
    // The refused call counted nowhere; another address goes ahead.
    expect(await counted(third.steamId)).toBe(0);
    const elsewhere = { steamId: third.steamId, address: "198.51.100.62" };
    expect((await findGiftRecipient(timed, elsewhere, uniqueSteamId())).ok).toBe(true);
  });

  it("the whole site's hour used up: everyone waits, told in Russian until when", async () => {
    const clock = testClock(Date.parse("2026-12-03T15:40:00Z"));
    const timed = testDeps({ now: clock.now });
    const hour = Date.parse("2026-12-03T15:00:00Z");
    // A busy hour: the site has asked Steam 1 000 times already.
    await runBatch([
      raw(
        "INSERT INTO steam_call_budget (scope, subject, window_start, calls, cap) VALUES ('site', '', ?, 1000, 1000)",
        hour,
      ),
    ]);
    const buyer = await createPlayer({ deps: timed });
    expect(
      await findGiftRecipient(timed, { steamId: buyer.steamId, address: "203.0.113.70" }, uniqueSteamId()),
    ).toEqual({
      ok: false,
      status: 429,
      error: "Сейчас на сайте слишком много проверок получателей. Попробуйте через 20 мин.",
    });
    expect(await counted(buyer.steamId)).toBe(0);
    clock.set(Date.parse("2026-12-03T16:00:00Z"));
    expect(
      (await findGiftRecipient(timed, { steamId: buyer.steamId, address: "203.0.113.70" }, uniqueSteamId())).ok,
    ).toBe(true);
  });

  it("a gift the balance can't cover is refused before any call; buying a friend already shown spends none", async () => {
    const poor = await createPlayer();
    const itemId = await createItem({ price: 5_000, isOneTime: true });
    const friend = uniqueSteamId();
    const api = await buyApi(poor.token, itemId, { server_type: "SOLO", gift_to: friend });
    expect(api.status).toBe(402);
    expect(await api.json()).toEqual({ error: "Недостаточно средств на балансе" });
    // The page: the friend shown earlier stays shown, and Steam is not asked again.
    const page = await unwrap(
      await post(
        itemId,
        {
          server_type: "SOLO",
          expected_price: "50",
          idempotency_key: crypto.randomUUID(),
          gift_to: friend,
          gift_checked: friend,
          gift_steam_id: friend,
          gift_nickname: "Друг из Steam",
          gift_avatar: "/images/avatar-default.svg",
        },
        poor.token,
      ),
    );
    expect(page).toEqual({
      status: 402,
      body: {
        ok: false,
        status: 402,
        error: "Недостаточно средств на балансе",
        missing: 50,
        duration: null,
        giftQuery: friend,
        recipient: { steamId: friend, nickname: "Друг из Steam", avatarUrl: "/images/avatar-default.svg" },
      },
    });
    expect(await counted(poor.steamId)).toBe(0);

    // With the money, a friend who signed in here is bought for as the site knows them, without Steam.
    const buyer = await createPlayer({ balance: 10_000 });
    const known = await createPlayer({ nickname: "Друг с сайта" });
    const bought = await post(
      itemId,
      {
        server_type: "SOLO",
        expected_price: "50",
        idempotency_key: crypto.randomUUID(),
        gift_to: known.steamId,
        gift_checked: known.steamId,
        gift_steam_id: known.steamId,
      },
      buyer.token,
    ).catch((thrown: unknown) => thrown);
    expect(bought).toBeInstanceOf(Response);
    expect(await counted(buyer.steamId)).toBe(0);
  });
});

describe("a sale says when it ends (issue 36, item 11)", () => {
  it("on the card, the item page and the buy dialog", async () => {
    const id = await createItem({ name: "Дерево на распродаже", price: 4_900 });
    const page = await load(`/shop/items/${id}`, id);
    const item = {
      ...page.item,
      sale: { title: "Выходные ресурсов", percent: 20, ends_at: "2026-11-30T20:59:00.000Z" },
    };
    const ends = "Скидка до 30.11.2026, 23:59 (МСК)";
    const router = (element: ReturnType<typeof createElement>) =>
      renderToStaticMarkup(
        createElement(RouterProvider as typeof RP, {
          router: createMemoryRouter([{ path: "/", element }], { initialEntries: ["/"] }),
        }),
      );
    const card = renderToStaticMarkup(createElement(ItemCard, { item, serverNow: page.now, eager: true }));
    expect(card).toContain(ends);
    const dialog = router(
      createElement(BuyDialog, { item, balance: 100, returnTo: "/shop", onClose: () => {}, onPurchased: () => {} }),
    );
    expect(dialog).toContain(ends);
    const itemPage = router(
      createElement(ShopItemPage, {
        loaderData: { ...page, item },
        actionData: undefined,
        params: { id: String(id) },
        matches: [],
      } as never),
    );
    expect(itemPage).toContain(ends);
    // No sale, no date.
    expect(
      renderToStaticMarkup(createElement(ItemCard, { item: page.item, serverNow: page.now, eager: true })),
    ).not.toContain("Скидка до");
  });
});

describe("a sold-out offer (issue 36, item 12)", () => {
  it("says it is sold out on the disabled button too, not only «Товар недоступен»", () => {
    const item = { no_server: false, max_quantity: 100, sold_quantity: 100 };
    expect(blockedText(item, "unavailable")).toBe("Товар недоступен: распродан");
    expect(blockedText({ ...item, sold_quantity: 40 }, "unavailable")).toBe("Товар недоступен");
    expect(blockedText({ no_server: false, max_quantity: null, sold_quantity: 0 }, "unavailable")).toBe(
      "Товар недоступен",
    );
  });
});

describe("a gift reads as a gift in every state (issue 46, item 9)", () => {
  /** `path`'s profile route args as `token`'s player, after the profile layout's middleware. */
  async function profileArgs(token: string, path: string, form?: Record<string, string>) {
    const url = `http://localhost${path}`;
    const request = new Request(url, {
      method: form ? "POST" : "GET",
      headers: { Cookie: sessionCookie(token).cookie },
      body: form ? new URLSearchParams(form) : undefined,
    });
    const args = { request, context: createRouterContext(deps), params: {}, url: new URL(url), pattern: path };
    const [run] = profileMiddleware;
    if (!run) throw new Error("no middleware");
    await run(args as never, async () => new Response(null));
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
    return args as any;
  }

  it("its status, the question before taking it back, the answer, the statement, and one name for the friend", async () => {
    const buyer = await createPlayer({ balance: 30_000 });
    // A friend the site doesn't know yet: Steam names them (the stand-in: «Игрок NNNN»).
    const friend = { steamId: uniqueSteamId() };
    const name = `Игрок ${friend.steamId.slice(-4)}`;
    const itemId = await createItem({ name: "Premium", price: 9_900 });
    const gift = await buyApi(buyer.token, itemId, { server_type: "SOLO", gift_to: friend.steamId });
    expect(gift.status).toBe(201);
    const { purchase, gift_to } = (await gift.json()) as { purchase: { id: number }; gift_to: { nickname: string } };
    // The name the buyer was shown is the name the site keeps, and a friend the site knows is shown
    // as the site knows them without asking Steam again (decision 141): one name, never the bare SteamID.
    expect(gift_to.nickname).toBe(name);
    expect(await rows("SELECT nickname FROM users WHERE steam_id = ?", friend.steamId)).toEqual([{ nickname: name }]);
    const waiting = await history(buyer.token);
    expect(waiting).toContain(`Подарок для ${name}`);
    expect(waiting).toContain("Подарок ждёт друга");
    expect(waiting).not.toContain("Завершено");
    expect(waiting).not.toContain(friend.steamId);

    const asked = await unwrap(
      await purchasesAction(
        await profileArgs(buyer.token, "/purchases", { intent: "return", purchase_id: String(purchase.id) }),
      ),
    );
    const question = renderToStaticMarkup(
      createElement(RouterProvider as typeof RP, {
        router: createMemoryRouter([
          { path: "/", element: createElement(ReturnNotice, { result: asked.body as never }) },
        ]),
      }),
    );
    expect(question.replaceAll("\u00a0", " ")).toContain(
      `Отменить подарок «Premium» для ${name}? Друг его не получит, 99 ₽ вернутся на ваш баланс.`,
    );
    const done = await unwrap(
      await purchasesAction(
        await profileArgs(buyer.token, "/purchases", {
          intent: "return",
          purchase_id: String(purchase.id),
          confirmed: "1",
        }),
      ),
    );
    expect(String(done.body.success).replaceAll("\u00a0", " ")).toBe(
      `Подарок «Premium» для ${name} отменён: 99 ₽ на балансе.`,
    );
    expect(await history(buyer.token)).toContain("Подарок отменён");

    const statement = await statementLoader(await profileArgs(buyer.token, "/statement"));
    expect(statement.entries.map((entry: { description: string }) => entry.description)).toEqual([
      `Отмена подарка «Premium» (SOLO) для ${name} до выдачи`,
      `Подарок «Premium» (SOLO) для ${name}`,
      "Корректировка баланса",
    ]);
  });
});
