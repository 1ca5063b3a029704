import { desc, eq, sql } from "drizzle-orm";
import { items, ledger, promoCodes, promoRedemptions, purchases } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";

// A player's ledger rows with what each one paid for or came from: the item (and a gift's friend,
// decision 114) of a purchase, the code of a promo. The player's statement and the console's player
// page read the same rows, so they say the same of each movement. Newest first: ledger ids grow in
// commit order, so they order movements as the balance saw them.

/** The player's movements, newest first; the caller pages it with `.limit()` and `.offset()`. */
export function ledgerRowsOf(db: Deps["db"], userId: number) {
  return db.orm
    .select({
      id: ledger.id,
      amount: ledger.amount,
      kind: ledger.kind,
      note: ledger.note,
      purchaseId: ledger.purchaseId,
      paymentId: ledger.paymentId,
      createdAt: ledger.createdAt,
      itemName: items.name,
      giftTo: sql<string | null>`(SELECT f.nickname FROM users f WHERE f.id = ${purchases.giftToUserId})`,
      serverType: purchases.serverType,
      durationDays: purchases.durationDays,
      promoCode: promoCodes.code,
    })
    .from(ledger)
    .leftJoin(purchases, eq(purchases.id, ledger.purchaseId))
    .leftJoin(items, eq(items.id, purchases.itemId))
    .leftJoin(promoRedemptions, eq(promoRedemptions.id, ledger.promoRedemptionId))
    .leftJoin(promoCodes, eq(promoCodes.id, promoRedemptions.promoId))
    .where(eq(ledger.userId, userId))
    .orderBy(desc(ledger.id))
    .$dynamic();
}
