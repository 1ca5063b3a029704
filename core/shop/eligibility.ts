// Whether an item can be bought, and if not why: the one TypeScript statement of the rule.
// The purchase SQL guard states the same rule again inside the transaction (money rules live
// in SQL); tests/eligibility-parity.test.ts keeps the two in step.

/** The facts about an item that decide whether it can be bought. Times in ms since the epoch. */
export interface SaleFacts {
  isAvailable: boolean;
  startTime: number | null;
  endTime: number | null;
  maxQuantity: number | null;
  soldQuantity: number;
}

export interface ItemFacts extends SaleFacts {
  serverType: string;
  /** Whether a game server of the item's type exists: none, and nothing could deliver it (decision 122). */
  hasServer: boolean;
  isOneTime: boolean;
  /** The durations offered, in days; empty for an item sold only permanently. */
  offeredDays: readonly number[];
}

export interface PurchaseRequest {
  serverType: string;
  /** null: one-time or permanent. */
  durationDays: number | null;
}

export type SaleRefusal = "unavailable" | "ended" | "soldOut" | "notStarted";

export type PurchaseRefusal =
  | "wrongServerType"
  | "oneTimeNoDuration"
  | "durationRequired"
  | "durationNotOffered"
  | "noServer"
  | SaleRefusal;

/** Why the offer itself is off sale at `now` (whoever asks, for whatever duration), or null when on sale. */
export function saleRefusal(item: SaleFacts, now: number): SaleRefusal | null {
  if (!item.isAvailable) return "unavailable";
  if (item.endTime != null && now >= item.endTime) return "ended";
  if (item.maxQuantity != null && item.soldQuantity >= item.maxQuantity) return "soldOut";
  if (item.startTime != null && now < item.startTime) return "notStarted";
  return null;
}

/**
 * Why `request` can't be bought at `now`, or null when it can. The order is what the player is
 * told first: a request that doesn't fit the item, then an offer that is off sale, then a type
 * that has no game server for now.
 */
export function purchaseRefusal(item: ItemFacts, request: PurchaseRequest, now: number): PurchaseRefusal | null {
  if (item.serverType !== request.serverType) return "wrongServerType";
  const hasDurations = item.offeredDays.length > 0;
  if (item.isOneTime || !hasDurations) {
    if (request.durationDays != null) return item.isOneTime ? "oneTimeNoDuration" : "durationNotOffered";
  } else if (request.durationDays == null) {
    return "durationRequired";
  } else if (!item.offeredDays.includes(request.durationDays)) {
    return "durationNotOffered";
  }
  const sale = saleRefusal(item, now);
  if (sale) return sale;
  if (!item.hasServer) return "noServer";
  // A one-time item that also lists durations has no price to buy it by.
  if (request.durationDays == null && hasDurations) return "durationNotOffered";
  return null;
}
