import { describe, expect, it } from "vitest";
import type { ShopItem } from "#core/shop/types.ts";
import { createCategory, createItem, fetchApi } from "./support/shop-fixtures.ts";

const HOUR = 60 * 60 * 1000;

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

describe("GET /api/shop/items", () => {
  it("lists a category's items of one server type in rubles with the spec's fields", async () => {
    const categoryId = await createCategory("Привилегии");
    const id = await createItem({
      name: "VIP",
      price: 19_900,
      discount: 15,
      serverType: "MAX2",
      categoryId,
      durations: [
        [7, null],
        [30, null],
        [90, 49_900],
      ],
      contents: [{ item: "Ранг VIP", img: "/images/shop/vip.svg" }],
    });
    await createItem({ serverType: "SOLO", categoryId });

    const response = await fetchApi(`/shop/items?server_type=MAX2&category_id=${categoryId}`);
    expect(response.status).toBe(200);
    const { items } = await json<{ items: ShopItem[] }>(response);
    expect(items).toHaveLength(1);
    expect(items[0]).toEqual({
      id,
      name: "VIP",
      description: "Описание",
      price: 199,
      discount: 15,
      discount_price: 169,
      img: "/images/shop/vip.svg",
      server_type: "MAX2",
      category_id: categoryId,
      category_name: `Привилегии ${categoryId}`,
      is_one_time: false,
      is_limited: false,
      is_available: true,
      no_server: false,
      reload_time: 0,
      // 7 days: round(7/30 × 199) = 46 ₽, minus 15% = 39 ₽; 30 days: 199 → 169; 90 days has its own price.
      durations: [
        { days: 7, price: 46, discount_price: 39 },
        { days: 30, price: 199, discount_price: 169 },
        { days: 90, price: 499, discount_price: 424 },
      ],
      contents: [{ item: "Ранг VIP", img: "/images/shop/vip.svg" }],
      start_time: null,
      end_time: null,
      max_quantity: null,
      sold_quantity: 0,
      sale: null,
    });
  });

  it("answers an empty list for a category without items and hides unlisted items", async () => {
    const categoryId = await createCategory();
    await createItem({ categoryId, isAvailable: false });
    const response = await fetchApi(`/shop/items?category_id=${categoryId}`);
    expect(await json(response)).toEqual({ items: [], page: 1, per_page: 100, total: 0, pages: 1 });
  });

  it("pages through a category in catalogue order with page and per_page, and counts all of it", async () => {
    const categoryId = await createCategory();
    const ids: number[] = [];
    for (let n = 0; n < 5; n++) ids.push(await createItem({ categoryId, serverType: "MAX3" }));
    await createItem({ categoryId, serverType: "MAX3", isAvailable: false });

    const first = await fetchApi(`/shop/items?category_id=${categoryId}&per_page=2`);
    expect(first.status).toBe(200);
    const firstPage = await json<{ items: ShopItem[]; page: number; per_page: number; total: number; pages: number }>(
      first,
    );
    expect(firstPage.items.map((item) => item.id)).toEqual(ids.slice(0, 2));
    expect(firstPage).toMatchObject({ page: 1, per_page: 2, total: 5, pages: 3 });

    const last = await json<{ items: ShopItem[]; page: number }>(
      await fetchApi(`/shop/items?category_id=${categoryId}&server_type=MAX3&per_page=2&page=3`),
    );
    expect(last.items.map((item) => item.id)).toEqual(ids.slice(4));
    expect(last.page).toBe(3);
    // The full item as before: durations and contents come with each page.
    expect(last.items[0]).toHaveProperty("contents");
  });

  it.each([
    ["page=0", "Некорректный номер страницы: укажите целое число от 1"],
    ["page=-1", "Некорректный номер страницы: укажите целое число от 1"],
    ["page=abc", "Некорректный номер страницы: укажите целое число от 1"],
    ["page=1.5", "Некорректный номер страницы: укажите целое число от 1"],
    ["per_page=0", "Некорректное число товаров на странице: укажите целое число от 1 до 100"],
    ["per_page=101", "Некорректное число товаров на странице: укажите целое число от 1 до 100"],
    ["per_page=ten", "Некорректное число товаров на странице: укажите целое число от 1 до 100"],
  ])("rejects %s with 400 and says why in Russian", async (query, error) => {
    const response = await fetchApi(`/shop/items?${query}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error });
  });

  it("rejects a page past the last with 400 naming how many pages there are", async () => {
    const categoryId = await createCategory();
    for (let n = 0; n < 3; n++) await createItem({ categoryId });
    const response = await fetchApi(`/shop/items?category_id=${categoryId}&per_page=2&page=3`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: "Такой страницы нет: всего страниц — 2" });
  });

  it.each([
    "server_type=EXTRA",
    "server_type=solo",
    "category_id=abc",
    "category_id=-1",
    "category_id=0",
    "category_id=1.5",
  ])("rejects %s with 400", async (query) => {
    const response = await fetchApi(`/shop/items?${query}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ error: "Некорректные параметры запроса" });
  });
});

