import { formatDate } from "#core/format/dates.ts";
import { formatRubles } from "#core/format/money.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { giftProgressText, giftStatusLabel, giftToText } from "#core/messages/gift-notes.ts";
import { inventoryState } from "#core/profile/inventory-state.ts";
import type { PurchaseView } from "#core/profile/types.ts";
import { giftTone, PURCHASE_STATUS_LABEL, statusTone } from "./labels.ts";
import { ReturnForm } from "./return-form.tsx";
import { focusOnMount } from "./use-more-pages.ts";

/** `now` is the loader's clock, so a gift's state reads the same on the server and after hydration. */
export function PurchaseTable({
  purchases,
  now,
  focusId = null,
}: {
  purchases: PurchaseView[];
  now: string;
  /** The first purchase of a page just appended (decision 156): focus moves to it. */
  focusId?: number | null;
}) {
  if (purchases.length === 0) return <p className="profile-empty">История покупок пуста</p>;
  return (
    <table className="history-table">
      <thead>
        <tr>
          <th scope="col">Дата</th>
          <th scope="col">Предмет</th>
          <th scope="col">Сервер</th>
          <th scope="col">Срок</th>
          <th scope="col">Цена</th>
          <th scope="col">Статус</th>
          <th scope="col">Транзакция</th>
        </tr>
      </thead>
      <tbody>
        {purchases.map((purchase) => (
          <tr
            key={purchase.id}
            data-testid="purchase-row"
            {...(purchase.id === focusId ? { tabIndex: -1, ref: focusOnMount } : {})}
          >
            <td data-label="Дата">{formatDate(purchase.paid_at ?? purchase.created_at)}</td>
            <td data-label="Предмет">
              <div className="purchase-item">
                {purchase.item_name}
                {purchase.gift_to ? " " : null}
                {purchase.gift_to ? <span className="purchase-gift">{giftToText(purchase.gift_to)}</span> : null}
                {purchase.gift ? <GiftProgressNote purchase={purchase} now={now} /> : null}
              </div>
            </td>
            <td data-label="Сервер">{serverTypeLabel(purchase.server_type)}</td>
            <td data-label="Срок">{purchase.duration_text}</td>
            <td data-label="Цена">{formatRubles(purchase.price)}</td>
            <td data-label="Статус">
              <PurchaseStatus purchase={purchase} now={now} />
            </td>
            <td data-label="Транзакция" className="history-table__id">
              {purchase.transaction_id}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A purchase's status badge; a gift's says where the gift is (issue 46). */
function PurchaseStatus({ purchase, now }: { purchase: PurchaseView; now: string }) {
  if (purchase.gift && (purchase.status === "completed" || purchase.status === "returned")) {
    const state = inventoryState(purchase.gift, now);
    return <span className={`profile-badge profile-badge--${giftTone(state)}`}>{giftStatusLabel(state)}</span>;
  }
  return (
    <span className={`profile-badge profile-badge--${statusTone(purchase.status)}`}>
      {PURCHASE_STATUS_LABEL[purchase.status] ?? purchase.status}
    </span>
  );
}

/** Where a gift is in the friend's Корзина, and «Вернуть» while the buyer may still take it back (issue 36). */
function GiftProgressNote({ purchase, now }: { purchase: PurchaseView; now: string }) {
  const gift = purchase.gift;
  if (!gift) return null;
  const state = inventoryState(gift, now);
  const date = formatDate(state === "received" ? gift.used_at : gift.expires_at);
  return (
    <>
      <span className="purchase-gift__progress" data-testid="gift-progress">
        {giftProgressText(state, serverTypeLabel(purchase.server_type), date)}
      </span>
      <ReturnForm
        entry={{
          purchase_id: purchase.id,
          item_name: purchase.item_name,
          price: purchase.price,
          return_until: gift.return_until,
          returnable: gift.returnable,
          gift_to: purchase.gift_to,
        }}
      />
    </>
  );
}
