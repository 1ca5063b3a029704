import type { ShopCardItem } from "#core/shop/types.ts";

/** «−20%» over an item's picture while a sale prices it (decision 113); the sale's name says why. */
export function SaleSticker({ sale }: { sale: NonNullable<ShopCardItem["sale"]> }) {
  return (
    <p className="sale-sticker" title={sale.title}>
      <span className="sale-sticker__percent">−{sale.percent}%</span>{" "}
      <span className="sale-sticker__title">{sale.title}</span>
    </p>
  );
}
