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
  status: "pending" | "completed" | "failed" | "refunded";
}

/** What a purchase answers about the purchase it just made: the same view without the history-only fields. */
export type PurchaseReceipt = Omit<PurchaseView, "item_name" | "created_at">;

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
  status: "not_used" | "used" | "refunded";
  created_at: string | null;
  used_at: string | null;
  expires_at: string | null;
  last_error: string | null;
}
