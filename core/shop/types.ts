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
  reload_time: number;
  durations: ShopDuration[];
  contents: { item: string; img: string }[];
  start_time: string | null;
  end_time: string | null;
  max_quantity: number | null;
  sold_quantity: number;
}

export interface ShopCategory {
  id: number;
  name: string;
  description: string;
}

/** What a card and the buy dialog need: the item without its description and kit contents. */
export type ShopCardItem = Omit<ShopItem, "description" | "contents">;
