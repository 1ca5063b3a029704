import { formatRubles } from "#core/format/money.ts";

interface PriceProps {
  price: number;
  discountPrice: number;
  discount: number;
  /** «от N ₽»: the cheapest of several durations. */
  from?: boolean;
}

/** A price, with the old price struck through when discounted. */
export function Price({ price, discountPrice, discount, from = false }: PriceProps) {
  const prefix = from ? <span className="muted">от </span> : null;
  if (discount > 0 && discountPrice < price) {
    return (
      <span className="price">
        {prefix}
        <span className="price__now">{formatRubles(discountPrice)}</span>
        <s className="price__old">{formatRubles(price)}</s>
        <span className="badge badge--discount">−{discount}%</span>
      </span>
    );
  }
  return (
    <span className="price">
      {prefix}
      <span className="price__now">{formatRubles(price)}</span>
    </span>
  );
}

/** The lowest price a card shows: the item price, or «от N ₽» over its durations. */
export function fromPrice(item: {
  price: number;
  discount_price: number;
  durations: { price: number; discount_price: number }[];
}) {
  const cheapest = item.durations.toSorted((a, b) => a.discount_price - b.discount_price)[0];
  return cheapest
    ? { from: true, price: cheapest.price, discountPrice: cheapest.discount_price }
    : { from: false, price: item.price, discountPrice: item.discount_price };
}
