import { and, desc, eq, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { formatDays, PERMANENT } from "#core/format/plural.ts";
import type { PurchaseView } from "#core/profile/types.ts";
import { items, purchases, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

const purchaseColumns = {
  id: purchases.id,
  transactionId: purchases.transactionId,
  itemName: items.name,
  paidAt: purchases.paidAt,
  createdAt: purchases.createdAt,
  serverType: purchases.serverType,
  durationDays: purchases.durationDays,
  price: purchases.price,
  status: purchases.status,
  // A gift's friend (issue 24), by name.
  giftTo: sql<string | null>`(SELECT ${users.nickname} FROM ${users} WHERE ${users.id} = ${purchases.giftToUserId})`,
};

type PurchaseRow = {
  id: number;
  transactionId: string;
  itemName: string;
  paidAt: number | null;
  createdAt: number;
  serverType: string;
  durationDays: number | null;
  price: number;
  status: PurchaseView["status"];
  giftTo: string | null;
};

function toView(row: PurchaseRow): PurchaseView {
  return {
    id: row.id,
    transaction_id: row.transactionId,
    item_name: row.itemName,
    paid_at: isoOrNull(row.paidAt),
    created_at: isoOrNull(row.createdAt),
    server_type: row.serverType,
    duration_text: row.durationDays ? formatDays(row.durationDays) : PERMANENT,
    price: kopecksToRubles(row.price),
    status: row.status,
    gift_to: row.giftTo,
  };
}

/** The player's own purchases, newest first. */
export async function listPurchases(deps: Pick<Deps, "db">, userId: number): Promise<PurchaseView[]> {
  const rows = await deps.db.orm
    .select(purchaseColumns)
    .from(purchases)
    .innerJoin(items, eq(items.id, purchases.itemId))
    .where(eq(purchases.userId, userId))
    .orderBy(desc(purchases.createdAt), desc(purchases.id));
  return rows.map(toView);
}

/** One purchase, only when it belongs to the player (someone else's reads as missing). */
export async function getPurchase(
  deps: Pick<Deps, "db">,
  userId: number,
  purchaseId: number,
): Promise<PurchaseView | null> {
  const [row] = await deps.db.orm
    .select(purchaseColumns)
    .from(purchases)
    .innerJoin(items, eq(items.id, purchases.itemId))
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, userId)))
    .limit(1);
  return row ? toView(row) : null;
}
