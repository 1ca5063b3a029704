import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { signInHref } from "#core/auth/sign-in.ts";
import { formatRubles } from "#core/format/money.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import { INSUFFICIENT_FUNDS, isInsufficientFunds } from "#core/messages/shop.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import type { PurchaseActionData } from "../../routes/shop.item.tsx";
import { SiteLink } from "../site-link.tsx";
import { DurationPicker } from "./duration-picker.tsx";

interface BuyDialogProps {
  item: ShopCardItem;
  /** Rubles, or null when signed out. */
  balance: number | null;
  /** Where Steam sign-in returns to. */
  returnTo: string;
  onClose: () => void;
  onPurchased: (item: ShopCardItem) => void;
}

/**
 * The purchase flow: signed out → the sign-in dialog; a one-time item → a
 * confirmation; otherwise a duration choice; then confirm. The form posts to the
 * item page's action (the same one the no-JavaScript form uses), so React Router
 * revalidates the header balance and the shop list afterwards.
 */
export function BuyDialog({ item, balance, returnTo, onClose, onPurchased }: BuyDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<PurchaseActionData>();
  const [days, setDays] = useState<number | null>(null);
  // One key per opened dialog: a double click buys once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const needsDuration = !item.is_one_time && item.durations.length > 0;
  const chosen = needsDuration ? item.durations.find((duration) => duration.days === days) : null;
  const price = needsDuration ? (chosen?.discount_price ?? null) : item.discount_price;
  const shortOfFunds = balance != null && price != null && balance < price;
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  useEffect(() => {
    if (fetcher.state === "idle" && result?.ok) {
      onPurchased(item);
      onClose();
    }
  }, [fetcher.state, result, item, onClose, onPurchased]);

  const serverError = result && !result.ok ? result.error : null;
  const fundsError = shortOfFunds || isInsufficientFunds(result && !result.ok ? result.status : null);

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
      {balance == null ? (
        <div className="buy-dialog__body">
          <h2 id="buy-dialog-title">{AUTH_REQUIRED}</h2>
          <p>Чтобы купить «{item.name}», войдите через Steam.</p>
          <div className="buy-dialog__actions">
            <a className="button button--steam" href={signInHref(returnTo)}>
              Войти через Steam
            </a>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Отмена
            </button>
          </div>
        </div>
      ) : (
        <fetcher.Form method="post" action={`/shop/items/${item.id}`} className="buy-dialog__body">
          <h2 id="buy-dialog-title">{needsDuration ? "Выберите срок" : "Подтверждение покупки"}</h2>
          <p>
            {item.name} · <span className="muted">{serverTypeLabel(item.server_type)}</span>
          </p>
          <input type="hidden" name="server_type" value={item.server_type} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <input type="hidden" name="_js" value="1" />
          {needsDuration ? (
            <DurationPicker durations={item.durations} discount={item.discount} value={days} onChange={setDays} />
          ) : (
            <p>
              Купить «{item.name}» за <strong>{formatRubles(item.discount_price)}</strong>?
            </p>
          )}
          <p className="muted">Ваш баланс: {formatRubles(balance)}</p>
          {fundsError ? (
            <p className="form-error" role="alert">
              {INSUFFICIENT_FUNDS}.{" "}
              <SiteLink to="/balance" className="form-error__link">
                Пополнить баланс
              </SiteLink>
            </p>
          ) : serverError ? (
            <p className="form-error" role="alert">
              {serverError}
            </p>
          ) : null}
          <div className="buy-dialog__actions">
            <button type="submit" className="button" disabled={busy || price == null || shortOfFunds}>
              {busy ? "Покупка…" : price == null ? "Купить" : `Купить за ${formatRubles(price)}`}
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Отмена
            </button>
          </div>
        </fetcher.Form>
      )}
    </dialog>
  );
}
