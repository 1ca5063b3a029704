import { useEffect, useState } from "react";
import { LIMITED_BADGES, SOLD_OUT } from "#core/messages/shop.ts";
import {
  countdownTarget,
  formatCountdown,
  type LimitedFields,
  type LimitedState,
  limitedState,
  quantityInfo,
} from "#core/shop/limited.ts";

/**
 * The current time, ticking every second once hydrated. The first render uses the
 * server's clock so the hydrated markup matches the server-rendered one.
 */
export function useNow(serverNow: number, ticking: boolean): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [ticking]);
  return now;
}

/** The offer's badge; a sold-out one says «Распродано», an ended one «Товар недоступен». */
export function LimitedBadge({
  state,
  item,
}: {
  state: LimitedState;
  item: Pick<LimitedFields, "max_quantity" | "sold_quantity">;
}) {
  const soldOut = state === "unavailable" && item.max_quantity != null && item.sold_quantity >= item.max_quantity;
  return <span className={`badge badge--${state}`}>{soldOut ? SOLD_OUT : LIMITED_BADGES[state]}</span>;
}

export function Countdown({ item, state, now }: { item: LimitedFields; state: LimitedState; now: number }) {
  const target = countdownTarget(item, state);
  if (target == null) return null;
  return (
    <p className="countdown">
      {state === "upcoming" ? "До начала: " : "До конца: "}
      <time dateTime={new Date(target).toISOString()}>{formatCountdown(target - now)}</time>
    </p>
  );
}

export function QuantityBar({ item }: { item: LimitedFields }) {
  const info = quantityInfo(item);
  if (!info) return null;
  return (
    <div className="quantity">
      <div
        className="quantity__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={info.percent}
        aria-label="Осталось"
      >
        {/* An SVG width, not a style attribute: the Content-Security-Policy allows no inline styles. */}
        <svg viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true" focusable="false">
          <rect width={info.percent} height="1" />
        </svg>
      </div>
      <p className="quantity__label">
        <span>Осталось {info.percent}%</span>
        <span>{info.label}</span>
      </p>
    </div>
  );
}

export function useLimitedState(item: LimitedFields, serverNow: number) {
  const now = useNow(serverNow, item.is_limited);
  return { now, state: limitedState(item, now) };
}
