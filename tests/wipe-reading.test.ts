// Issue 46: the wipe as a player reads it. Pages as the server renders them (no JavaScript), their
// loaders on a clock the test holds: «до вайпа» says when it ends where it is chosen (decision 139).

import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { returnUntilText } from "#core/messages/returns.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import { scheduleToColumns, type WipeSchedule } from "#core/wipe/schedule.ts";
import { fairPlayWindows, servers } from "#db/schema.ts";
import { runScheduled } from "#worker/cron/index.ts";
import type { Deps } from "#worker/deps.ts";
import { listStatement } from "#worker/services/profile/statement.ts";
import { type PublicServer, refreshServerStatus, STATUS_KEY } from "#worker/services/server-status.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { ServerList } from "../app/components/server-list.tsx";
import { BuyDialog } from "../app/components/shop/buy-dialog.tsx";
import { ItemCard } from "../app/components/shop/item-card.tsx";
import ShopItemPage, { action as itemAction, loader as itemLoader } from "../app/routes/shop.item.tsx";
import { loader as shopLoader } from "../app/routes/shop.tsx";
import Wipes, { loader as wipesLoader } from "../app/routes/wipes.tsx";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import { depsFor, testClock, testDeps } from "./support/deps.ts";
import { createGameServer, uniqueServerType } from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { routeArgs } from "./support/routes.ts";
import { createCategory, createItem } from "./support/shop-fixtures.ts";
import { sessionCookie } from "./support/sign-in.ts";

// Sunday 29 November 2026, 10:00 in Moscow. December's forced wipe is Thursday the 3rd at 22:00.
const SUNDAY_10_MSK = Date.parse("2026-11-29T07:00:00Z");
// Thursday 3 December, 22:30 in Moscow: half an hour after the forced wipe.
const AFTER_FORCED_WIPE = Date.parse("2026-12-03T19:30:00Z");
/** A server wiped weekly on Fridays at 18:00 Moscow time. */
const FRIDAYS_18: WipeSchedule = { kind: "weekly", weekday: 5, minute: 18 * 60 };

/** The status document the cron writes, with one server of `serverType` on `schedule`. */
async function announce(deps: Deps, serverType: string, schedule: WipeSchedule) {
  const server: PublicServer = {
    name: `Свобода ${serverType}`,
    server_type: serverType,
    status: "online",
    players: { current: 1, max: 10 },
    ip_port: `192.0.2.${Math.floor(Math.random() * 250)}:28015`,
    wipe: schedule,
  };
  await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: deps.now().getTime(), servers: [server] }));
}

function render(element: ReactElement) {
  return renderToStaticMarkup(createElement(RouterProvider, { router: createMemoryRouter([{ path: "/", element }]) }));
}

/** Markup as text a player reads: tags dropped, spaces as one. */
function text(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/[\s\u00a0]+/g, " ")
    .trim();
}

