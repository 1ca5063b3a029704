// Signed-out visitors' pages come from the runtime's page cache (the Cache API on Workers, an LRU on
// Node), keyed by the URL and the catalog version. The page here is a stand-in that prints what a
// shop page prints of one item (its price and whether it can be bought), so every check reads what
// a visitor would see; the real pages are covered by the browser tests.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { chosenServerType } from "#core/shop/server-type-choice.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { pageCacheFor, platformFor } from "#tests/support/platform.ts";
import { createItem, ensureServerStatement } from "#tests/support/shop-fixtures.ts";
import { raw, runBatch } from "#tests/support/sql.ts";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { readCatalogVersion } from "#worker/services/shop/catalog-version.ts";
import { PAGE_CACHE_HEADER } from "#worker/visitor-page-cache.ts";

function visitorSite(clock = testClock()) {
  let renders = 0;
  const pending: Promise<unknown>[] = [];
  const app = createApp({
    pageHandler: async (request, context) => {
      renders += 1;
      const url = new URL(request.url);
      const item = await getItem(context.get(depsContext), Number(url.searchParams.get("item")));
      const headers = new Headers({ "content-type": "text/plain; charset=utf-8" });
      if (url.searchParams.has("remember")) headers.set("set-cookie", "__steam_signin=1; Path=/; HttpOnly");
      // A page names the visitor's chosen server type (the header's «Магазин» link), as the real ones do.
      const chosen = url.searchParams.has("type") ? `, ${chosenServerType(request, url) ?? "тип не выбран"}` : "";
      return new Response(
        `${item?.discount_price} ₽, ${item?.is_available ? "можно купить" : "нельзя купить"}${chosen}`,
        {
          headers,
        },
      );
    },
    platform: () => platformFor(env as Env),
    overrides: () => ({ now: clock.now, waitUntil: (promise) => void pending.push(promise) }),
    pageCache: pageCacheFor(),
  });
  return {
    clock,
    renders: () => renders,
    async get(path: string, headers: Record<string, string> = {}) {
      const response = await app.fetch(new Request(`http://localhost:8788${path}`, { headers }));
      const text = await response.text();
      // What a Worker would finish after answering: the cache write.
      await Promise.all(pending.splice(0));
      return { status: response.status, text, cache: response.headers.get(PAGE_CACHE_HEADER) };
    },
  };
}

const setPrice = (id: number, kopecks: number) =>
  runBatch([raw("UPDATE items SET price = ? WHERE id = ?", kopecks, id)]);

