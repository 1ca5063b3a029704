import { formatDate } from "#core/format/dates.ts";
import { saleEndsText } from "#core/messages/shop.ts";
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

/** When the sale's price ends (issue 36): a fixed date in Moscow time, the same on the server and after hydration. */
export function SaleEnds({ sale }: { sale: ShopCardItem["sale"] }) {
  if (!sale) return null;
  return (
    <p className="sale-ends" data-testid="sale-ends">
      <time dateTime={sale.ends_at}>{saleEndsText(formatDate(sale.ends_at))}</time>
    </p>
  );
}
