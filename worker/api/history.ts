import { Hono } from "hono";
import { z } from "zod";
import { kopecksToRubles } from "#core/format/money.ts";
import { NOT_FOUND } from "#core/messages/common.ts";
import type { StatementPage } from "#core/profile/types.ts";
import { parsePageRequest } from "#core/schemas/pagination.ts";
import { paginate } from "#core/shop/pagination.ts";
import type { AppEnv } from "../hono-env.ts";
import { getDeposit, listDeposits } from "../services/profile/deposits.ts";
import { getPurchase, listPurchases } from "../services/profile/purchases.ts";
import { listStatement, STATEMENT_PAGE_SIZE } from "../services/profile/statement.ts";
import { requireUser } from "./require-user.ts";

export const historyApi = new Hono<AppEnv>();

const purchaseId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const paymentId = z.uuid();

historyApi.get("/purchase/history", requireUser, async (c) => {
  const purchases = await listPurchases(c.get("deps"), c.get("user").id);
  c.header("Cache-Control", "private, no-store");
  return c.json({ purchases });
});

historyApi.get("/purchases/:id{[0-9]+}", requireUser, async (c) => {
  const id = purchaseId.safeParse(c.req.param("id"));
  const purchase = id.success ? await getPurchase(c.get("deps"), c.get("user").id, id.data) : null;
  // Someone else's purchase reads exactly like a missing one.
  if (!purchase) return c.json({ error: NOT_FOUND }, 404);
  c.header("Cache-Control", "private, no-store");
  return c.json({ purchase });
});

// A list of deposits, newest first.
historyApi.get("/payment/history", requireUser, async (c) => {
  const deposits = await listDeposits(c.get("deps"), c.get("user").id);
  c.header("Cache-Control", "private, no-store");
  return c.json(deposits);
});

// Only payment ids (UUIDs) match, so /payment/create, /payment/webhook/* and /payment/return/* stay the payment module's.
historyApi.get(
  "/payment/:id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}",
  requireUser,
  async (c) => {
    const id = paymentId.safeParse(c.req.param("id").toLowerCase());
    const payment = id.success ? await getDeposit(c.get("deps"), c.get("user").id, id.data) : null;
    if (!payment) return c.json({ error: NOT_FOUND }, 404);
    c.header("Cache-Control", "private, no-store");
    return c.json({ payment });
  },
);

// The balance statement «Движение средств»: the player's own ledger, newest first, a page at a time
// (`page`, `per_page` as /api/shop/items takes them), each row with the balance after it.
historyApi.get("/balance/history", requireUser, async (c) => {
  const request = parsePageRequest(
    { page: c.req.query("page"), per_page: c.req.query("per_page") },
    STATEMENT_PAGE_SIZE,
  );
  if (!request.ok) return c.json({ error: request.error }, 400);
  const statement = await listStatement(c.get("deps"), c.get("user").id, request.page);
  const page = paginate(request.page, statement.total);
  if (!page.ok) return c.json({ error: page.error }, 400);
  c.header("Cache-Control", "private, no-store");
  const body: StatementPage = {
    entries: statement.entries,
    balance: kopecksToRubles(statement.balance),
    ...page.pagination,
  };
  return c.json(body);
});
