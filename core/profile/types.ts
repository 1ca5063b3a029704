// The player's own history as the API answers it and the profile pages show it.

/** A purchase, with the item's name. Money in rubles. */
export interface PurchaseView {
  id: number;
  transaction_id: string;
  item_name: string;
  paid_at: string | null;
  created_at: string | null;
  server_type: string;
  duration_text: string;
  /** Rubles. */
  price: number;
  status: "pending" | "completed" | "failed" | "refunded" | "returned";
  /** A gift: the friend's name (issue 24); null for one's own purchase. */
  gift_to: string | null;
  /** A gift: where it is in the friend's Корзина, so the buyer can follow it (issue 36); null for one's own. */
  gift: GiftProgress | null;
}

/** A gift's entry in its friend's Корзина, as its buyer sees it. */
export interface GiftProgress {
  status: InventoryItem["status"];
  used_at: string | null;
  expires_at: string | null;
  /** Why its delivery failed, in the player's words. */
  last_error: string | null;
  /** Until when the buyer may take it back undelivered; null when they can't now. */
  return_until: string | null;
  returnable: boolean;
}

/** What a purchase answers about the purchase it just made: the same view without the history-only fields. */
export type PurchaseReceipt = Omit<PurchaseView, "item_name" | "created_at" | "gift_to" | "gift">;

/** A deposit (top-up), with the field names the API has always used. */
export interface DepositView {
  /** Our payment id (UUID). */
  ID: string;
  /** The provider's payment id, null until the provider has one. */
  payment_id: string | null;
  /** Rubles. */
  amount: number;
  /** refunded: a refund of a deposit (ID is the refund's own, payment_id the provider's refund id). */
  status: "pending" | "completed" | "failed" | "cancelled" | "refunded";
  completed_at: string | null;
  CreatedAt: string | null;
}

export const INVENTORY_FILTERS = ["all", "not_used", "used"] as const;
export type InventoryFilter = (typeof INVENTORY_FILTERS)[number];

/** A Корзина entry. */
export interface InventoryItem {
  id: number;
  item_name: string;
  item_image: string;
  server_type: string;
  /** Days; null when permanent. */
  duration: number | null;
  is_permanent: boolean;
  /** A one-off item (a pack given once): no term at all (issue 36). */
  is_one_time: boolean;
  status: "not_used" | "used" | "refunded" | "returned";
  created_at: string | null;
  used_at: string | null;
  expires_at: string | null;
  last_error: string | null;
  /** The purchase that bought it; null for an item given by a promo code. */
  purchase_id: number | null;
  /** What it cost, in rubles; null for a promo code's item. */
  price: number | null;
  /** Until when its buyer may return it undelivered (decision 111); null when they can't now. */
  return_until: string | null;
  returnable: boolean;
  /**
   * Part of it is in the game already and the rest, or the world's save that makes it count, is still
   * to come (decision 124): the Корзина says «Выдаётся».
   */
  delivering: boolean;
  /** A gift: the buyer's name (issue 24); null for one's own purchase or a promo code's item. */
  gift_from: string | null;
  /**
   * Waiting out a fair-play window after a wipe (decision 129): its hours and when it ends on the
   * first of its type's servers to leave it; null when none is open.
   */
  fair_play: { hours: number; until: string } | null;
  /** Sold «до вайпа» (decision 130): it runs until the next wipe of the server that delivered it. */
  until_wipe: boolean;
  /**
   * A «до вайпа» entry not ended yet: the next wipe of its server (or, while it waits, of its type's
   * first server to wipe) by the schedule; null when none is announced. The ended one's end is `expires_at`.
   */
  wipe_at: string | null;
}

/** One movement of the balance statement «Движение средств» (a ledger row). Money in rubles. */
export interface StatementEntry {
  id: number;
  created_at: string | null;
  kind: "deposit" | "purchase" | "promo" | "refund" | "refund_debt" | "adjustment" | "return";
  /** Signed: a credit is positive, a debit negative. */
  amount: number;
  /** What it was, in the player's words («Покупка «VIP» (SOLO, 7 дней)», «Промокод WELCOME100»). */
  description: string;
  item_name: string | null;
  promo_code: string | null;
  /** The operator's reason for an adjustment or a refund of a purchase. */
  note: string | null;
  /** The balance right after this movement. */
  balance_after: number;
}

/** A page of the statement, newest first, with the balance the whole statement adds up to. */
export interface StatementPage {
  entries: StatementEntry[];
  /** Rubles: the sum of every movement, which is the balance. */
  balance: number;
  page: number;
  per_page: number;
  total: number;
  pages: number;
}
