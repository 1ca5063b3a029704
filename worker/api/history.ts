import { Hono } from "hono";
import { z } from "zod";
import { NOT_FOUND } from "#core/messages/common.ts";
import type { AppEnv } from "../hono-env.ts";
import { getDeposit, listDeposits } from "../services/profile/deposits.ts";
import { getPurchase, listPurchases } from "../services/profile/purchases.ts";
import { requireUser } from "./require-user.ts";

export const historyApi = new Hono<AppEnv>();

const purchaseId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const paymentId = z.uuid();

historyApi.get("/purchase/history", requireUser, async (c) => {
  const purchases = await listPurchases(c.var.deps, c.var.user.id);
  c.header("Cache-Control", "private, no-store");
  return c.json({ purchases });
});

historyApi.get("/purchases/:id{[0-9]+}", requireUser, async (c) => {
  const id = purchaseId.safeParse(c.req.param("id"));
  const purchase = id.success ? await getPurchase(c.var.deps, c.var.user.id, id.data) : null;
  // Someone else's purchase reads exactly like a missing one.
  if (!purchase) return c.json({ error: NOT_FOUND }, 404);
  c.header("Cache-Control", "private, no-store");
  return c.json({ purchase });
});

// A list of deposits, newest first.
historyApi.get("/payment/history", requireUser, async (c) => {
  const deposits = await listDeposits(c.var.deps, c.var.user.id);
  c.header("Cache-Control", "private, no-store");
  return c.json(deposits);
});

// Only payment ids (UUIDs) match, so /payment/create, /payment/webhook/* and /payment/return/* stay the payment module's.
historyApi.get(
  "/payment/:id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}",
  requireUser,
  async (c) => {
    const id = paymentId.safeParse(c.req.param("id").toLowerCase());
    const payment = id.success ? await getDeposit(c.var.deps, c.var.user.id, id.data) : null;
    if (!payment) return c.json({ error: NOT_FOUND }, 404);
    c.header("Cache-Control", "private, no-store");
    return c.json({ payment });
  },
);
