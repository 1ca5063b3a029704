import { Hono } from "hono";
import { RETURN_ERRORS } from "#core/messages/returns.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import type { AppEnv } from "../hono-env.ts";
import { returnPurchase } from "../services/shop/return.ts";
import { requireUser } from "./require-user.ts";

export const returnsApi = new Hono<AppEnv>();

// The buyer takes back a purchase that no game server has started to deliver (decision 111):
// {purchase: {id, status}, amount, balance} in rubles, or {error} with 403, 404, 409 or 410.
returnsApi.post("/purchases/:id/return", requireUser, async (c) => {
  const id = positiveIdText.safeParse(c.req.param("id"));
  if (!id.success) return c.json({ error: RETURN_ERRORS.badId }, 400);
  const result = await returnPurchase(c.get("deps"), c.get("user").id, id.data);
  c.header("Cache-Control", "no-store");
  if (!result.ok) return c.json({ error: result.error }, result.status);
  return c.json({
    purchase: { id: result.purchaseId, status: "returned" },
    amount: result.amount,
    balance: result.balance,
  });
});