/** A VIP of a new type, sold for 7 days or «до вайпа», and its page as `token`'s player (or a guest) reads it. */
async function vipPage(now: number, signedIn: boolean, serverType = uniqueServerType()) {
  const deps = testDeps({ now: testClock(now).now });
  await announce(deps, serverType, FRIDAYS_18);
  const categoryId = await createCategory();
  const id = await createItem({ serverType, categoryId, name: "VIP", durations: [[7, 4_600]], untilWipePrice: 5_900 });
  const player = signedIn ? await createPlayer({ deps, balance: 100_000 }) : null;
  const url = `http://localhost/shop/items/${id}`;
  const headers = player ? sessionCookie(player.token) : undefined;
  const loaderData = await itemLoader(
    routeArgs<Parameters<typeof itemLoader>[0]>(deps, url, { headers }, { params: { id: String(id) } }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
  const html = render(createElement(ShopItemPage, { loaderData, actionData: undefined } as any));
  return { deps, serverType, categoryId, loaderData, html, player };
}

/** The «до вайпа» choice's own text on a page: from its term to the next choice or the list's end. */
function untilWipeChoice(html: string) {
  const start = html.indexOf("до вайпа</span>");
  expect(start).toBeGreaterThan(-1);
  const end = html.indexOf("</label>", start) > -1 ? html.indexOf("</label>", start) : html.indexOf("</li>", start);
  return text(html.slice(start, end));
}

describe("«до вайпа» says when it ends where it is chosen (decision 139)", () => {
  it("on the item page, signed in and not: the forced wipe before the scheduled one, in Moscow time", async () => {
    for (const signedIn of [true, false]) {
      const { html } = await vipPage(SUNDAY_10_MSK, signedIn);
      // Thursday's forced wipe comes before the server's Friday: the term ends with it. Over 72 hours away: no warning.
      expect(untilWipeChoice(html)).toBe("до вайпа 59 ₽ закончится чт, 3 декабря в 22:00 МСК");
    }
  });

  it("warns on the item page that the term is short when the wipe is under three days away", async () => {
    const { html } = await vipPage(AFTER_FORCED_WIPE, true);
    // Bought after Thursday's forced wipe, it lasts until Friday's: 19 and a half hours, at the full price.
    expect(untilWipeChoice(html)).toBe(
      "до вайпа 59 ₽ закончится пт, 4 декабря в 18:00 МСК " +
        "Вайп уже через 19 ч: срок «до вайпа» будет коротким, а цена у него та же.",
    );
    // The 7-day choice says nothing of the wipe.
    expect(text(html)).toContain("7 дней 46 ₽ до вайпа");
  });

  it("in the shop's buy dialog, the same words for the page's server type", async () => {
    // A type the shop's selector lists, and the item's own category on it.
    const { deps, categoryId, player } = await vipPage(AFTER_FORCED_WIPE, true, "MAX3");
    const address = `http://localhost/shop?server_type=MAX3&category_id=${categoryId}`;
    const shop = await shopLoader(
      routeArgs<Parameters<typeof shopLoader>[0]>(deps, address, {
        headers: player ? sessionCookie(player.token) : undefined,
      }),
    );
    const vip = shop.items.find((item) => item.name === "VIP") as ShopCardItem;
    expect(vip).toBeDefined();
    const dialog = (balance: number | null) =>
      render(
        createElement(BuyDialog, {
          item: vip,
          balance,
          returnTo: "/shop",
          onClose: () => {},
          onPurchased: () => {},
          untilWipe: shop.untilWipe,
        }),
      );
    const words =
      "до вайпа 59 ₽ закончится пт, 4 декабря в 18:00 МСК " +
      "Вайп уже через 19 ч: срок «до вайпа» будет коротким, а цена у него та же.";
    expect(untilWipeChoice(dialog(1000))).toBe(words);
    expect(untilWipeChoice(dialog(null))).toBe(words);
  });

  it("says the date is not announced when no server of the type has a schedule", async () => {
    const deps = testDeps({ now: testClock(SUNDAY_10_MSK).now });
    const serverType = uniqueServerType();
    await announce(deps, serverType, { kind: "none" });
    const id = await createItem({ serverType, durations: [[7, 4_600]], untilWipePrice: 5_900 });
    const loaderData = await itemLoader(
      routeArgs<Parameters<typeof itemLoader>[0]>(
        deps,
        `http://localhost/shop/items/${id}`,
        {},
        {
          params: { id: String(id) },
        },
      ),
    );
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    const html = render(createElement(ShopItemPage, { loaderData, actionData: undefined } as any));
    expect(untilWipeChoice(html)).toBe("до вайпа 59 ₽ закончится с вайпом сервера: дата не объявлена");
  });
});

describe("a reopened receipt", () => {
  it("says the balance right after that purchase, as the statement does, not today's", async () => {
    const deps = testDeps();
    const player = await createPlayer({ deps, balance: 10_000 });
    const serverType = uniqueServerType();
    const [first, second] = [
      await createItem({ serverType, price: 1_200, isOneTime: true }),
      await createItem({ serverType, price: 4_900, isOneTime: true }),
    ];
    const buy = async (itemId: number) => {
      const result = await purchaseItem(deps, player.id, {
        itemId,
        serverType,
        durationDays: null,
        idempotencyKey: crypto.randomUUID(),
      });
      if (!result.ok) throw new Error(result.error);
      return result.purchase.id;
    };
    const firstId = await buy(first);
    await buy(second);
    const reopened = await itemLoader(
      routeArgs<Parameters<typeof itemLoader>[0]>(
        deps,
        `http://localhost/shop/items/${first}?purchased=${firstId}`,
        {
          headers: sessionCookie(player.token),
        },
        { params: { id: String(first) } },
      ),
    );
    const { entries } = await listStatement(deps, player.id, { page: 1, perPage: 20 });
    const row = entries.find((entry) => entry.kind === "purchase" && entry.amount === -12);
    expect(row?.balance_after).toBe(88);
    expect(reopened.balance).toBe(39);
    expect(reopened.receipt?.balance).toBe(88);
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    const html = text(render(createElement(ShopItemPage, { loaderData: reopened, actionData: undefined } as any)));
    expect(html).toContain("Баланс после покупки 88 ₽");
  });
});

describe("a fair-play window is said before any click (issue 46)", () => {
  // Saturday 28 November 2026, 18:00 Moscow time: the server wiped; the windows hold 48 hours, until Monday 18:00.
  const WIPED = Date.parse("2026-11-28T15:00:00Z");
  const NOW = WIPED + 3 * 3_600_000;

  /** A MAX3 server that wiped at WIPED; a rank whose window closes buying, a kit whose category's window doesn't. */
  async function windows() {
    const deps = testDeps({ now: testClock(NOW).now });
    const server = await createGameServer(deps, { serverType: "MAX3" });
    await deps.db.orm.update(servers).set({ lastWipeAt: WIPED }).where(eq(servers.id, server.id));
    const [ranks, kits] = [await createCategory("Привилегии"), await createCategory("Наборы")];
    const vip = await createItem({ serverType: "MAX3", categoryId: ranks, name: "VIP", price: 1_200, isOneTime: true });
    const kit = await createItem({
      serverType: "MAX3",
      categoryId: kits,
      name: "Стартовый",
      price: 500,
      isOneTime: true,
    });
    await deps.db.orm.insert(fairPlayWindows).values([
      { serverType: "MAX3", itemId: vip, hours: 48, purchasesOpen: false, createdAt: WIPED },
      { serverType: "MAX3", categoryId: kits, hours: 24, purchasesOpen: true, createdAt: WIPED },
    ]);
    const player = await createPlayer({ deps, balance: 10_000 });
    const page = async (id: number, query = "") => {
      const loaderData = await itemLoader(
        routeArgs<Parameters<typeof itemLoader>[0]>(
          deps,
          `http://localhost/shop/items/${id}${query}`,
          {
            headers: sessionCookie(player.token),
          },
          { params: { id: String(id) } },
        ),
      );
      // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
      return { loaderData, html: render(createElement(ShopItemPage, { loaderData, actionData: undefined } as any)) };
    };
    const post = (id: number, js: boolean) =>
      itemAction(
        routeArgs<Parameters<typeof itemAction>[0]>(
          deps,
          `http://localhost/shop/items/${id}`,
          {
            method: "POST",
            headers: sessionCookie(player.token),
            body: new URLSearchParams({
              server_type: "MAX3",
              idempotency_key: crypto.randomUUID(),
              ...(js ? { _js: "1" } : {}),
            }),
          },
          { params: { id: String(id) }, pattern: "/shop/items/:id" },
        ),
      ).catch((thrown: unknown) => thrown);
    return { deps, ranks, kits, vip, kit, player, page, post };
  }
  const VIP_CLOSED = "Покупка «VIP» закрыта после вайпа до пн, 30 ноября в 18:00 МСК";

  it("on the shop's card and the item page, with no buy button, and the refusal names the item and until when", async () => {
    const { deps, ranks, vip, page, post } = await windows();
    const shop = await shopLoader(
      routeArgs<Parameters<typeof shopLoader>[0]>(deps, `http://localhost/shop?server_type=MAX3&category_id=${ranks}`),
    );
    const card = shop.items.find((item) => item.id === vip) as ShopCardItem;
    const cardHtml = render(
      createElement(ItemCard, { item: card, serverNow: NOW, eager: true, closed: shop.closed[vip] }),
    );
    expect(text(cardHtml)).toContain(VIP_CLOSED);
    expect(cardHtml).not.toContain("data-buy");
    expect(cardHtml).toMatch(/<button type="button" class="button button--small" disabled=""/);

    const { html } = await page(vip);
    expect(text(html)).toContain(VIP_CLOSED);
    expect(html).not.toContain(">Купить</button>");

    const refused = (await post(vip, false)) as { data: { error: string }; init: ResponseInit | null };
    expect(refused.init?.status).toBe(409);
    expect(text(refused.data.error)).toBe(VIP_CLOSED);
  });

  it("an open window's receipt says the delivery waits, and until when, with and without JavaScript", async () => {
    const { kit, page, post } = await windows();
    const waits =
      "Предмет в Корзине. После вайпа его выдают через 24 ч: зайдите на сервер MAX3 после вс, 29 ноября в 18:00 МСК — он придёт автоматически, а команда /store в чате игры покажет, что ждёт выдачи.";
    const { html: before } = await page(kit);
    expect(before).not.toContain("закрыт");
    const redirect = (await post(kit, false)) as Response;
    const purchased = redirect.headers.get("location")?.split("?")[1];
    const { html } = await page(kit, `?${purchased}`);
    expect(text(html)).toContain(waits);
    const js = (await post(kit, true)) as { data: { ok: boolean; waits?: string } };
    expect(js.data.ok).toBe(true);
    expect(text(js.data.waits ?? "")).toBe(waits);
  });
});

/** Friday 27 November 2026, 18:00 Moscow time: a wipe of FRIDAYS_18. */
const FRIDAY_WIPE = Date.parse("2026-11-27T15:00:00Z");

/**
 * A server of a new type that Steam lists with Rust's «born» tag of 14 November 2023, its columns set
 * to `columns`, at `now`.
 */
async function listedServer(now: number, columns: Partial<typeof servers.$inferInsert>) {
  const steam = new FakeSteamWebApi();
  const deps = depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: testClock(now).now });
  const server = await createGameServer(deps, { serverType: uniqueServerType(), name: `Свобода ${Date.now()}` });
  const [row] = await deps.db.orm
    .update(servers)
    .set(columns)
    .where(eq(servers.id, server.id))
    .returning({ ipPort: servers.ipPort });
  steam.answer(row?.ipPort ?? "", { players: 3, maxPlayers: 50 });
  return { deps, server };
}

