// The item page's loader and action: the purchase form that works without JavaScript,
// and the same action the buy dialog posts to.

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { blockedText } from "#core/messages/shop.ts";
import { ItemCard } from "../app/components/shop/item-card.tsx";
import { action, loader } from "../app/routes/shop.item.tsx";
import { loader as shopLoader } from "../app/routes/shop.tsx";
import { testClock, testDeps } from "./support/deps.ts";
import { balanceAndLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { createCategory, createItem, ensureServerStatement } from "./support/shop-fixtures.ts";
import { sessionCookie } from "./support/sign-in.ts";
import { raw, runBatch } from "./support/sql.ts";

type ActionArgs = Parameters<typeof action>[0];
type LoaderArgs = Parameters<typeof loader>[0];

function args(url: string, init: RequestInit & { token?: string } = {}, id?: number) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("cookie", sessionCookie(init.token).cookie);
  return routeArgs<ActionArgs & LoaderArgs>(
    testDeps(),
    url,
    { ...init, headers },
    { params: { id: String(id ?? "") }, pattern: "/shop/items/:id" },
  );
}

function post(id: number, fields: Record<string, string>, token?: string) {
  return action(
    args(`http://localhost/shop/items/${id}`, { method: "POST", body: new URLSearchParams(fields), token }, id),
  );
}

async function unwrap(result: unknown): Promise<{ status: number; body: unknown }> {
  if (result instanceof Response) return { status: result.status, body: result.headers.get("location") };
  const value = result as { data: unknown; init: ResponseInit | null };
  return { status: value.init?.status ?? 200, body: value.data };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("/shop/items/:id action", () => {
  it("buys with a plain form post and redirects to the result, once per idempotency key", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 19_900, serverType: "MAX3", durations: [[14, null]] });
    const fields = { server_type: "MAX3", duration: "14", idempotency_key: crypto.randomUUID() };
    const redirect = (await thrown(post(id, fields, player.token))) as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toMatch(new RegExp(`^/shop/items/${id}\\?purchased=\\d+$`));
    // The same form submitted again (back button, double click) buys nothing more.
    await thrown(post(id, fields, player.token));
    // round(14/30 × 199) = 93 ₽
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000 - 9_300, ledger: 100_000 - 9_300 });
  });

  it("answers the dialog (JavaScript) with data instead of a redirect", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 5_000, isOneTime: true });
    const result = await unwrap(
      await post(id, { server_type: "SOLO", idempotency_key: crypto.randomUUID(), _js: "1" }, player.token),
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ ok: true, balance: 950, purchase: { price: 50, status: "completed" } });
  });

  it("maps failures to the spec's texts: signed out, short of funds, missing duration, bad input", async () => {
    const poor = await createPlayer({ balance: 100 });
    const rank = await createItem({ price: 19_900, durations: [[30, null]] });
    const key = () => crypto.randomUUID();
    expect(await unwrap(await post(rank, { server_type: "SOLO", duration: "30", idempotency_key: key() }))).toEqual({
      status: 401,
      body: { ok: false, status: 401, error: "Необходима авторизация" },
    });
    expect(
      await unwrap(await post(rank, { server_type: "SOLO", duration: "30", idempotency_key: key() }, poor.token)),
    ).toEqual({
      status: 402,
      // 199 ₽ for 30 days against 1 ₽: the page offers a top-up of the 198 ₽ missing, back to the 30 days.
      body: { ok: false, status: 402, error: "Недостаточно средств на балансе", missing: 198, duration: 30 },
    });
    expect(await unwrap(await post(rank, { server_type: "SOLO", idempotency_key: key() }, poor.token))).toEqual({
      status: 400,
      body: { ok: false, status: 400, error: "Выберите срок действия" },
    });
    for (const duration of ["-30", "abc", "30.5"]) {
      const result = await unwrap(
        await post(rank, { server_type: "SOLO", duration, idempotency_key: key() }, poor.token),
      );
      expect(result.status, duration).toBe(400);
    }
    expect((await unwrap(await post(rank, { server_type: "X", idempotency_key: key() }, poor.token))).status).toBe(400);
    expect(await balanceAndLedger(poor.id)).toEqual({ balance: 100, ledger: 100 });
  });

  it("shows a type with no game server as not sold for now, refuses the form (409), and sells once a server is added", async () => {
    const player = await createPlayer({ balance: 100_000 });
    const id = await createItem({ price: 5_000, isOneTime: true, serverType: "MAX2" });
    await runBatch([raw("DELETE FROM servers WHERE server_type = 'MAX2'")]);
    const page = await loader(args(`http://localhost/shop/items/${id}`, { token: player.token }, id));
    expect(page.item).toMatchObject({ is_available: false, no_server: true });
    // What the card and the item page say instead of «Купить».
    const card = renderToStaticMarkup(createElement(ItemCard, { item: page.item, serverNow: page.now, eager: true }));
    expect(card).toContain("Временно не продаётся: сейчас нет сервера этого типа");
    expect(blockedText(page.item, null)).toBe("Временно не продаётся: сейчас нет сервера этого типа");
    // A form posted anyway (an old page, no JavaScript): the reason, nothing charged.
    const fields = { server_type: "MAX2", idempotency_key: crypto.randomUUID() };
    expect(await unwrap(await post(id, fields, player.token))).toEqual({
      status: 409,
      body: {
        ok: false,
        status: 409,
        error: "Товары для этого типа серверов временно не продаются: сейчас нет ни одного сервера этого типа",
      },
    });
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 100_000, ledger: 100_000 });

    await runBatch([ensureServerStatement("MAX2")]);
    const sold = await loader(args(`http://localhost/shop/items/${id}`, { token: player.token }, id));
    expect(sold.item).toMatchObject({ is_available: true, no_server: false });
    const redirect = (await thrown(
      post(id, { ...fields, idempotency_key: crypto.randomUUID() }, player.token),
    )) as Response;
    expect(redirect.status).toBe(302);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 95_000, ledger: 95_000 });
  });

  it("answers 404 for an unknown or malformed item id", async () => {
    for (const id of [987_654_321]) {
      const response = (await thrown(loader(args(`http://localhost/shop/items/${id}`, {}, id)))) as {
        init: ResponseInit;
      };
      expect(response.init.status).toBe(404);
    }
    const bad = args("http://localhost/shop/items/abc");
    bad.params.id = "abc";
    expect(((await thrown(loader(bad))) as { init: ResponseInit }).init.status).toBe(404);
  });
});

