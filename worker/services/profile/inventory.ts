import { and, desc, eq } from "drizzle-orm";
import { inventoryEntries, items } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

export const INVENTORY_FILTERS = ["all", "not_used", "used"] as const;
export type InventoryFilter = (typeof INVENTORY_FILTERS)[number];

/** A Корзина entry as the API and the page show it (spec section 3). */
export interface InventoryItem {
  id: number;
  item_name: string;
  item_image: string;
  server_type: string;
  /** Days; null when permanent. */
  duration: number | null;
  is_permanent: boolean;
  status: "not_used" | "used" | "refunded";
  created_at: string | null;
  used_at: string | null;
  expires_at: string | null;
  last_error: string | null;
}

/** The player's own Корзина, newest first, optionally only unused or only used entries. */
export async function listInventory(
  deps: Pick<Deps, "db">,
  userId: number,
  filter: InventoryFilter = "all",
): Promise<InventoryItem[]> {
  const rows = await deps.db.orm
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
