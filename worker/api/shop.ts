import { Hono } from "hono";
import { z } from "zod";
import { SHOP_ERRORS } from "#core/messages/shop.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { AppEnv } from "../hono-env.ts";
import { getItem, listCategories, listItems, listLimited, searchItems } from "../services/shop/catalog.ts";

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

shopApi.get("/shop/items", async (c) => {
  const query = filterSchema.safeParse(queryOf(c));
  if (!query.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  return c.json({ items: await listItems(c.var.deps, filterOf(query.data)) });
});

shopApi.get("/shop/items/:id", async (c) => {
  const id = positiveIdText.safeParse(c.req.param("id"));
  if (!id.success) return c.json({ error: SHOP_ERRORS.badId }, 400);
  const item = await getItem(c.var.deps, id.data);
  if (!item) return c.json({ error: SHOP_ERRORS.itemNotFound }, 404);
  return c.json({ item, items: [item] });
});

const searchSchema = filterSchema.extend({ query: z.string().max(100).optional() });

shopApi.get("/shop/search", async (c) => {
  const query = searchSchema.safeParse(queryOf(c));
  if (!query.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  const text = query.data.query?.trim() ?? "";
  if (text === "") return c.json({ error: SHOP_ERRORS.queryRequired }, 400);
  if (text.length < 3) return c.json({ error: SHOP_ERRORS.queryTooShort }, 400);
  return c.json({ items: await searchItems(c.var.deps, text, filterOf(query.data)) });
});

const limitedSchema = filterSchema.extend({ include_upcoming: z.enum(["true", "false", "1", "0"]).optional() });

shopApi.get("/shop/limited", async (c) => {
  const query = limitedSchema.safeParse(queryOf(c));
  if (!query.success) return c.json({ error: SHOP_ERRORS.badQuery }, 400);
  const includeUpcoming = query.data.include_upcoming === "true" || query.data.include_upcoming === "1";
  return c.json(await listLimited(c.var.deps, { ...filterOf(query.data), includeUpcoming }));
});

shopApi.get("/shop/categories", async (c) => {
  c.header("Cache-Control", "public, max-age=60");
  return c.json({ categories: await listCategories(c.var.deps) });
});
