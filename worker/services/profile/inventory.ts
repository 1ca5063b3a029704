import { and, desc, eq, type SQL } from "drizzle-orm";
import type { InventoryFilter, InventoryItem } from "#core/profile/types.ts";
import { inventoryEntries, items } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

/** The query of a player's Корзина: `userId` is an id, or SQL naming the session's player (decision 112). */
export function inventoryQuery(deps: Pick<Deps, "db">, userId: number | SQL, filter: InventoryFilter = "all") {
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
    })
    .from(inventoryEntries)
    .innerJoin(items, eq(items.id, inventoryEntries.itemId))
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
  }));
}

/** The player's own Корзина, newest first, optionally only unused or only used entries. */
export async function listInventory(
  deps: Pick<Deps, "db">,
  userId: number,
  filter: InventoryFilter = "all",
): Promise<InventoryItem[]> {
  return toInventoryItems(await inventoryQuery(deps, userId, filter));
}