describe("one «last wipe», the one the fair-play window counts from (issue 46)", () => {
  it("/wipes says servers.last_wipe_at, not Steam's «born» tag, in МСК", async () => {
    // The schedule's wipe the cron recorded.
    const { deps, server } = await listedServer(SUNDAY_10_MSK, { lastWipeAt: FRIDAY_WIPE });
    const { document } = await refreshServerStatus(deps, { steamTimeoutMs: 1000 });
    expect(document.servers.find((listed) => listed.name === server.name)?.wiped_at).toBe(FRIDAY_WIPE);
    await deps.kv.put(STATUS_KEY, JSON.stringify(document));
    const loaderData = await wipesLoader(routeArgs(deps, "http://localhost/wipes"));
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
    const html = text(render(createElement(Wipes, { loaderData } as any)));
    const line = html.slice(html.indexOf(server.name));
    expect(line).toContain("Последний вайп: 27.11.2026, 18:00 МСК");
  });

  it("the status document written in the minute after a scheduled wipe carries that wipe, not Steam's «born» tag", async () => {
    // Half a minute after the schedule's wipe, which no run recorded yet.
    const { deps, server } = await listedServer(FRIDAY_WIPE + 30_000, scheduleToColumns(FRIDAYS_18) as never);
    // An old document: this run writes its own.
    await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: 0, servers: [] }));
    await runScheduled("* * * * *", deps, { serverStatus: { steamTimeoutMs: 1000 } });
    const document = JSON.parse((await deps.kv.get(STATUS_KEY)) ?? "{}") as { servers: PublicServer[] };
    expect(document.servers.find((listed) => listed.name === server.name)?.wiped_at).toBe(FRIDAY_WIPE);
  });
});

describe("every time a player reads is labelled МСК (decision 140)", () => {
  it("the Корзина's return deadline (the cards, the item page and «до вайпа» in the tests above and in wipe-pages)", () => {
    expect(returnUntilText("2026-11-30T00:12:00Z")).toBe("Можно вернуть до 30.11.2026, 03:12\u00a0МСК");
  });
});
