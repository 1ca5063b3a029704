import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { signInHref } from "#core/auth/sign-in.ts";
import { formatRubles } from "#core/format/money.ts";
import { quoted } from "#core/format/quote.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { GIFT_FORM } from "#core/messages/gift-notes.ts";
import {
  INSUFFICIENT_FUNDS,
  isInsufficientFunds,
  RECEIPT,
  SIGN_IN_TO_BUY,
  shortOfText,
  topUpByText,
} from "#core/messages/shop.ts";
import { itemReturnPath, missingRubles, topUpAmountFor, topUpHref } from "#core/payments/top-up-link.ts";
import type { PurchaseActionData, ShopCardItem } from "#core/shop/types.ts";
import { formatTerm, isUntilWipe, type UntilWipeOffer } from "#core/shop/until-wipe.ts";
import { SiteLink } from "../site-link.tsx";
import { DurationPicker, UntilWipeEnds } from "./duration-picker.tsx";
import { Price } from "./price.tsx";
import { Receipt } from "./receipt.tsx";
import { SaleEnds } from "./sale-sticker.tsx";

interface BuyDialogProps {
  item: ShopCardItem;
  /** Rubles, or null when signed out. */
  balance: number | null;
  /** Where Steam sign-in returns to. */
  returnTo: string;
  onClose: () => void;
  onPurchased: (item: ShopCardItem) => void;
  /** When «до вайпа» ends for the page's server type (decision 139). */
  untilWipe?: UntilWipeOffer | null;
}

/** «Для сервера MAX2»: the type a purchase is for, in the selector's words. */
export function ServerTypeNote({ serverType }: { serverType: string }) {
  return (
    <p className="server-type-note">
      Для сервера <strong data-testid="buy-server-type">{serverTypeLabel(serverType)}</strong>
    </p>
  );
}

/** «Недостаточно средств на балансе: не хватает 93 ₽. Пополнить на 93 ₽» (the link comes back to the item). */
export function ShortOfFunds({ missing, returnTo }: { missing: number; returnTo: string }) {
  const amount = topUpAmountFor(missing);
  return (
    <p className="form-error" role="alert">
      {INSUFFICIENT_FUNDS}: {shortOfText(missing)}.{" "}
      <SiteLink to={topUpHref(amount, returnTo)} className="form-error__link">
        {topUpByText(amount)}
      </SiteLink>
    </p>
  );
}

/**
 * The purchase flow: signed out → the prices and a sign-in button; a one-time item → a
 * confirmation; otherwise a duration choice; then confirm, then the receipt, which stays until the
 * player closes it. The form posts to the item page's action (the same one the no-JavaScript form
 * uses), so React Router revalidates the header balance and the shop list afterwards.
 */
