// What a Корзина entry means to the player, from its stored status, delivery error and term.

import type { InventoryItem } from "./types.ts";

export type InventoryState = "waiting" | "failed" | "active" | "received" | "expired" | "refunded";

/**
 * waiting: bought, not delivered yet; failed: the plugin gave up (the reason is in last_error);
 * active: a timed item delivered and running; received: delivered for good (one-off, permanent);
 * expired: a timed item whose term is over; refunded: the money went back to the balance.
 */
export function inventoryState(
  entry: Pick<InventoryItem, "status" | "last_error" | "expires_at">,
  now: string,
): InventoryState {
  if (entry.status === "refunded" || entry.status === "returned") return "refunded";
  if (entry.status === "not_used") return entry.last_error ? "failed" : "waiting";
  if (!entry.expires_at) return "received";
  return Date.parse(entry.expires_at) > Date.parse(now) ? "active" : "expired";
}
