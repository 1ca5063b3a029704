import type { PurchaseReceipt } from "../profile/types.ts";
import type { GiftRecipient } from "./gift.ts";

// The catalogue's shapes as the API answers them and the shop pages show them.

export interface ShopDuration {
  days: number;
  /** Rubles: the duration's own price, else round(days / 30 × price). */
  price: number;
  /** Rubles after the item's discount. */
  discount_price: number;
}

export interface ShopItem {
  id: number;
  name: string;
  description: string;
  price: number;
  discount: number;
  discount_price: number;
  img: string;
  server_type: string;
  category_id: number;
  category_name: string;
  is_one_time: boolean;
  is_limited: boolean;
  is_available: boolean;
  /** No game server of its type exists for now: not sold until one is added (decision 122). */
  no_server: boolean;
  reload_time: number;
  durations: ShopDuration[];
  contents: { item: string; img: string }[];
  start_time: string | null;
  end_time: string | null;
  max_quantity: number | null;
  sold_quantity: number;
  /** The running sale that sets the price (decision 113), or null: `discount` is then the item's own. */
  sale: { title: string; percent: number; ends_at: string } | null;
}

export interface ShopCategory {
  id: number;
  name: string;
  description: string;
}

/**
 * What a card and the buy dialog need, and all the shop page sends per item: no description, kit
 * contents, category id or reload time (the item page shows those).
 */
export type ShopCardItem = Pick<
  ShopItem,
  | "id"
  | "name"
  | "price"
  | "discount"
  | "discount_price"
  | "img"
  | "server_type"
  | "category_name"
  | "is_one_time"
  | "is_limited"
  | "is_available"
  | "no_server"
  | "durations"
  | "start_time"
  | "end_time"
  | "max_quantity"
  | "sold_quantity"
  | "sale"
>;

/** One page of a list, as the API and the shop page answer it. */
export interface Pagination {
  page: number;
  per_page: number;
  /** How many items the whole list has. */
  total: number;
  /** How many pages: at least 1, an empty list has one empty page. */
  pages: number;
}

/** A game server as the receipt and the Корзина name it: where to go to receive an item. */
export interface ServerAddress {
  name: string;
  /** "ip:port" */
  ip_port: string;
}

/** The address Steam opens to join a server: `steam://connect/ip:port`. */
export function steamConnectHref(ipPort: string): string {
  return `steam://connect/${ipPort}`;
}

/** What the item page's purchase action answers: the receipt, a refusal, or the gift's friend to confirm. */
export type PurchaseActionData =
  | {
      ok: true;
      purchase: PurchaseReceipt;
      balance: number;
      servers: ServerAddress[];
      /** The delivery waits out a fair-play window: how long and until when (issue 46). */
      waits?: string | null;
    }
  | {
      ok: false;
      status: number;
      error: string;
      missing?: number;
      duration?: number | null;
      price?: number;
      /** What the player typed for a gift's friend, kept in the field. */
      giftQuery?: string;
      /** The friend a refused gift was for: still shown, so the next try is still the gift (issue 36). */
      recipient?: GiftRecipient;
    }
  /** The gift's friend, shown before paying (issue 24). */
  | { ok: "gift"; recipient: GiftRecipient; giftQuery: string; duration: number | null };
