import { formatRubles } from "#core/format/money.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { GIFT_FORM, giftReceiptHint } from "#core/messages/gift-notes.ts";
import { connectText, deliveryHint, RECEIPT } from "#core/messages/shop.ts";
import type { PurchaseReceipt } from "#core/profile/types.ts";
import { type ServerAddress, steamConnectHref } from "#core/shop/types.ts";
import { SiteLink } from "../site-link.tsx";

export interface ReceiptProps {
  itemName: string;
  isOneTime: boolean;
  purchase: Pick<PurchaseReceipt, "server_type" | "duration_text" | "price">;
  /** Rubles right after the purchase; null when it moved no money (the row is left out). */
  balance: number | null;
  servers: ServerAddress[];
  /** The heading's id, for a dialog that names itself by it. */
  titleId?: string;
  /** A gift's friend, by name (issue 24). */
  giftTo?: string | null;
  /** The delivery hint while a fair-play window holds the item back (issue 46), instead of «он придёт автоматически». */
  waits?: string | null;
}

/**
 * What the player bought, for which server type, for how much, what is left, and where to go next: a
 * panel that stays until the player moves on (the item page after a purchase, the buy dialog's last step).
 */
export function Receipt({
  itemName,
  isOneTime,
  purchase,
  balance,
  servers,
  titleId = "receipt-title",
  giftTo = null,
  waits = null,
}: ReceiptProps) {
  const type = serverTypeLabel(purchase.server_type);
  return (
    <section className="receipt" aria-labelledby={titleId} data-testid="receipt">
      <h2 id={titleId} className="receipt__title">
        {RECEIPT.title}
      </h2>
      <dl className="receipt__facts">
        <dt>{RECEIPT.item}</dt>
        <dd>{itemName}</dd>
        <dt>{RECEIPT.duration}</dt>
        <dd>{isOneTime ? RECEIPT.oneTime : purchase.duration_text}</dd>
        <dt>{RECEIPT.serverType}</dt>
        <dd data-testid="receipt-server-type">{type}</dd>
        <dt>{RECEIPT.price}</dt>
        <dd>{formatRubles(purchase.price)}</dd>
        {balance != null ? (
          <>
            <dt>{RECEIPT.balance}</dt>
            <dd>{formatRubles(balance)}</dd>
          </>
        ) : null}
        {giftTo ? (
          <>
            <dt>{GIFT_FORM.receiptRecipient}</dt>
            <dd>{giftTo}</dd>
          </>
        ) : null}
      </dl>
      <p className="receipt__hint">{giftTo ? giftReceiptHint(type) : (waits ?? deliveryHint(type))}</p>
      {!giftTo && servers.length > 0 ? (
        <ul className="receipt__servers">
          {servers.map((server) => (
            <li key={server.ip_port}>
              <a className="button button--small button--ghost" href={steamConnectHref(server.ip_port)}>
                {connectText(server.name)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="receipt__links">
        {giftTo ? (
          <SiteLink to="/purchases" className="button button--small">
            {GIFT_FORM.follow}
          </SiteLink>
        ) : (
          <SiteLink to="/profile" className="button button--small">
            {RECEIPT.toInventory}
          </SiteLink>
        )}
        <SiteLink to="/#servers" className="button button--small button--ghost">
          {RECEIPT.allServers}
        </SiteLink>
      </p>
    </section>
  );
}
