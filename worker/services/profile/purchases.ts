import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { deliveryFailedText } from "#core/messages/inventory.ts";
import { type PageCursor, PROFILE_PAGE_SIZE, pageOf } from "#core/profile/page-cursor.ts";
import type { PurchaseView } from "#core/profile/types.ts";
import { durationText } from "#core/shop/plural.ts";
import { inventoryEntries, items, purchases, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { isoOrNull } from "./time.ts";

function purchaseColumns(now: number) {
  return {
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
    // A gift's entry in the friend's Корзина, so the buyer can follow it (issue 36); null for one's own.
    giftStatus: inventoryEntries.status,
    giftUsedAt: inventoryEntries.usedAt,
    giftExpiresAt: inventoryEntries.expiresAt,
    giftLastError: inventoryEntries.lastError,
    giftReturnUntil: inventoryEntries.returnUntil,
    // The buyer may still take it back: the same rule as the Корзина's (decision 111), checked again by the return.
    giftReturnable: sql<number | null>`(${inventoryEntries.status} = 'not_used' AND ${purchases.status} = 'completed'
      AND ${inventoryEntries.returnUntil} > ${now}
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = ${inventoryEntries.id} AND d.kind = 'grant'
        AND (d.leased_server_id IS NOT NULL OR d.status <> 'pending')))`,
  };
}

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
  giftStatus: "not_used" | "used" | "refunded" | "returned" | null;
  giftUsedAt: number | null;
  giftExpiresAt: number | null;
  giftLastError: string | null;
  giftReturnUntil: number | null;
  giftReturnable: number | null;
};

function toView(row: PurchaseRow): PurchaseView {
  return {
    id: row.id,
    transaction_id: row.transactionId,
    item_name: row.itemName,
    paid_at: isoOrNull(row.paidAt),
    created_at: isoOrNull(row.createdAt),
    server_type: row.serverType,
    duration_text: durationText(row.durationDays),
    price: kopecksToRubles(row.price),
    status: row.status,
    gift_to: row.giftTo,
    gift:
      row.giftStatus === null
        ? null
        : {
            status: row.giftStatus,
            used_at: isoOrNull(row.giftUsedAt),
            expires_at: isoOrNull(row.giftExpiresAt),
            last_error: row.giftLastError === null ? null : deliveryFailedText(row.giftLastError),
            return_until: row.giftReturnable ? isoOrNull(row.giftReturnUntil) : null,
            returnable: Boolean(row.giftReturnable),
          },
  };
}

/**
 * A purchase's own Корзина entry when it is a gift (the friend's); none for one's own purchase. Found
 * among the friend's entries (inventory_user): no index leads with purchase_id, and without the friend
 * the join read every entry of the shop (decision 126).
 */
const giftEntry = and(
  eq(inventoryEntries.userId, purchases.giftToUserId),
  eq(inventoryEntries.purchaseId, purchases.id),
  isNotNull(purchases.giftToUserId),
);

/** The player's own purchases as the API's /purchase/history reads them, newest first, from `before` on. */
function purchasesOf(deps: Pick<Deps, "db" | "now">, userId: number, before: PageCursor | null) {
  return deps.db.orm
    .select(purchaseColumns(deps.now().getTime()))
    .from(purchases)
    .innerJoin(items, eq(items.id, purchases.itemId))
    .leftJoin(inventoryEntries, giftEntry)
    .where(
      and(
        eq(purchases.userId, userId),
        before ? sql`(${purchases.createdAt}, ${purchases.id}) < (${before.createdAt}, ${before.id})` : undefined,
      ),
    )
    .orderBy(desc(purchases.createdAt), desc(purchases.id));
}

/** The player's own purchases, newest first (the API's /purchase/history, which has always answered all). */
export async function listPurchases(deps: Pick<Deps, "db" | "now">, userId: number): Promise<PurchaseView[]> {
  return (await purchasesOf(deps, userId, null)).map(toView);
}

/**
 * A page of the player's own purchases for /purchases (decision 150): PROFILE_PAGE_SIZE from `before`
 * (the last row of the page before, null for the first), read along `purchases_user_created`, and
 * where the next page starts (null on the last). A cursor is only a position: the rows are the player's.
 */
export async function listPurchasesPage(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  before: PageCursor | null,
): Promise<{ purchases: PurchaseView[]; next: PageCursor | null }> {
  const page = pageOf(await purchasesOf(deps, userId, before).limit(PROFILE_PAGE_SIZE + 1));
  return { purchases: page.rows.map(toView), next: page.next };
}

/** One purchase, only when it belongs to the player (someone else's reads as missing). */
export async function getPurchase(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  purchaseId: number,
): Promise<PurchaseView | null> {
  const [row] = await deps.db.orm
    .select(purchaseColumns(deps.now().getTime()))
    .from(purchases)
    .innerJoin(items, eq(items.id, purchases.itemId))
    .leftJoin(inventoryEntries, giftEntry)
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, userId)))
    .limit(1);
  return row ? toView(row) : null;
}