describe("visitors' pages from the cache", () => {
  it("serves a visitor's second view of the shop, an item and the terms without rendering them again", async () => {
    const site = visitorSite();
    const id = await createItem({ price: 10_000 });
    for (const path of [`/shop?item=${id}`, `/shop/items/${id}?item=${id}`, `/terms?item=${id}`, `/?item=${id}`]) {
      const before = site.renders();
      const first = await site.get(path);
      const second = await site.get(path);
      expect(first).toEqual({ status: 200, text: "100 ₽, можно купить", cache: "miss" });
      expect(second).toEqual({ status: 200, text: "100 ₽, можно купить", cache: "hit" });
      expect(site.renders() - before).toBe(1);
    }
  });

  it("keeps one copy per chosen server type, so a visitor never sees another's type", async () => {
    const site = visitorSite();
    const id = await createItem({ price: 10_000 });
    for (const path of [`/?item=${id}&type`, `/shop/items/${id}?item=${id}&type`, `/terms?item=${id}&type`]) {
      const max2 = await site.get(path, { cookie: "server_type=MAX2" });
      const solo = await site.get(path, { cookie: "theme=dark; server_type=SOLO" });
      const none = await site.get(path);
      // A cookie that names no known type is the same as none: it can't split or poison the cache.
      const junk = await site.get(path, { cookie: "server_type=%3Cscript%3E" });
      const max2Again = await site.get(path, { cookie: "server_type=MAX2" });
      expect(max2).toEqual({ status: 200, text: "100 ₽, можно купить, MAX2", cache: "miss" });
      expect(solo).toEqual({ status: 200, text: "100 ₽, можно купить, SOLO", cache: "miss" });
      expect(none).toEqual({ status: 200, text: "100 ₽, можно купить, тип не выбран", cache: "miss" });
      expect(junk).toEqual({ status: 200, text: "100 ₽, можно купить, тип не выбран", cache: "hit" });
      expect(max2Again).toEqual({ status: 200, text: "100 ₽, можно купить, MAX2", cache: "hit" });
    }
  });

  it("renders every other page every time", async () => {
    const site = visitorSite();
    const id = await createItem();
    await site.get(`/profile?item=${id}`);
    const again = await site.get(`/profile?item=${id}`);
    expect(again.cache).toBeNull();
    expect(site.renders()).toBe(2);
  });

  for (const [what, headers] of [
    ["the session cookie", { cookie: "theme=dark; __session=token" }],
    ["the __Host- session cookie", { cookie: "__Host-session=token" }],
    ["a bearer token", { authorization: "Bearer token" }],
  ] as const) {
    it(`never serves a request with ${what} from the cache, nor keeps its answer`, async () => {
      const site = visitorSite();
      const id = await createItem({ price: 10_000 });
      const path = `/shop/items/${id}?item=${id}`;
      // Signed in first: the answer must not be kept for the visitor who comes next.
      expect((await site.get(path, headers)).cache).toBeNull();
      expect((await site.get(path, headers)).cache).toBeNull();
      expect((await site.get(path)).cache).toBe("miss");
      // A visitor's page is kept now, and still never served to a signed-in request.
      expect((await site.get(path)).cache).toBe("hit");
      expect((await site.get(path, headers)).cache).toBeNull();
      expect(site.renders()).toBe(4);
    });
  }

  it("never keeps an answer that sets a cookie", async () => {
    const site = visitorSite();
    const id = await createItem();
    await site.get(`/shop?item=${id}&remember`);
    await site.get(`/shop?item=${id}&remember`);
    expect(site.renders()).toBe(2);
  });

  it("shows a visitor a new price within 10 seconds", async () => {
    const site = visitorSite();
    const id = await createItem({ price: 10_000 });
    const path = `/shop/items/${id}?item=${id}`;
    expect((await site.get(path)).text).toBe("100 ₽, можно купить");
    expect((await site.get(path)).cache).toBe("hit");
    await setPrice(id, 25_000);
    site.clock.advance(10_000);
    expect(await site.get(path)).toMatchObject({ text: "250 ₽, можно купить", cache: "miss" });
  });

  it("shows a visitor within 10 seconds that a type lost its last game server, and got one back", async () => {
    const site = visitorSite();
    const id = await createItem({ price: 10_000, serverType: "MAX3" });
    const path = `/shop/items/${id}?item=${id}`;
    expect((await site.get(path)).text).toBe("100 ₽, можно купить");
    expect((await site.get(path)).cache).toBe("hit");
    // Written elsewhere (an operator's script, SQL by hand): only the servers' triggers move the revision.
    const elsewhere = (statement: ReturnType<typeof raw>) => testDeps().db.run(statement);
    await elsewhere(raw("DELETE FROM servers WHERE server_type = 'MAX3'"));
    site.clock.advance(10_000);
    expect(await site.get(path)).toMatchObject({ text: "100 ₽, нельзя купить", cache: "miss" });
    await elsewhere(ensureServerStatement("MAX3"));
    site.clock.advance(10_000);
    expect(await site.get(path)).toMatchObject({ text: "100 ₽, можно купить", cache: "miss" });
  });

  it("shows the end of a limited offer from the moment it ends", async () => {
    const site = visitorSite();
    const end = site.clock.now().getTime() + 60_000;
    const id = await createItem({ price: 10_000, endTime: end });
    const path = `/shop?item=${id}`;
    expect((await site.get(path)).text).toBe("100 ₽, можно купить");
    site.clock.set(end - 1);
    expect((await site.get(path)).cache).toBe("hit");
    site.clock.set(end);
    expect(await site.get(path)).toMatchObject({ text: "100 ₽, нельзя купить", cache: "miss" });
  });
});

describe("the catalog version", () => {
  it("changes when a limited offer starts or ends, and says when that happens next", async () => {
    const clock = testClock();
    const deps = testDeps({ now: clock.now });
    // Sooner than any other offer of this file, so its start and end are the next changes.
    const start = clock.now().getTime() + 1_000;
    await createItem({ startTime: start, endTime: start + 2_000 });
    const before = await readCatalogVersion(deps);
    expect(before.changesAt).toBe(start);
    clock.set(start - 1);
    expect((await readCatalogVersion(deps)).version).toBe(before.version);
    clock.set(start);
    const started = await readCatalogVersion(deps);
    expect(started.version).not.toBe(before.version);
    expect(started.changesAt).toBe(start + 2_000);
    clock.set(start + 2_000);
    expect((await readCatalogVersion(deps)).version).not.toBe(started.version);
  });

  it("changes with a price, a discount, a duration or a sale", async () => {
    const deps = testDeps({ now: testClock().now });
    const id = await createItem({ price: 10_000, maxQuantity: 5, durations: [[30, null]] });
    const versions = [(await readCatalogVersion(deps)).version];
    for (const change of [
      "UPDATE items SET price = 12000 WHERE id = ?",
      "UPDATE items SET discount = 10 WHERE id = ?",
      "UPDATE item_durations SET price = 5000 WHERE item_id = ?",
      "UPDATE items SET sold_quantity = sold_quantity + 1 WHERE id = ?",
    ]) {
      await runBatch([raw(change, id)]);
      versions.push((await readCatalogVersion(deps)).version);
    }
    expect(new Set(versions).size).toBe(versions.length);
  });
});
