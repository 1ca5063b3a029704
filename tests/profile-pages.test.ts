import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createRouterContext, depsContext } from "#app/lib/deps-context.server.ts";
import { sessions, users } from "#db/schema.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import {
  createInventoryEntry,
  createItem,
  createPayment,
  createPromo,
  createPurchase,
} from "#tests/support/profile-fixtures.ts";
import { profilePageArgs } from "#tests/support/profile-page.ts";
import { thrownResponse } from "#tests/support/routes.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import { uniqueIp } from "#tests/support/unique.ts";
import { loader as depositsLoader } from "../app/routes/profile.deposits.tsx";
import { loader as historyLoader } from "../app/routes/profile.history.tsx";
import { loader as inventoryLoader } from "../app/routes/profile.inventory.tsx";
import { action as promoAction } from "../app/routes/profile.promocodes.tsx";
import { loader as purchasesLoader } from "../app/routes/profile.purchases.tsx";
import { loader as layoutLoader, middleware } from "../app/routes/profile.tsx";

const deps = testDeps();

/** Runs the profile layout's middleware as React Router would, then hands back what loaders get. */
const pageArgs = (url: string, options: Parameters<typeof profilePageArgs>[2] = {}) =>
  profilePageArgs(deps, url, options);

describe("profile pages", () => {
  it("send a signed-out visitor to Steam sign-in, coming back to the same address", async () => {
    for (const path of ["/profile?status=used", "/promocodes", "/purchases", "/history", "/deposits", "/statement"]) {
      const response = await thrownResponse(pageArgs(`http://localhost${path}`));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/api/auth/steam?return_to=${encodeURIComponent(path)}`);
      // A full page load: /api/auth/steam is not one of the site's pages.
      expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
    }
  });

  it("show the info panel: nickname, Steam ID, balance in rubles", async () => {
    const player = await createPlayer({ deps, balance: 123450, nickname: "Охотник" });
    const data = await layoutLoader(await pageArgs("http://localhost/profile", { token: player.token }));
    expect(data).toEqual({
      user: { nickname: "Охотник", avatarUrl: player.avatarUrl, steamId: player.steamId, balance: 1234.5 },
      payment: null,
    });
  });

  it("read the payment return parameter: success or anything else", async () => {
    const player = await createPlayer({ deps });
    const ok = await layoutLoader(await pageArgs("http://localhost/profile?payment=success", { token: player.token }));
    expect(ok.payment).toBe("success");
    const failed = await layoutLoader(
      await pageArgs("http://localhost/deposits?payment=cancel", { token: player.token }),
    );
    expect(failed.payment).toBe("failure");
  });

  it("list the Корзина with the filter from the address", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Кит" });
    const unused = await createInventoryEntry(deps, player.id, item.id);
    const used = await createInventoryEntry(deps, player.id, item.id, { status: "used" });

    const all = await inventoryLoader(await pageArgs("http://localhost/profile", { token: player.token }));
    expect(all.filter).toBe("all");
    expect(all.items.map((entry: { id: number }) => entry.id).sort()).toEqual([unused.id, used.id].sort());

    const onlyUsed = await inventoryLoader(
      await pageArgs("http://localhost/profile?status=used", { token: player.token }),
    );
    expect(onlyUsed).toMatchObject({ filter: "used", items: [{ id: used.id, status: "used" }] });

    const junk = await inventoryLoader(await pageArgs("http://localhost/profile?status=zzz", { token: player.token }));
    expect(junk.filter).toBe("all");
  });

  it("read the Корзина and its servers with the session, in one round trip, only the player's own (decision 112)", async () => {
    const player = await createPlayer({ deps });
    const other = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Кит" });
    const mine = await createInventoryEntry(deps, player.id, item.id);
    await createInventoryEntry(deps, other.id, item.id);

    // Every way to the database, counted: the port's reads, batches and single statements, and drizzle.
    const roundTrips: string[] = [];
    const countingDb = new Proxy(deps.db, {
      get(target, key, receiver) {
        if (key === "read" || key === "batch" || key === "run" || key === "orm") roundTrips.push(String(key));
        return Reflect.get(target, key, receiver);
      },
    });
    const args = await pageArgs("http://localhost/profile", { token: player.token });
    // The layout's middleware made its one batch; the page's loader needs no database at all now.
    const offline = {
      ...deps,
      db: new Proxy(deps.db, {
        get() {
          throw new Error("the Корзина should have come with the session");
        },
      }),
    };
    args.context.set(depsContext, offline);
    const data = await inventoryLoader(args);
    expect(data.items.map((entry: { id: number }) => entry.id)).toEqual([mine.id]);
    expect(data.items[0]).toMatchObject({ item_name: "Кит", status: "not_used" });

    // Counted on a fresh request: exactly one batch for the session and the Корзина.
    const counted = { ...deps, db: countingDb };
    const request = new Request("http://localhost/profile", {
      headers: { Cookie: sessionCookie(player.token).cookie },
    });
    const context: RouterContextProvider = createRouterContext(counted as typeof deps);
    const [run] = middleware;
    await run?.(
      { request, context, params: {}, url: new URL(request.url), pattern: "/profile" } as never,
      async () => new Response(null),
    );
    expect(roundTrips).toEqual(["read"]);

    // A revoked session reads nothing and goes to sign-in, as before.
    await deps.db.orm
      .update(sessions)
      .set({ revokedAt: Date.now() - 1000 })
      .where(eq(sessions.userId, player.id));
    const response = await thrownResponse(pageArgs("http://localhost/profile", { token: player.token }));
    expect(response.status).toBe(302);
  });

  it("show the same purchase history at /purchases and /history, and deposits at /deposits", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps);
    const purchase = await createPurchase(deps, player.id, item.id);
    const payment = await createPayment(deps, player.id);

    const purchases = await purchasesLoader(await pageArgs("http://localhost/purchases", { token: player.token }));
    const history = await historyLoader(await pageArgs("http://localhost/history", { token: player.token }));
    expect(purchases.purchases.map((row: { id: number }) => row.id)).toEqual([purchase.id]);
    expect(history.purchases).toEqual(purchases.purchases);

    const deposits = await depositsLoader(await pageArgs("http://localhost/deposits", { token: player.token }));
    expect(deposits.deposits.map((row: { ID: string }) => row.ID)).toEqual([payment.id]);
  });
});

describe("/promocodes form action (no JavaScript needed)", () => {
  it("activates a BALANCE code and says how much was credited", async () => {
    const player = await createPlayer({ deps });
    const promo = await createPromo(deps, { type: "BALANCE", value: 10000 });
    const result = await promoAction(
      await pageArgs("http://localhost/promocodes", { token: player.token, form: { code: promo.code.toLowerCase() } }),
    );
    expect(result.init).toBeNull();
    expect(result.data).toEqual({ success: "Промокод успешно активирован! На ваш баланс начислено 100\u00a0₽" });
    const [row] = await deps.db.orm.select().from(users).where(eq(users.id, player.id));
    expect(row?.balance).toBe(10000);
  });

  it("activates an ITEM code and names the item", async () => {
    const player = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Набор «Старт»" });
    const promo = await createPromo(deps, { type: "ITEM", itemId: item.id });
    const result = await promoAction(
      await pageArgs("http://localhost/promocodes", { token: player.token, form: { code: promo.code } }),
    );
    expect(result.data).toEqual({ success: "Промокод успешно активирован! Вы получили предмет: Набор «Старт»" });
  });

  it("answers the service's errors with their status and keeps the typed code", async () => {
    const player = await createPlayer({ deps });
    const blank = await promoAction(
      await pageArgs("http://localhost/promocodes", { token: player.token, form: { code: "  " } }),
    );
    expect(blank.init?.status).toBe(400);
    expect(blank.data).toEqual({ error: "Введите промокод", code: "  " });

    const unknown = await promoAction(
      await pageArgs("http://localhost/promocodes", { token: player.token, form: { code: "NOPE-NOPE" } }),
    );
    expect(unknown.init?.status).toBe(404);
    expect(unknown.data).toEqual({ error: "Промокод не найден", code: "NOPE-NOPE" });
  });

  it("answers Необходима авторизация to a post without a session instead of activating", async () => {
    const promo = await createPromo(deps, { type: "BALANCE", value: 100 });
    const result = await promoAction(await pageArgs("http://localhost/promocodes", { form: { code: promo.code } }));
    expect(result.init?.status).toBe(401);
    expect(result.data).toEqual({ error: "Необходима авторизация", code: promo.code });
  });
});
