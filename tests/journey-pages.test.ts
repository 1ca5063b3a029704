// From paying to playing (issue 20), page by page: the chosen server type kept in a cookie, a top-up
// for the amount a purchase is short of that comes back to the item, and the receipt that stays.
import { describe, expect, it } from "vitest";
import { serverTypeCookieUpdate } from "#core/shop/server-type-choice.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api } from "#tests/support/profile-fixtures.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createCategory, createItem, fetchApi } from "#tests/support/shop-fixtures.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import { paymentReturnLocation } from "#worker/services/payments/payments.ts";
import { shopPageCatalog } from "#worker/services/shop/catalog.ts";
import { loader as rootLoader } from "../app/root.tsx";
import { loader as balanceLoader } from "../app/routes/balance.tsx";
import { action as itemAction, loader as itemLoader } from "../app/routes/shop.item.tsx";
import { loader as shopLoader, middleware as shopMiddleware } from "../app/routes/shop.tsx";

const deps = testDeps({ now: testClock().now });

function shop(search: string, cookie?: string) {
  const init = cookie ? { headers: { cookie } } : {};
  return shopLoader(routeArgs<Parameters<typeof shopLoader>[0]>(deps, `http://localhost/shop${search}`, init));
}

/** The shop route's middleware around a plain answer: the Set-Cookie it adds, if any. */
async function cookieAfter(url: string, cookie?: string): Promise<string | null> {
  const args = routeArgs<Parameters<NonNullable<(typeof shopMiddleware)[0]>>[0]>(
    deps,
    url,
    cookie ? { headers: { cookie } } : {},
  );
  const [run] = shopMiddleware;
  if (!run) throw new Error("no middleware");
  const response = (await run(args, async () => new Response("страница"))) as Response;
  expect(await response.text()).toBe("страница");
  return response.headers.get("set-cookie");
}

describe("the chosen server type", () => {
  it("is kept by the selector's link and read back by the shop, the header and the home page", async () => {
    const chosen = await cookieAfter("http://localhost/shop?server_type=MAX2");
    expect(chosen).toBe("server_type=MAX2; Path=/; Max-Age=31536000; SameSite=Lax");
    // Client navigations ask /shop.data: the same.
    expect(await cookieAfter("http://localhost/shop.data?server_type=MAX2")).toBe(chosen);
    // Already kept, not a known type, or the default with nothing kept: nothing to set.
    expect(await cookieAfter("http://localhost/shop?server_type=MAX2", "server_type=MAX2")).toBeNull();
    expect(await cookieAfter("http://localhost/shop?server_type=SOLO%3B%20evil")).toBeNull();
    expect(await cookieAfter("http://localhost/shop?server_type=SOLO")).toBeNull();
    expect(await cookieAfter("http://localhost/shop?server_type=SOLO", "server_type=MAX3")).toBe(
      "server_type=SOLO; Path=/; Max-Age=31536000; SameSite=Lax",
    );
    const address = (url: string) => [new Request(url), new URL(url)] as const;
    expect(serverTypeCookieUpdate(...address("https://shop.example/shop?server_type=MAX3"))).toMatch(/; Secure$/);
    // Only the shop's own list chooses; an item page of another type does not.
    expect(serverTypeCookieUpdate(...address("http://localhost/shop/items/1?server_type=MAX3"))).toBeNull();

    expect((await shop("", "server_type=MAX2")).serverType).toBe("MAX2");
    expect((await shop("?server_type=VANILLA", "server_type=MAX2")).serverType).toBe("VANILLA");
    expect((await shop("", "server_type=<b>")).serverType).toBe("SOLO");
    expect((await shop("")).serverType).toBe("SOLO");

    const root = (cookie?: string, url = "http://localhost/") =>
      rootLoader(routeArgs<Parameters<typeof rootLoader>[0]>(deps, url, cookie ? { headers: { cookie } } : {}));
    expect((await root("server_type=MAX2")).serverType).toBe("MAX2");
    expect((await root("server_type=nope")).serverType).toBeNull();
    expect((await root()).serverType).toBeNull();
    // The selector's own request already names the new type, before its cookie comes back.
    expect((await root("server_type=SOLO", "http://localhost/shop.data?server_type=MAX3")).serverType).toBe("MAX3");
  });

  it("lists only the categories that have items of the type", async () => {
    const used = await createCategory("Оружие");
    const empty = await createCategory("Транспорт");
    const serverType = `TEST_${used}`;
    await createItem({ serverType, categoryId: used });
    const page = await shopPageCatalog(deps, { serverType }, null, { page: 1, perPage: 24 });
    const ids = page.categories.map((category) => category.id);
    expect(ids).toContain(used);
    expect(ids).not.toContain(empty);
  });
});

