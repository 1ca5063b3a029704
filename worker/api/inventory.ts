import { Hono } from "hono";
import { z } from "zod";
import { INVENTORY_FILTERS } from "#core/profile/types.ts";
import type { AppEnv } from "../hono-env.ts";
import { listInventory } from "../services/profile/inventory.ts";
import { requireUser } from "./require-user.ts";

export const inventoryApi = new Hono<AppEnv>();

const query = z.object({ status: z.enum(INVENTORY_FILTERS).catch("all") });

// The player's Корзина: {items}, newest first; ?status=not_used|used narrows it.
inventoryApi.get("/inventory", requireUser, async (c) => {
  const { status } = query.parse({ status: c.req.query("status") ?? "all" });
  const items = await listInventory(c.get("deps"), c.get("user").id, status);
  c.header("Cache-Control", "private, no-store");
  return c.json({ items });
});
