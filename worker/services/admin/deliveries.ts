import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { DeliveryFilter } from "#core/admin/filters.ts";
import { DELIVERY_TEXT } from "#core/messages/admin.ts";
import { deliveries, inventoryEntries, items, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import { type AdminResult, reasonSchema } from "./balance.ts";
import type { Operator } from "./roles.ts";

/** A pending delivery older than this has not reached the game and is shown as stuck. */
export const STUCK_AFTER_MS = 30 * 60_000;
/** A delivery a server acknowledged after its hand-off (decision 104) stays among the problems this long. */
export const REFUSED_ACK_SHOWN_MS = 7 * 24 * 60 * 60_000;

export const deliveryActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry"), deliveryId: z.string().uuid(DELIVERY_TEXT.notFound) }),
  z.object({ intent: z.literal("cancel"), deliveryId: z.string().uuid(DELIVERY_TEXT.notFound), reason: reasonSchema }),
]);

export async function listDeliveries(
  deps: Pick<Deps, "db" | "now">,
  filter: { status: DeliveryFilter; serverType: string | null },
) {
  const now = deps.now().getTime();
  const stuck = and(eq(deliveries.status, "pending"), lt(deliveries.createdAt, now - STUCK_AFTER_MS));
  const byStatus: Record<DeliveryFilter, SQL | undefined> = {
    problems: sql`(${deliveries.status} = 'failed' OR (${stuck}) OR ${deliveries.ackRefusedAt} > ${now - REFUSED_ACK_SHOWN_MS})`,
    failed: eq(deliveries.status, "failed"),
    stuck,
    pending: eq(deliveries.status, "pending"),
    done: eq(deliveries.status, "done"),
    cancelled: eq(deliveries.status, "cancelled"),
  };
  return deps.db.orm
    .select({
      id: deliveries.id,
      kind: deliveries.kind,
      status: deliveries.status,
      serverType: deliveries.serverType,
      attempts: deliveries.attempts,
      lastError: deliveries.lastError,
      notBefore: deliveries.notBefore,
      leaseUntil: deliveries.leaseUntil,
      createdAt: deliveries.createdAt,
      doneAt: deliveries.doneAt,
      // Another server acknowledged it after the hand-off: it may have been given twice.
      ackRefusedAt: deliveries.ackRefusedAt,
      ackRefusedServerId: deliveries.ackRefusedServerId,
      steamId: deliveries.steamId,
      nickname: users.nickname,
      itemName: items.name,
    })
    .from(deliveries)
    .innerJoin(inventoryEntries, eq(inventoryEntries.id, deliveries.inventoryEntryId))
    .innerJoin(items, eq(items.id, inventoryEntries.itemId))
    .innerJoin(users, eq(users.id, inventoryEntries.userId))
    .where(and(byStatus[filter.status], filter.serverType ? eq(deliveries.serverType, filter.serverType) : undefined))
    .orderBy(desc(deliveries.createdAt))
    .limit(200);
}

/**
 * Sends a failed or stuck delivery again: attempts start over and it is due now. The id stays the
 * same, so a plugin that already ran it (its journal has the id) only acknowledges it; the game
 * gets it once. A grant of a refunded entry is never sent again.
 */
export async function retryDelivery(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  deliveryId: string,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const guard = sql`EXISTS (SELECT 1 FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
    WHERE d.id = ${deliveryId} AND (d.status = 'failed' OR (d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= ${now})))
      AND NOT (d.kind = 'grant' AND e.status = 'refunded'))`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "delivery.retry",
        targetType: "delivery",
        targetId: deliveryId,
        before: sql`(SELECT json_object('status', status, 'attempts', attempts, 'last_error', last_error) FROM deliveries WHERE id = ${deliveryId})`,
        after: { status: "pending", attempts: 0 },
        now,
      },
      guard,
    ),
    statement(sql`UPDATE inventory_entries SET last_error = NULL
      WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${deliveryId} AND kind = 'grant') AND ${guard}`),
    statement(sql`UPDATE deliveries SET status = 'pending', attempts = 0, not_before = ${now}, lease_until = NULL,
        last_error = NULL
      WHERE id = ${deliveryId} AND ${guard}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return (await exists(deps, deliveryId))
    ? { ok: false, status: 409, error: DELIVERY_TEXT.notRetryable }
    : { ok: false, status: 404, error: DELIVERY_TEXT.notFound };
}

/** Gives up on a delivery that is not done and not out with a plugin right now; the reason is kept on it. */
export async function cancelDelivery(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  deliveryId: string,
  reason: string,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const guard = sql`EXISTS (SELECT 1 FROM deliveries WHERE id = ${deliveryId}
    AND (status = 'failed' OR (status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now}))))`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "delivery.cancel",
        targetType: "delivery",
        targetId: deliveryId,
        before: sql`(SELECT json_object('status', status, 'attempts', attempts) FROM deliveries WHERE id = ${deliveryId})`,
        after: { status: "cancelled" },
        reason,
        now,
      },
      guard,
    ),
    statement(sql`UPDATE deliveries SET status = 'cancelled', last_error = ${`Отменено: ${reason}`}, lease_until = NULL
      WHERE id = ${deliveryId} AND ${guard}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return (await exists(deps, deliveryId))
    ? { ok: false, status: 409, error: DELIVERY_TEXT.notCancellable }
    : { ok: false, status: 404, error: DELIVERY_TEXT.notFound };
}

async function exists(deps: Pick<Deps, "db">, deliveryId: string): Promise<boolean> {
  const [row] = await deps.db.orm.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.id, deliveryId));
  return Boolean(row);
}
