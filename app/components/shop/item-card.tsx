import { serverTypeLabel } from "#core/format/server-type.ts";
import { blockedText } from "#core/messages/shop.ts";
import { type LimitedState, limitedState } from "#core/shop/limited.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import { Countdown, LimitedBadge, QuantityBar, useLimitedState } from "./limited.tsx";
import { fromPrice, Price } from "./price.tsx";
import { SaleEnds, SaleSticker } from "./sale-sticker.tsx";

export function itemHref(item: Pick<ShopCardItem, "id" | "server_type">): string {
  return `/shop/items/${item.id}?server_type=${encodeURIComponent(item.server_type)}`;
}

interface ItemCardProps {
  item: ShopCardItem;
  serverNow: number;
  /** Cards past the first row load their pictures lazily. */
  eager: boolean;
}

/**
 * A card is plain markup: its links are ordinary anchors (the grid handles their clicks once, see
 * ShopGrid), and only a limited offer's card ticks a clock.
 */
export function ItemCard({ item, serverNow, eager }: ItemCardProps) {
  return item.is_limited ? (
    <TickingCard item={item} serverNow={serverNow} eager={eager} />
  ) : (
    <CardBody item={item} now={serverNow} state={limitedState(item, serverNow)} eager={eager} />
  );
}

function TickingCard({ item, serverNow, eager }: ItemCardProps) {
  const { now, state } = useLimitedState(item, serverNow);
  return <CardBody item={item} now={now} state={state} eager={eager} />;
}

function CardBody({
  item,
  now,
  state,
  eager,
}: {
  item: ShopCardItem;
  now: number;
  state: LimitedState | null;
  eager: boolean;
}) {
  const price = fromPrice(item);
  const blocked = state === "upcoming" || state === "unavailable" || !item.is_available;
  const tooltip = blockedText(item, state);
  const href = itemHref(item);
  return (
    <article className={state ? `shop-card shop-card--${state}` : "shop-card"}>
      <img src={item.img} alt="" width={128} height={128} loading={eager ? undefined : "lazy"} />
      {item.sale ? <SaleSticker sale={item.sale} /> : null}
      {state || item.is_one_time ? (
        <p className="shop-card__badges">
          {state ? <LimitedBadge state={state} item={item} /> : null}
          {item.is_one_time ? <span className="badge">Разовый</span> : null}
        </p>
      ) : null}
      <h2 className="shop-card__title">
        <a href={href}>{item.name}</a>
      </h2>
      <p className="muted">{item.category_name}</p>
      <p className="shop-card__type">{serverTypeLabel(item.server_type)}</p>
      <SaleEnds sale={item.sale} />
      {state ? <Countdown item={item} state={state} now={now} /> : null}
      {item.is_limited ? <QuantityBar item={item} /> : null}
      <p className="shop-card__footer">
        <Price price={price.price} discountPrice={price.discountPrice} discount={item.discount} from={price.from} />
        {blocked ? (
          <span className="tooltip" title={tooltip}>
            <button type="button" className="button button--small" disabled aria-describedby={`tip-${item.id}`}>
              Купить
            </button>
            <span className="tooltip__text" role="tooltip" id={`tip-${item.id}`}>
              {tooltip}
            </span>
          </span>
        ) : (
          // Without JavaScript the item's page sells it; with it the grid opens the buy dialog instead.
          <a href={href} className="button button--small" data-buy={item.id}>
            Купить
          </a>
        )}
      </p>
    </article>
  );
}
