import { sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { RETURN_ERRORS } from "#core/messages/returns.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { ringDoorbell } from "../game/doorbell.ts";
import { batchChangingCatalog } from "./catalog-snapshot.ts";

export type ReturnResult =
  | { ok: true; purchaseId: number; itemName: string; amount: number; balance: number; giftTo: string | null }
  | { ok: false; status: 403 | 404 | 409 | 410; error: string };

type Failure = Extract<ReturnResult, { ok: false }>;
/** A gift's friend (by their name on the site), so a returned gift reads as a cancelled gift (issue 46). */
const GIFT_TO = sql`(SELECT f.nickname FROM users f WHERE f.id = p.gift_to_user_id)`;
const fail = (status: Failure["status"], error: string): Failure => ({ ok: false, status, error });

/**
 * The Корзина entry `purchaseId` bought, while it may be returned now by `userId`: the purchase is the
 * player's own (its buyer: a gift's recipient can't return it), completed, its entry still waiting
 * inside its return window, and no game server ever leased its grant. As SQL, for the guard below.
 */
function returnableEntry(purchaseId: number, userId: number, now: number) {
  return sql`(SELECT e.id FROM inventory_entries e JOIN purchases p ON p.id = e.purchase_id
    WHERE p.id = ${purchaseId} AND p.user_id = ${userId} AND p.status = 'completed'
      AND e.status = 'not_used' AND e.return_until IS NOT NULL AND e.return_until > ${now}
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
        AND (d.leased_server_id IS NOT NULL OR d.status <> 'pending')))`;
}

/**
 * Returns a purchase that never reached the game, in ONE batch (decision 111):
 *  1. the Корзина entry becomes `returned`, only through the guard above;
 *  2. the purchase becomes `returned`, only if step 1 returned its entry in this batch;
 *  3. its grant delivery, if one was queued, is cancelled (a lease takes only `pending` ones);
 *  4. the price goes back to the balance: the amount is read from the purchase that step 2 marked,
 *     so when the guard matched nothing it is NULL and users.balance NOT NULL aborts everything;
 *  5. the ledger row, kind `return`, so balance = sum(ledger) holds;
 *  6. limited stock comes back.
 * The delivery lease is one UPDATE that requires the delivery `pending` and the entry `not_used`, and
 * SQLite runs the two transactions one after the other: either the lease or the return comes first,
 * never both. Nothing is read before; after an abort the state is read to say why.
 */
export async function returnPurchase(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  userId: number,
  purchaseId: number,
): Promise<ReturnResult> {
  const now = deps.now().getTime();
  const entryOf = sql`(SELECT id FROM inventory_entries WHERE purchase_id = ${purchaseId} AND status = 'returned' AND returned_at = ${now})`;
  const refund = sql`(SELECT p.price FROM purchases p WHERE p.id = ${purchaseId} AND p.status = 'returned'
    AND EXISTS ${entryOf})`;
  try {
    const results = await batchChangingCatalog(deps.db, [
      statement(sql`UPDATE inventory_entries SET status = 'returned', returned_at = ${now}
        WHERE id = ${returnableEntry(purchaseId, userId, now)}`),
      statement(sql`UPDATE purchases SET status = 'returned' WHERE id = ${purchaseId} AND EXISTS ${entryOf}`),
      statement(sql`UPDATE deliveries SET status = 'cancelled', lease_until = NULL, done_at = ${now},
          last_error = 'Возвращено игроком до выдачи'
        WHERE inventory_entry_id = ${entryOf} AND kind = 'grant' AND status = 'pending'`),
      statement(sql`UPDATE users SET balance = balance + ${refund}, updated_at = ${now} WHERE id = ${userId}
        RETURNING balance`),
      statement(sql`INSERT INTO ledger (user_id, amount, kind, purchase_id, created_at)
        VALUES (${userId}, ${refund}, 'return', ${purchaseId}, ${now})`),
      statement(sql`UPDATE items SET sold_quantity = sold_quantity - 1
        WHERE id = (SELECT item_id FROM purchases WHERE id = ${purchaseId} AND status = 'returned')
          AND max_quantity IS NOT NULL AND sold_quantity > 0 AND EXISTS ${entryOf}`),
      statement(
        sql`SELECT p.price, i.name, p.server_type AS serverType, ${GIFT_TO} AS giftTo FROM purchases p JOIN items i ON i.id = p.item_id
          WHERE p.id = ${purchaseId}`,
      ),
    ]);
    const [balance] = (results[3]?.rows ?? []) as { balance: number | null }[];
    const [bought] = (results[6]?.rows ?? []) as {
      price: number;
      name: string;
      serverType: string;
      giftTo: string | null;
    }[];
    if (!balance || balance.balance === null || !bought)
      throw new Error("return guard matched no row but the batch committed");
    // The cancelled grant leaves the plugins' waiting list at their next poll: now.
    ringDoorbell(deps, [bought.serverType]);
    return {
      ok: true,
      purchaseId,
      itemName: bought.name,
      amount: kopecksToRubles(bought.price),
      balance: kopecksToRubles(balance.balance),
      giftTo: bought.giftTo,
    };
  } catch (error) {
    const reason = await whyNot(deps, userId, purchaseId, now);
    if (reason) return reason;
    console.error(JSON.stringify({ event: "return_aborted", error: String(error) }));
    return fail(409, RETURN_ERRORS.conflict);
  }
}

/**
 * What a return would give back, before the player confirms it (the page without JavaScript asks
 * first, issue 36): the item and the price, or why it can't be returned now. Moves nothing.
 */
export async function returnPreview(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  purchaseId: number,
): Promise<{ ok: true; purchaseId: number; itemName: string; amount: number; giftTo: string | null } | Failure> {
  const reason = await whyNot(deps, userId, purchaseId, deps.now().getTime());
  if (reason) return reason;
  const { rows } = await deps.db.run<{ price: number; name: string; giftTo: string | null }>(
    statement(sql`SELECT p.price, i.name, ${GIFT_TO} AS giftTo FROM purchases p JOIN items i ON i.id = p.item_id
      WHERE p.id = ${purchaseId} AND p.user_id = ${userId}`),
  );
  const [row] = rows;
  if (!row) return fail(404, RETURN_ERRORS.notFound);
  return { ok: true, purchaseId, itemName: row.name, amount: kopecksToRubles(row.price), giftTo: row.giftTo };
}

/** Why the purchase can't be returned, read afresh after the batch aborted. */
async function whyNot(
  deps: Pick<Deps, "db">,
  userId: number,
  purchaseId: number,
  now: number,
): Promise<Failure | null> {
  const { rows } = await deps.db.run<{
    buyer: number;
    purchaseStatus: string;
    entryStatus: string | null;
    returnUntil: number | null;
    windowHours: number | null;
    leased: number;
  }>(
    statement(sql`SELECT p.user_id AS buyer, p.status AS purchaseStatus, e.status AS entryStatus,
        e.return_until AS returnUntil,
        (SELECT return_window_hours FROM shop_settings WHERE id = 1) AS windowHours,
        EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
          AND (d.leased_server_id IS NOT NULL OR d.status NOT IN ('pending', 'cancelled'))) AS leased
      FROM purchases p LEFT JOIN inventory_entries e ON e.purchase_id = p.id WHERE p.id = ${purchaseId}`),
  );
  const row = rows[0];
  if (!row || row.buyer !== userId) return fail(404, RETURN_ERRORS.notFound);
  if (row.purchaseStatus === "returned" || row.purchaseStatus === "refunded" || row.entryStatus === "returned") {
    return fail(409, RETURN_ERRORS.alreadyReturned);
  }
  if (row.entryStatus === "used") return fail(409, RETURN_ERRORS.delivered);
  if (row.purchaseStatus !== "completed" || row.entryStatus !== "not_used")
    return fail(409, RETURN_ERRORS.notReturnable);
  if (row.leased) return fail(409, RETURN_ERRORS.delivering);
  // No window was given at purchase: bought before returns existed (migration 0010 left those
  // entries' return_until empty) or while the operator had them off. Returns being on now doesn't
  // reach back (decision 111), and the answer says which is true now (decision 122).
  if (row.returnUntil === null) {
    return fail(403, (row.windowHours ?? 0) > 0 ? RETURN_ERRORS.notWhenBought : RETURN_ERRORS.turnedOff);
  }
  if (row.returnUntil <= now) return fail(410, RETURN_ERRORS.windowOver);
  return null;
}
