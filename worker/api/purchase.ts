import { Hono } from "hono";
import { z } from "zod";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { AppEnv } from "../hono-env.ts";
import { purchaseItem } from "../services/shop/purchase.ts";
import { requireUser } from "./require-user.ts";

export const purchaseApi = new Hono<AppEnv>();

export const purchaseBodySchema = z.object({
  server_type: z.enum(SERVER_TYPES),
  // Whole days; omitted (or null) for one-time and permanent items.
  duration: z.number().int().positive().max(3650).nullish(),
  idempotency_key: z.string().trim().min(8).max(100).optional(),
});

const idempotencyHeader = z.string().trim().min(8).max(100);

purchaseApi.post("/purchase/items/:id", requireUser, async (c) => {
  const id = z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .safeParse(c.req.param("id"));
  if (!id.success) return c.json({ error: PURCHASE_ERRORS.badId }, 400);
  const raw = await c.req.json().catch(() => undefined);
  const body = purchaseBodySchema.safeParse(raw);
  if (!body.success) return c.json({ error: PURCHASE_ERRORS.badBody }, 400);
  const header = c.req.header("Idempotency-Key");
  let key = body.data.idempotency_key;
  if (!key && header !== undefined) {
    const parsed = idempotencyHeader.safeParse(header);
    if (!parsed.success) return c.json({ error: PURCHASE_ERRORS.badBody }, 400);
    key = parsed.data;
  }

  const result = await purchaseItem(c.var.deps, c.var.user.id, {
    itemId: Number(id.data),
    serverType: body.data.server_type,
    durationDays: body.data.duration ?? null,
    // Without a key every request is a new purchase.
    idempotencyKey: key ?? crypto.randomUUID(),
  });
  if (!result.ok) return c.json({ error: result.error }, result.status);
  c.header("Cache-Control", "no-store");
  return c.json({ purchase: result.purchase, balance: result.balance }, result.replayed ? 200 : 201);
});