describe("short of money: top up and come back", () => {
  it("says how much is missing and which duration to come back to", async () => {
    const player = await createPlayer({ deps, balance: 5_000 });
    const id = await createItem({ price: 19_900, serverType: "MAX2", durations: [[14, null]] });
    const result = (await itemAction(
      routeArgs<Parameters<typeof itemAction>[0]>(
        deps,
        `http://localhost/shop/items/${id}`,
        {
          method: "POST",
          headers: { cookie: sessionCookie(player.token).cookie },
          body: new URLSearchParams({ server_type: "MAX2", duration: "14", idempotency_key: crypto.randomUUID() }),
        },
        { params: { id: String(id) } },
      ),
    )) as unknown as { data: unknown };
    // round(14/30 × 199) = 93 ₽ against 50 ₽.
    expect(result.data).toEqual({
      ok: false,
      status: 402,
      error: "Недостаточно средств на балансе",
      missing: 43,
      duration: 14,
    });
  });

  it("opens the top-up form with the amount filled in and a same-site return path only", async () => {
    const balance = (search: string) =>
      balanceLoader(routeArgs<Parameters<typeof balanceLoader>[0]>(deps, `http://localhost/balance${search}`));
    const back = encodeURIComponent("/shop/items/301?duration=14");
    expect(await balance(`?amount=43&return_to=${back}`)).toMatchObject({
      amount: 43,
      returnTo: "/shop/items/301?duration=14",
    });
    for (const bad of [
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "/api/auth/steam",
    ]) {
      expect((await balance(`?return_to=${encodeURIComponent(bad)}`)).returnTo, bad).toBeNull();
    }
    // Below the smallest top-up, not a number, or over the ceiling: the field stays empty.
    for (const amount of ["5", "abc", "1000001"])
      expect((await balance(`?amount=${amount}`)).amount, amount).toBeNull();
  });

  it("brings the player back from the payment to the item with the result", async () => {
    expect(paymentReturnLocation("/shop/items/301?duration=14", "success")).toBe(
      "/shop/items/301?duration=14&payment=success",
    );
    expect(paymentReturnLocation("//evil.example", "success")).toBe("/profile?payment=success");
    expect(paymentReturnLocation(null, "failed")).toBe("/profile?payment=failed");

    // The return address itself, for a payment it doesn't know: back to the item, not paid.
    const response = await fetchApi(
      `/payment/return/${crypto.randomUUID()}?next=${encodeURIComponent("/shop/items/301?duration=14")}`,
      { redirect: "manual" },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/shop/items/301?duration=14&payment=failed");
  });

  it("shows the item ready to buy: the duration chosen and the payment's result", async () => {
    const player = await createPlayer({ deps, balance: 10_000 });
    const id = await createItem({
      price: 19_900,
      serverType: "MAX2",
      durations: [
        [14, null],
        [30, null],
      ],
    });
    const page = await itemLoader(
      routeArgs<Parameters<typeof itemLoader>[0]>(
        deps,
        `http://localhost/shop/items/${id}?duration=14&payment=success`,
        { headers: { cookie: sessionCookie(player.token).cookie } },
        { params: { id: String(id) } },
      ),
    );
    expect(page).toMatchObject({ duration: 14, payment: "success", balance: 100 });
  });
});

describe("the receipt", () => {
  it("is the player's own purchase of the item, with the servers of its type; another's id shows none", async () => {
    const player = await createPlayer({ deps, balance: 100_000 });
    const stranger = await createPlayer({ deps });
    const id = await createItem({ price: 19_900, serverType: "MAX2", durations: [[30, null]] });
    const bought = await api(`/purchase/items/${id}`, {
      token: player.token,
      body: { server_type: "MAX2", duration: 30 },
    });
    expect(bought.status).toBe(201);
    const purchaseId = (bought.json as unknown as { purchase: { id: number } }).purchase.id;
    const load = (token: string) =>
      itemLoader(
        routeArgs<Parameters<typeof itemLoader>[0]>(
          deps,
          `http://localhost/shop/items/${id}?purchased=${purchaseId}`,
          { headers: { cookie: sessionCookie(token).cookie } },
          { params: { id: String(id) } },
        ),
      );
    const mine = await load(player.token);
    expect(mine.receipt?.purchase).toMatchObject({ server_type: "MAX2", duration_text: "30 дней", price: 199 });
    expect(mine.balance).toBe(801);
    expect(Array.isArray(mine.receipt?.servers)).toBe(true);
    expect((await load(stranger.token)).receipt).toBeNull();
  });
});
