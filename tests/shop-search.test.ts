// Search for Rust names (issue 20, item 7; decision 108) over the seed's catalog topped up to 1 000
// SOLO items (db/seed/catalog-scale.ts): two characters are enough, every word of the query must
// begin a word of the item, Cyrillic and Latin case and look-alike letters fold alike.
import { beforeAll, describe, expect, it } from "vitest";
import type { ShopItem } from "#core/shop/types.ts";
import { catalogSeedSql, seedItemId } from "#db/seed/catalog.ts";
import { scaledCatalogSql } from "#db/seed/catalog-scale.ts";
import { testDeps } from "#tests/support/deps.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { fetchApi } from "#tests/support/shop-fixtures.ts";
import { raw, runBatch } from "#tests/support/sql.ts";
import type { Route } from "../app/routes/+types/shop";
import { loader } from "../app/routes/shop.tsx";

const deps = testDeps();

beforeAll(async () => {
  const statements = [...catalogSeedSql(), ...scaledCatalogSql(1000)].map((text) => raw(text));
  for (let start = 0; start < statements.length; start += 500) await runBatch(statements.slice(start, start + 500));
});

async function search(query: string, serverType = "SOLO"): Promise<ShopItem[]> {
  const response = await fetchApi(`/shop/search?query=${encodeURIComponent(query)}&server_type=${serverType}`);
  expect(response.status, query).toBe(200);
  return ((await response.json()) as { items: ShopItem[] }).items;
}

const texts = (item: ShopItem) => [
  item.name,
  item.description,
  item.category_name,
  ...item.contents.map((c) => c.item),
];
/** Does some word of the item begin with `prefix` (as written, any case)? */
const hasWordStarting = (item: ShopItem, prefix: RegExp) => texts(item).some((text) => prefix.test(text));

describe("shop search at 1 000 items", () => {
  it("the SOLO catalog has 1 000 items", async () => {
    const response = await fetchApi("/shop/items?server_type=SOLO&per_page=1");
    expect(((await response.json()) as { total: number }).total).toBe(1000);
  });

  it("«ак» finds the АК rifle and the kit with it, and only items with a word starting «ак»", async () => {
    const found = await search("ак");
    const ids = found.map((item) => item.id);
    expect(ids).toContain(seedItemId("SOLO", 9)); // Штурмовая винтовка АК
    expect(ids).toContain(seedItemId("SOLO", 5)); // Набор «Стрелок»: its contents hold the АК
    expect(found.length).toBeGreaterThan(80); // the generated АК rifles too (a third of 246 weapons)
    for (const item of found) expect(hasWordStarting(item, /(^|[^\p{L}\p{N}])ак/iu), item.name).toBe(true);
    // «Ракета», «Ракетница» contain «ак» inside a word: not a match on their own.
    expect(ids).not.toContain(seedItemId("SOLO", 6)); // Дерево ×10 000
    // Upper case and the Latin look-alikes find the same.
    expect((await search("АК")).map((item) => item.id)).toEqual(ids);
    expect((await search("ak")).map((item) => item.id)).toEqual(ids);
  });

  it("«C4» finds the raid kits, typed with a Latin or a Cyrillic С", async () => {
    const latin = await search("C4");
    expect(latin.map((item) => item.id)).toContain(seedItemId("SOLO", 4)); // Набор «Рейдер»: Взрывчатка C4
    expect(latin.length).toBeGreaterThan(200); // and the generated «Рейд-N» kits
    for (const item of latin) expect(hasWordStarting(item, /(^|[^\p{L}\p{N}])[cс]4/iu), item.name).toBe(true);
    expect((await search("с4")).map((item) => item.id)).toEqual(latin.map((item) => item.id));
  });

  it("«штурмовая ак» needs both words: the АК rifles and the kit, never the bolt-action rifle", async () => {
    const found = await search("штурмовая ак");
    const ids = found.map((item) => item.id);
    expect(ids).toContain(seedItemId("SOLO", 9));
    expect(ids).toContain(seedItemId("SOLO", 5));
    expect(ids).not.toContain(seedItemId("SOLO", 10)); // Болтовая винтовка
    for (const item of found) {
      expect(
        hasWordStarting(item, /(^|[^\p{L}\p{N}])штурмовая/iu) && hasWordStarting(item, /(^|[^\p{L}\p{N}])ак/iu),
      ).toBe(true);
    }
    // The words in the other order, in capitals, with «ё» for «е»: the same items.
    expect((await search("  АК   ШТУРМОВАЯ ")).map((item) => item.id)).toEqual(ids);
    expect(await search("штурмовая болтовая")).toEqual([]);
  });

  it("the shop page searches the same way from two characters", async () => {
    const page = await loader(
      routeArgs<Route.LoaderArgs>(deps, `http://localhost/shop?server_type=SOLO&query=${encodeURIComponent("ак")}`),
    );
    expect(page.searching).toBe(true);
    expect(page.pagination.total).toBe((await search("ак")).length);
    const oneLetter = await loader(routeArgs<Route.LoaderArgs>(deps, "http://localhost/shop?server_type=SOLO&query=а"));
    expect(oneLetter.searching).toBe(false);
    expect(oneLetter.pagination.total).toBe(1000);
  });

  it("answers the spec's texts for an empty query and ours for one character", async () => {
    const empty = await fetchApi("/shop/search?query=%20");
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: "Поисковый запрос обязателен" });
    const short = await fetchApi("/shop/search?query=%D0%B0");
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ error: "Поисковый запрос должен содержать не менее 2 символов" });
  });
});
