/** The promo part of a successful activation: value in rubles for BALANCE, the item's name for ITEM. */
export interface PromoView {
  type: "BALANCE" | "ITEM";
  value: number | null;
  item: { name: string } | null;
}
