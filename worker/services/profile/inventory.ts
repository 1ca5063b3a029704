import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import type { InventoryFilter, InventoryItem } from "#core/profile/types.ts";
import { inventoryEntries, items, purchases } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

/**
 * The query of a player's Корзина: `userId` is an id, or SQL naming the session's player (decision 112).
 * Each entry says whether its owner may return it at `now` (decision 111): bought by them, waiting,
 * inside its window, and never leased to a game server; the return's own batch checks it again.
 */
export function inventoryQuery(deps: Pick<Deps, "db" | "now">, userId: number | SQL, filter: InventoryFilter = "all") {
  const now = deps.now().getTime();
  const returnable = sql<number>`(${inventoryEntries.status} = 'not_used' AND ${purchases.userId} = ${inventoryEntries.userId}
    AND ${purchases.status} = 'completed' AND ${inventoryEntries.returnUntil} > ${now}
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = ${inventoryEntries.id} AND d.kind = 'grant'
      AND (d.leased_server_id IS NOT NULL OR d.status <> 'pending')))`;
  return deps.db.orm
    .select({
      id: inventoryEntries.id,
      itemName: items.name,
      itemImage: items.img,
      serverType: inventoryEntries.serverType,
      durationDays: inventoryEntries.durationDays,
      isPermanent: inventoryEntries.isPermanent,
      status: inventoryEntries.status,
      createdAt: inventoryEntries.createdAt,
      usedAt: inventoryEntries.usedAt,
      expiresAt: inventoryEntries.expiresAt,
      lastError: inventoryEntries.lastError,
      purchaseId: inventoryEntries.purchaseId,
      price: purchases.price,
      returnUntil: inventoryEntries.returnUntil,
      returnable,
      giftFrom: sql<string | null>`(SELECT b.nickname FROM users b WHERE b.id = ${purchases.userId}
        AND ${purchases.giftToUserId} IS NOT NULL)`,
    })
    .from(inventoryEntries)
    .innerJoin(items, eq(items.id, inventoryEntries.itemId))
    .leftJoin(purchases, eq(purchases.id, inventoryEntries.purchaseId))
    .where(
      filter === "all"
        ? eq(inventoryEntries.userId, userId)
        : and(eq(inventoryEntries.userId, userId), eq(inventoryEntries.status, filter)),
    )
    .orderBy(desc(inventoryEntries.createdAt), desc(inventoryEntries.id));
}

/** The rows of `inventoryQuery` as the API and the page show them. */
export function toInventoryItems(rows: Awaited<ReturnType<typeof inventoryQuery>>): InventoryItem[] {
  return rows.map((row) => ({
    id: row.id,
    item_name: row.itemName,
    item_image: row.itemImage,
    server_type: row.serverType,
    duration: row.isPermanent ? null : row.durationDays,
    is_permanent: row.isPermanent,
    status: row.status,
    created_at: isoOrNull(row.createdAt),
    used_at: isoOrNull(row.usedAt),
    expires_at: isoOrNull(row.expiresAt),
    last_error: row.lastError,
    purchase_id: row.purchaseId,
    price: row.price === null ? null : kopecksToRubles(row.price),
    return_until: row.returnable ? isoOrNull(row.returnUntil) : null,
    returnable: Boolean(row.returnable),
    gift_from: row.giftFrom,
  }));
}

/** The player's own Корзина, newest first, optionally only unused or only used entries. */
export async function listInventory(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  filter: InventoryFilter = "all",
): Promise<InventoryItem[]> {
  return toInventoryItems(await inventoryQuery(deps, userId, filter));
}
