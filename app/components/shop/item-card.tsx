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
  /** Why a fair-play window closes buying it now, and until when (issue 46); null when it doesn't. */
  closed?: string | null;
}

/**
 * A card is plain markup: its links are ordinary anchors (the grid handles their clicks once, see
 * ShopGrid), and only a limited offer's card ticks a clock.
 */
export function ItemCard({ item, serverNow, eager, closed = null }: ItemCardProps) {
  return item.is_limited ? (
    <TickingCard item={item} serverNow={serverNow} eager={eager} closed={closed} />
  ) : (
    <CardBody item={item} now={serverNow} state={limitedState(item, serverNow)} eager={eager} closed={closed} />
  );
}

function TickingCard({ item, serverNow, eager, closed }: ItemCardProps) {
  const { now, state } = useLimitedState(item, serverNow);
  return <CardBody item={item} now={now} state={state} eager={eager} closed={closed ?? null} />;
}

function CardBody({
  item,
  now,
  state,
  eager,
  closed,
}: {
  item: ShopCardItem;
  now: number;
  state: LimitedState | null;
  eager: boolean;
  closed: string | null;
}) {
  const price = fromPrice(item);
  const unavailable = state === "upcoming" || state === "unavailable" || !item.is_available;
  const blocked = unavailable || closed !== null;
  const tooltip = unavailable ? blockedText(item, state) : (closed ?? "");
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
      {closed ? (
        <p className="shop-card__closed" data-testid="purchase-closed">
          {closed}
        </p>
      ) : null}
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
