import { Hono } from "hono";
import { z } from "zod";
import { SHOP_ERRORS } from "#core/messages/shop.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { parsePageRequest } from "#core/schemas/pagination.ts";
import { searchQuerySchema } from "#core/schemas/search.ts";
import { API_PAGE_SIZE, paginate } from "#core/shop/pagination.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { AppEnv } from "../hono-env.ts";
import { getItem, listCategories, listItemsPage, listLimited, searchItems } from "../services/shop/catalog.ts";

export const shopApi = new Hono<AppEnv>();

const filterSchema = z.object({
  server_type: z.enum(SERVER_TYPES).optional(),
  category_id: positiveIdText.optional(),
});

// Empty parameters (`?category_id=`) mean "no filter", as forms send them.
function queryOf(c: { req: { query: () => Record<string, string> } }) {
  return Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ""));
}

function filterOf(query: z.infer<typeof filterSchema>) {
  return { serverType: query.server_type, categoryId: query.category_id };
}

// {items} as the spec has it, plus where this page sits: page, per_page, total, pages.
shopApi.get("/shop/items", async (c) => {
  const { page: pageText, per_page: perPageText, ...filters } = queryOf(c);
  const query = filterSchema.safeParse(filters);
  if (!query.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  const request = parsePageRequest({ page: pageText, per_page: perPageText }, API_PAGE_SIZE);
  if (!request.ok) return c.json({ error: request.error }, 400);
  const { items, total } = await listItemsPage(c.get("deps"), filterOf(query.data), request.page);
  const page = paginate(request.page, total);
  if (!page.ok) return c.json({ error: page.error }, 400);
  return c.json({ items, ...page.pagination });
});

shopApi.get("/shop/items/:id", async (c) => {
  const id = positiveIdText.safeParse(c.req.param("id"));
  if (!id.success) return c.json({ error: SHOP_ERRORS.badId }, 400);
  const item = await getItem(c.get("deps"), id.data);
  if (!item) return c.json({ error: SHOP_ERRORS.itemNotFound }, 404);
  return c.json({ item, items: [item] });
});

shopApi.get("/shop/search", async (c) => {
  const filters = filterSchema.safeParse(queryOf(c));
  if (!filters.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  const text = searchQuerySchema.safeParse(c.req.query("query") ?? "");
  if (!text.success) return c.json({ error: text.error.issues[0]?.message ?? SHOP_ERRORS.badQuery }, 400);
  return c.json({ items: await searchItems(c.get("deps"), text.data, filterOf(filters.data)) });
});

const limitedSchema = filterSchema.extend({ include_upcoming: z.enum(["true", "false", "1", "0"]).optional() });

shopApi.get("/shop/limited", async (c) => {
  const query = limitedSchema.safeParse(queryOf(c));
  if (!query.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  const includeUpcoming = query.data.include_upcoming === "true" || query.data.include_upcoming === "1";
  return c.json(await listLimited(c.get("deps"), { ...filterOf(query.data), includeUpcoming }));
});

shopApi.get("/shop/categories", async (c) => {
  c.header("Cache-Control", "public, max-age=60");
  return c.json({ categories: await listCategories(c.get("deps")) });
});