describe("GET /api/shop/items/:id", () => {
  it("answers {item} with limited data as ISO times", async () => {
    const start = Date.now() - HOUR;
    const end = Date.now() + 48 * HOUR;
    const id = await createItem({ isOneTime: true, startTime: start, endTime: end, maxQuantity: 10, soldQuantity: 3 });
    const response = await fetchApi(`/shop/items/${id}`);
    expect(response.status).toBe(200);
    const { item } = await json<{ item: ShopItem }>(response);
    expect(item).toMatchObject({
      id,
      is_one_time: true,
      is_limited: true,
      is_available: true,
      start_time: new Date(start).toISOString(),
      end_time: new Date(end).toISOString(),
      max_quantity: 10,
      sold_quantity: 3,
      durations: [],
    });
  });

  it("marks sold-out and not-yet-started offers as not available", async () => {
    const soldOut = await createItem({ isOneTime: true, maxQuantity: 5, soldQuantity: 5 });
    const upcoming = await createItem({
      isOneTime: true,
      startTime: Date.now() + HOUR,
      endTime: Date.now() + 9 * HOUR,
    });
    for (const id of [soldOut, upcoming]) {
      const { item } = await json<{ item: ShopItem }>(await fetchApi(`/shop/items/${id}`));
      expect(item.is_available).toBe(false);
    }
  });

  it("answers JSON 404 for an unknown id and 400 for a malformed one", async () => {
    const missing = await fetchApi("/shop/items/987654321");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: "Товар не найден" });
    for (const bad of ["abc", "-5", "0", "1e3", "9999999999999"]) {
      const response = await fetchApi(`/shop/items/${bad}`);
      expect(response.status, bad).toBe(400);
      expect(await json(response)).toEqual({ error: "Некорректный идентификатор товара" });
    }
  });
});

describe("GET /api/shop/search", () => {
  it("finds items by name, description or contents, ignoring Cyrillic case", async () => {
    const categoryId = await createCategory();
    const tag = `Зубр${categoryId}`;
    const byName = await createItem({ name: `Набор ${tag}`, categoryId, serverType: "VANILLA" });
    const byContents = await createItem({
      categoryId,
      serverType: "VANILLA",
      contents: [{ item: `Шлем ${tag.toUpperCase()}`, img: "/x.svg" }],
    });
    await createItem({ name: `Набор ${tag}`, categoryId, serverType: "SOLO" });

    const response = await fetchApi(
      `/shop/search?query=${encodeURIComponent(`  ${tag.toLowerCase()} `)}&server_type=VANILLA&category_id=${categoryId}`,
    );
    expect(response.status).toBe(200);
    const { items } = await json<{ items: ShopItem[] }>(response);
    expect(items.map((item) => item.id).toSorted()).toEqual([byName, byContents].toSorted());
  });

  it("answers an empty list when nothing matches", async () => {
    const response = await fetchApi("/shop/search?query=нет-такого-товара-ни-где");
    expect(await json(response)).toEqual({ items: [] });
  });

  it.each(["", "query=", "query=%20%20%20"])(
    "rejects an empty query (%s) with Поисковый запрос обязателен",
    async (q) => {
      const response = await fetchApi(`/shop/search?${q}`);
      expect(response.status).toBe(400);
      expect(await json(response)).toEqual({ error: "Поисковый запрос обязателен" });
    },
  );

  it("rejects a query shorter than 2 characters and bad filters", async () => {
    const short = await fetchApi("/shop/search?query=%20а%20");
    expect(short.status).toBe(400);
    expect(await json(short)).toEqual({ error: "Поисковый запрос должен содержать не менее 2 символов" });
    expect((await fetchApi("/shop/search?query=вип&server_type=NOPE")).status).toBe(400);
    expect((await fetchApi("/shop/search?query=вип&category_id=x")).status).toBe(400);
    expect((await fetchApi(`/shop/search?query=${"я".repeat(101)}`)).status).toBe(400);
  });
});

describe("GET /api/shop/limited", () => {
  it("splits open offers from upcoming ones and names the next start", async () => {
    const categoryId = await createCategory();
    const now = Date.now();
    const active = await createItem({ categoryId, isOneTime: true, startTime: now - HOUR, endTime: now + 72 * HOUR });
    const soldOut = await createItem({ categoryId, isOneTime: true, maxQuantity: 3, soldQuantity: 3 });
    const soon = await createItem({ categoryId, isOneTime: true, startTime: now + 2 * HOUR, endTime: now + 9 * HOUR });
    const later = await createItem({ categoryId, isOneTime: true, startTime: now + 5 * HOUR });
    await createItem({ categoryId, isOneTime: true, startTime: now - 9 * HOUR, endTime: now - HOUR });
    await createItem({ categoryId });

    const response = await fetchApi(`/shop/limited?category_id=${categoryId}&include_upcoming=true`);
    expect(response.status).toBe(200);
    const body = await json<{ items: ShopItem[]; upcoming_items: ShopItem[]; next_offer_time: string | null }>(
      response,
    );
    expect(body.items.map((item) => item.id).toSorted()).toEqual([active, soldOut].toSorted());
    expect(body.upcoming_items.map((item) => item.id).toSorted()).toEqual([soon, later].toSorted());
    expect(body.next_offer_time).toBe(new Date(now + 2 * HOUR).toISOString());

    const without = await json<{ upcoming_items: ShopItem[]; next_offer_time: string }>(
      await fetchApi(`/shop/limited?category_id=${categoryId}`),
    );
    expect(without.upcoming_items).toEqual([]);
    expect(without.next_offer_time).toBe(new Date(now + 2 * HOUR).toISOString());
  });

  it("rejects bad parameters", async () => {
    expect((await fetchApi("/shop/limited?include_upcoming=maybe")).status).toBe(400);
    expect((await fetchApi("/shop/limited?server_type=x")).status).toBe(400);
  });
});

describe("GET /api/shop/categories", () => {
  it("lists categories with id, name and description", async () => {
    const id = await createCategory("Наборы");
    const response = await fetchApi("/shop/categories");
    expect(response.status).toBe(200);
    const { categories } = await json<{ categories: { id: number; name: string; description: string }[] }>(response);
    expect(categories).toContainEqual({ id, name: `Наборы ${id}`, description: "Для тестов" });
  });
});
