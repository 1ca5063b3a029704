import { formatRubles } from "#core/format/money.ts";

/** A price, with the old price struck through when discounted. */
export function Price({ price, discountPrice, discount }: { price: number; discountPrice: number; discount: number }) {
  if (discount > 0 && discountPrice < price) {
    return (
      <span className="price">
        <span className="price__now">{formatRubles(discountPrice)}</span>
        <s className="price__old">{formatRubles(price)}</s>
        <span className="badge badge--discount">−{discount}%</span>
      </span>
    );
  }
  return (
    <span className="price">
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
