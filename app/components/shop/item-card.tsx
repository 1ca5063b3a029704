import type { MouseEvent } from "react";
import { Link } from "react-router";
import { UNAVAILABLE_TOOLTIP, UPCOMING_TOOLTIP } from "#core/messages/shop.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import { Countdown, LimitedBadge, QuantityBar, useLimitedState } from "./limited.tsx";
import { fromPrice, Price } from "./price.tsx";

export function itemHref(item: Pick<ShopCardItem, "id" | "server_type">): string {
  return `/shop/items/${item.id}?server_type=${encodeURIComponent(item.server_type)}`;
}

interface ItemCardProps {
  item: ShopCardItem;
  serverNow: number;
  /** Cards past the first row load their pictures lazily. */
  eager: boolean;
  /** With JavaScript the buy button opens the dialog; without, it is a link to the item's page. */
  onBuy: (item: ShopCardItem) => void;
}

export function ItemCard({ item, serverNow, eager, onBuy }: ItemCardProps) {
  const { now, state } = useLimitedState(item, serverNow);
  const price = fromPrice(item);
  const blocked = state === "upcoming" || state === "unavailable" || !item.is_available;
  const tooltip = state === "upcoming" ? UPCOMING_TOOLTIP : UNAVAILABLE_TOOLTIP;
  const open = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onBuy(item);
  };
  return (
    <article className={`shop-card${state ? ` shop-card--${state}` : ""}`} data-item-id={item.id}>
      <div className="shop-card__picture">
        <img src={item.img} alt="" width={160} height={160} loading={eager ? "eager" : "lazy"} decoding="async" />
      </div>
      <div className="shop-card__badges">
        {state ? <LimitedBadge state={state} /> : null}
        {item.is_one_time ? <span className="badge">Разовый</span> : null}
      </div>
      <h2 className="shop-card__title">
        <Link to={itemHref(item)}>{item.name}</Link>
      </h2>
      <p className="shop-card__category muted">{item.category_name}</p>
      {state ? <Countdown item={item} state={state} now={now} /> : null}
      {item.is_limited ? <QuantityBar item={item} /> : null}
      <div className="shop-card__footer">
        <span className="shop-card__price">
          {price.from ? <span className="muted">от </span> : null}
          <Price price={price.price} discountPrice={price.discountPrice} discount={item.discount} />
        </span>
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
          // A plain link (no client routing needed): with JavaScript the click opens the dialog instead.
          <a href={itemHref(item)} className="button button--small" onClick={open}>
            Купить
          </a>
        )}
      </div>
    </article>
  );
}