describe("/shop loader", () => {
  it("keeps server type, category and search in the address, with fallbacks for junk", async () => {
    const categoryId = await createCategory();
    const vip = await createItem({ name: `VIP ${categoryId}`, serverType: "MAX2", categoryId });
    await createItem({ name: `Дерево ${categoryId}`, serverType: "MAX2", categoryId });
    const deps = testDeps({ now: testClock().now });
    const load = (search: string) =>
      shopLoader(routeArgs<Parameters<typeof shopLoader>[0]>(deps, `http://localhost/shop${search}`));

    const found = await load(`?server_type=MAX2&category_id=${categoryId}&query=vip%20${categoryId}`);
    expect(found).toMatchObject({ serverType: "MAX2", categoryId, searching: true, balance: null });
    expect(found.items.map((item) => item.id)).toEqual([vip]);

    // Two characters search (Rust names like «ак», «C4»); one is too short.
    const short = await load(`?server_type=MAX2&category_id=${categoryId}&query=%20v%20`);
    expect(short).toMatchObject({ query: "v", searching: false });
    expect(short.items).toHaveLength(2);

    const junk = await load("?server_type=NOPE&category_id=abc&query=");
    expect(junk).toMatchObject({ serverType: "SOLO", categoryId: null, query: "" });
    expect(junk.types).toEqual(["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"]);
  });
});
