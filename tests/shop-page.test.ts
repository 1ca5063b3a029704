import { describe, expect, it } from "vitest";
import { testDeps } from "#tests/support/deps.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createCategory, createItem } from "#tests/support/shop-fixtures.ts";
import type { Route } from "../app/routes/+types/shop";
import { loader } from "../app/routes/shop.tsx";

const deps = testDeps();
/** What the loader throws with `data(text, { status })`: the page's error view shows the text. */
async function refusal(search: string): Promise<{ status: number | undefined; text: unknown }> {
  try {
    await load(search);
  } catch (thrown) {
    const value = thrown as { data: unknown; init: ResponseInit | null };
    return { status: value.init?.status, text: value.data };
  }
  throw new Error("expected the loader to refuse");
}

const load = (search: string) => loader(routeArgs<Route.LoaderArgs>(deps, `http://localhost/shop?${search}`));

/** A category of `count` VANILLA items named «Фонарь N», in catalogue order. */
async function category(count: number): Promise<{ categoryId: number; ids: number[] }> {
  const categoryId = await createCategory();
  const ids: number[] = [];
  for (let n = 1; n <= count; n++)
    ids.push(await createItem({ categoryId, serverType: "VANILLA", name: `Фонарь ${n}` }));
  return { categoryId, ids };
}

describe("shop page loader: pages of cards", () => {
  it("shows 24 cards a page and where the page sits, the second page by ?page=2", async () => {
    const { categoryId, ids } = await category(30);
    const first = await load(`server_type=VANILLA&category_id=${categoryId}`);
    expect(first.items.map((item) => item.id)).toEqual(ids.slice(0, 24));
    expect(first.pagination).toEqual({ page: 1, per_page: 24, total: 30, pages: 2 });

    const second = await load(`server_type=VANILLA&category_id=${categoryId}&page=2`);
    expect(second.items.map((item) => item.id)).toEqual(ids.slice(24));
    expect(second.pagination).toEqual({ page: 2, per_page: 24, total: 30, pages: 2 });
  });

  it("sends a card only what it shows: no description, kit contents, category id or reload time", async () => {
    const { categoryId } = await category(1);
    const [card] = (await load(`server_type=VANILLA&category_id=${categoryId}`)).items;
    expect(card).toBeDefined();
    expect(Object.keys(card ?? {}).sort()).toEqual(
      [
        "id",
        "name",
        "price",
        "discount",
        "discount_price",
        "img",
        "server_type",
        "category_name",
        "is_one_time",
        "is_limited",
        "is_available",
        "no_server",
        "durations",
        "start_time",
        "end_time",
        "max_quantity",
        "sold_quantity",
        "sale",
      ].sort(),
    );
  });

  it("pages search results too, counting every match", async () => {
    const { categoryId, ids } = await category(5);
    const page = await load(
      `server_type=VANILLA&category_id=${categoryId}&query=${encodeURIComponent("ФОНАРЬ")}&per_page=2&page=3`,
    );
    expect(page.items.map((item) => item.id)).toEqual(ids.slice(4));
    expect(page.pagination).toEqual({ page: 3, per_page: 2, total: 5, pages: 3 });
  });

  it.each([
    ["page=0", "Некорректный номер страницы: укажите целое число от 1"],
    ["page=два", "Некорректный номер страницы: укажите целое число от 1"],
    ["per_page=500", "Некорректное число товаров на странице: укажите целое число от 1 до 100"],
  ])("answers 400 with the reason for %s", async (search, text) => {
    expect(await refusal(`server_type=VANILLA&${search}`)).toEqual({ status: 400, text });
  });

  it("answers 400 for a page past the last, naming how many there are", async () => {
    const { categoryId } = await category(3);
    expect(await refusal(`server_type=VANILLA&category_id=${categoryId}&per_page=2&page=5`)).toEqual({
      status: 400,
      text: "Такой страницы нет: всего страниц — 2",
    });
  });
});
