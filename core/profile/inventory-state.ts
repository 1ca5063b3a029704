// What a Корзина entry means to the player, from its stored status, delivery error and term.

import type { InventoryItem } from "./types.ts";

export type InventoryState =
  | "waiting"
  | "delivering"
  | "failed"
  | "active"
  | "received"
  | "expired"
  | "refunded"
  | "returned";

/**
 * waiting: bought, not delivered yet; delivering: in the game already, counted received after the
 * server's next save (decision 124); failed: the plugin gave up (the reason is in last_error);
 * active: a timed item delivered and running («до вайпа» too, until its server's wipe); received: delivered for good (one-off, permanent);
 * expired: a timed item whose term is over; refunded: an operator gave the money back;
 * returned: its buyer took it back before delivery (decision 111).
 */
export function inventoryState(
  entry: Pick<InventoryItem, "status" | "last_error" | "expires_at"> & { delivering?: boolean; until_wipe?: boolean },
  now: string,
): InventoryState {
  if (entry.status === "refunded") return "refunded";
  if (entry.status === "returned") return "returned";
  if (entry.status === "not_used") return entry.last_error ? "failed" : entry.delivering ? "delivering" : "waiting";
  // «До вайпа» runs until the wipe writes its end (decision 130).
  if (!entry.expires_at) return entry.until_wipe ? "active" : "received";
  return Date.parse(entry.expires_at) > Date.parse(now) ? "active" : "expired";
}