export function BuyDialog({ item, balance, returnTo, onClose, onPurchased, untilWipe = null }: BuyDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<PurchaseActionData>();
  const [days, setDays] = useState<number | null>(null);
  // One key per opened dialog: a double click buys once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const needsDuration = !item.is_one_time && item.durations.length > 0;
  const chosen = needsDuration ? item.durations.find((duration) => duration.days === days) : null;
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  const done = fetcher.state === "idle" && result?.ok === true ? result : null;
  // A 409 for a changed price carries the new one for these terms: shown, and confirmed by the next click.
  const repriced =
    result && !result.ok && result.price != null && (result.duration ?? null) === (needsDuration ? days : null)
      ? result.price
      : null;
  const price = repriced ?? (needsDuration ? (chosen?.discount_price ?? null) : item.discount_price);
  const missing = balance != null && price != null ? missingRubles(price, balance) : 0;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  useEffect(() => {
    if (done) onPurchased(item);
  }, [done, item, onPurchased]);

  const serverError = result && !result.ok ? result : null;
  // The server may know better (the balance moved in another tab): its 402 says how much is missing.
  const shortBy = missing > 0 ? missing : isInsufficientFunds(serverError?.status) ? (serverError?.missing ?? 0) : 0;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes a modal <dialog> natively
    <dialog
      ref={dialog}
      className="buy-dialog"
      aria-labelledby="buy-dialog-title"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
    >
      {done ? (
        <div className="buy-dialog__body">
          <Receipt
            titleId="buy-dialog-title"
            itemName={item.name}
            isOneTime={item.is_one_time}
            purchase={done.purchase}
            balance={done.balance}
            servers={done.servers}
            waits={done.waits ?? null}
          />
          <div className="buy-dialog__actions">
            <button type="button" className="button button--ghost" onClick={onClose}>
              {RECEIPT.close}
            </button>
          </div>
        </div>
      ) : balance == null ? (
        <div className="buy-dialog__body">
          <h2 id="buy-dialog-title">{item.name}</h2>
          <ServerTypeNote serverType={item.server_type} />
          <SaleEnds sale={item.sale} />
          <GuestPrices item={item} untilWipe={untilWipe} />
          <div className="buy-dialog__actions">
            <a className="button button--steam" href={signInHref(returnTo)}>
              {SIGN_IN_TO_BUY}
            </a>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Отмена
            </button>
          </div>
        </div>
      ) : (
        <fetcher.Form method="post" action={`/shop/items/${item.id}`} className="buy-dialog__body">
          <h2 id="buy-dialog-title">{needsDuration ? "Выберите срок" : "Подтверждение покупки"}</h2>
          <p className="buy-dialog__item">{item.name}</p>
          <ServerTypeNote serverType={item.server_type} />
          <SaleEnds sale={item.sale} />
          <input type="hidden" name="server_type" value={item.server_type} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <input type="hidden" name="_js" value="1" />
          {price != null ? <input type="hidden" name="expected_price" value={price} /> : null}
          {needsDuration ? (
            <DurationPicker
              durations={item.durations}
              discount={item.discount}
              value={days}
              onChange={setDays}
              untilWipe={untilWipe}
            />
          ) : (
            <p>
              Купить {quoted(item.name)} за <strong>{formatRubles(price ?? item.discount_price)}</strong>?
            </p>
          )}
          <p className="muted">Ваш баланс: {formatRubles(balance)}</p>
          {shortBy > 0 ? (
            <ShortOfFunds missing={shortBy} returnTo={itemReturnPath(item.id, chosen?.days)} />
          ) : serverError ? (
            <p className="form-error" role="alert">
              {serverError.error}
            </p>
          ) : null}
          <div className="buy-dialog__actions">
            <button type="submit" className="button" disabled={busy || price == null || missing > 0}>
              {busy ? "Покупка…" : price == null ? "Купить" : `Купить за ${formatRubles(price)}`}
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Отмена
            </button>
          </div>
          {/* The friend is looked up and shown on the item's page, with or without JavaScript (issue 24). */}
          <a
            className="buy-dialog__gift"
            href={`/shop/items/${item.id}?server_type=${encodeURIComponent(item.server_type)}${days != null ? `&duration=${days}` : ""}&gift=1`}
          >
            {GIFT_FORM.toggle} →
          </a>
        </fetcher.Form>
      )}
    </dialog>
  );
}

/** A signed-out visitor's view of what the item costs: each duration's price, or the one price. */
export function GuestPrices({
  item,
  untilWipe = null,
}: {
  item: Pick<ShopCardItem, "is_one_time" | "durations" | "price" | "discount_price" | "discount">;
  untilWipe?: UntilWipeOffer | null;
}) {
  const needsDuration = !item.is_one_time && item.durations.length > 0;
  if (!needsDuration) {
    return (
      <p className="shop-item__price">
        <Price price={item.price} discountPrice={item.discount_price} discount={item.discount} />
      </p>
    );
  }
  return (
    <ul className="guest-prices" aria-label="Сроки и цены">
      {item.durations.map((duration) => (
        <li key={duration.days} className="guest-prices__row">
          <span>{formatTerm(duration.days)}</span>
          <Price price={duration.price} discountPrice={duration.discount_price} discount={item.discount} />
          {untilWipe && isUntilWipe(duration.days) ? <UntilWipeEnds offer={untilWipe} /> : null}
        </li>
      ))}
    </ul>
  );
}
