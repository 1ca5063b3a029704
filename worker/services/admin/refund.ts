import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { REFUND_TEXT } from "#core/messages/admin.ts";
import { purchases } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { deliveryIdFor } from "../game/delivery-id.ts";
import { ringDoorbell } from "../game/doorbell.ts";
import { effectServersOf, splitRevokeStatements } from "../game/revoke-targets.ts";
import { batchChangingCatalog } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import { type AdminResult, reasonSchema } from "./balance.ts";
import { allows, type Operator, SUPPORT_REFUND_LIMIT } from "./roles.ts";

export const refundSchema = z.object({ purchaseId: z.coerce.number().int().positive(), reason: reasonSchema });

/**
 * Gives a purchase back, in ONE batch (decision 096):
 *  1. the refund row, INSERT … SELECT from the purchase only while it is completed, this player's
 *     and, for support, within their limit; UNIQUE(purchase_id) refuses a second refund even when
 *     two operators press the button at once;
 *  2. the journal row;
 *  3. the balance grows by the refund read back by its token — NULL when step 1 matched nothing,
 *     and the NOT NULL column aborts everything;
 *  4. the ledger row (kind refund, same amount, the reason as its note): balance = sum(ledger);
 *  5. the purchase becomes refunded; 6. a limited item gets its unit of stock back;
 *  7. what reached the game is taken back: a revoke delivery due now for an entry that was
 *     delivered, or whose grant a plugin took and may have run (its lease out or lapsed unreported,
 *     or a command of it in the game: decision 124), on the server that holds it, and on every other
 *     server where a command of its grant took effect (decision 132);
 *  8. a grant not yet handed out is cancelled; 9. the Корзина entry shows «Возвращено».
 */
export async function refundPurchase(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  operator: Operator,
  input: { userId: number; purchaseId: number; reason: string },
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const { purchaseId, reason } = input;
  const [purchase] = await deps.db.orm
    .select({
      userId: purchases.userId,
      itemId: purchases.itemId,
      price: purchases.price,
      status: purchases.status,
      serverType: purchases.serverType,
    })
    .from(purchases)
    .where(eq(purchases.id, purchaseId))
    .limit(1);
  // Refunded from the player's own page only: another player's purchase id is "not found" here.
  if (!purchase || purchase.userId !== input.userId) return { ok: false, status: 404, error: REFUND_TEXT.notFound };
  const limit = allows(operator, "adjustBalance") ? null : SUPPORT_REFUND_LIMIT;
  const token = crypto.randomUUID();
  const amount = sql`(SELECT amount FROM refunds WHERE token = ${token})`;
  // Revoke ids come from the entry, as every delivery's (decision 124).
  const { rows: entryRows } = await deps.db.run<{ id: number; createdAt: number; grantProgress: string | null }>(
    statement(sql`SELECT e.id, e.created_at AS createdAt,
        (SELECT g.progress FROM deliveries g WHERE g.inventory_entry_id = e.id AND g.kind = 'grant') AS grantProgress
      FROM inventory_entries e WHERE e.purchase_id = ${purchaseId}`),
  );
  const revokes = await Promise.all(
    entryRows.map(async (row) =>
      statement(sql`INSERT INTO deliveries
          (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
        SELECT ${await deliveryIdFor("revoke", row.id, row.createdAt)}, e.id, 'revoke', e.server_type, u.steam_id, 0, 'pending', 0, ${now}, ${now}
        FROM inventory_entries e JOIN users u ON u.id = e.user_id
        WHERE e.id = ${row.id}
          AND (e.status = 'used' OR EXISTS (SELECT 1 FROM deliveries g WHERE g.inventory_entry_id = e.id
            AND g.kind = 'grant' AND g.status IN ('pending', 'failed')
            AND (g.leased_server_id IS NOT NULL OR g.home_server_id IS NOT NULL)))
        ON CONFLICT (inventory_entry_id, kind) DO UPDATE SET not_before = MIN(not_before, ${now})
          WHERE deliveries.status = 'pending'`),
    ),
  );
  const splitRevokes = await splitRevokeStatements(
    entryRows.map((row) => ({
      entryId: row.id,
      entryCreatedAt: row.createdAt,
      servers: effectServersOf(row.grantProgress),
    })),
    now,
  );
  const balance = sql`(SELECT balance FROM users WHERE id = ${purchase.userId})`;
  const entries = sql`(SELECT id FROM inventory_entries WHERE purchase_id = ${purchaseId})`;

  try {
    await batchChangingCatalog(deps.db, [
      statement(sql`INSERT INTO refunds (purchase_id, user_id, amount, reason, operator_user_id, token, created_at)
        SELECT id, user_id, price, ${reason}, ${operator.userId}, ${token}, ${now} FROM purchases
        WHERE id = ${purchaseId} AND user_id = ${purchase.userId} AND status = 'completed'
          AND (${limit} IS NULL OR price <= ${limit})`),
      auditStatement(
        {
          operator,
          action: "purchase.refund",
          targetType: "purchase",
          targetId: purchaseId,
          before: sql`json_object('status', 'completed', 'balance', ${balance})`,
          after: sql`json_object('status', 'refunded', 'balance', ${balance} + ${amount}, 'refunded', ${amount})`,
          reason,
          now,
        },
        sql`EXISTS (SELECT 1 FROM refunds WHERE token = ${token})`,
      ),
      statement(sql`UPDATE users SET balance = balance + ${amount}, updated_at = ${now} WHERE id = ${purchase.userId}`),
      statement(sql`INSERT INTO ledger (user_id, amount, kind, purchase_id, note, created_at)
        VALUES (${purchase.userId}, ${amount}, 'refund', ${purchaseId}, ${reason}, ${now})`),
      statement(sql`UPDATE purchases SET status = 'refunded' WHERE id = ${purchaseId}`),
      statement(sql`UPDATE items SET sold_quantity = sold_quantity - 1
        WHERE id = ${purchase.itemId} AND max_quantity IS NOT NULL AND sold_quantity > 0`),
      ...revokes,
      ...splitRevokes,
      statement(sql`UPDATE deliveries SET status = 'cancelled', last_error = ${REFUND_TEXT.deliveryCancelled}, lease_until = NULL
        WHERE kind = 'grant' AND inventory_entry_id IN ${entries}
          AND (status = 'failed' OR (status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})))`),
      statement(sql`UPDATE inventory_entries SET status = 'refunded' WHERE purchase_id = ${purchaseId}`),
    ]);
    // The revoke is due now.
    ringDoorbell(deps, [purchase.serverType]);
    return { ok: true };
  } catch (error) {
    // Whatever aborted the batch, nothing was written; the purchase as it is now says why.
    const [again] = await deps.db.orm
      .select({ status: purchases.status, price: purchases.price })
      .from(purchases)
      .where(eq(purchases.id, purchaseId))
      .limit(1);
    if (again?.status === "refunded") return { ok: false, status: 409, error: REFUND_TEXT.already };
    if (again && again.status !== "completed") return { ok: false, status: 409, error: REFUND_TEXT.notCompleted };
    if (again && limit !== null && again.price > limit) return { ok: false, status: 403, error: REFUND_TEXT.overLimit };
    console.error(JSON.stringify({ event: "refund_aborted", purchaseId, error: String(error) }));
    return { ok: false, status: 409, error: REFUND_TEXT.conflict };
  }
}
