// The balance statement «Движение средств»: what each ledger movement was, in the player's words.

import { quoted } from "../format/quote.ts";
import { serverTypeLabel } from "../format/server-type.ts";
import { formatTerm } from "../shop/until-wipe.ts";

export const STATEMENT_TEXT = {
  title: "Движение средств",
  empty: "Движений по балансу пока нет",
  loadFailed: "Не удалось загрузить движение средств",
  columns: { date: "Дата", amount: "Сумма", what: "Операция", balance: "Баланс после" },
  total: "Итого на балансе",
} as const;

/** The ledger's kinds (db/schema.ts `ledger.kind`). */
export type LedgerKind = "deposit" | "purchase" | "promo" | "refund" | "refund_debt" | "adjustment" | "return";

/** What a ledger row knows beyond its amount: the joined item, promo code and the operator's note. */
export interface LedgerFacts {
  kind: LedgerKind;
  itemName: string | null;
  serverType: string | null;
  durationDays: number | null;
  promoCode: string | null;
  note: string | null;
  /** Set on a refund of a purchase; a refund without one is the bank's refund of a top-up. */
  purchaseId: number | null;
  /** A gift's friend (issue 24); absent or null for one's own purchase. */
  giftTo?: string | null;
}

function purchaseLabel(facts: LedgerFacts): string {
  const name = facts.itemName ? quoted(facts.itemName) : "товара";
  const details = [
    facts.serverType ? serverTypeLabel(facts.serverType) : null,
    facts.durationDays != null ? formatTerm(facts.durationDays) : null,
  ].filter(Boolean);
  return details.length > 0 ? `${name} (${details.join(", ")})` : name;
}

/** «Пополнение картой», «Покупка «VIP» (SOLO, 7 дней)», «Промокод WELCOME100», «Возврат покупки …: причина». */
export function statementDescription(facts: LedgerFacts): string {
  const reason = facts.note?.trim() ? `: ${facts.note.trim()}` : "";
  switch (facts.kind) {
    case "deposit":
      return "Пополнение картой";
    case "promo":
      return facts.promoCode ? `Промокод ${facts.promoCode}` : "Промокод";
    case "purchase":
      return facts.giftTo ? `Подарок ${purchaseLabel(facts)} для ${facts.giftTo}` : `Покупка ${purchaseLabel(facts)}`;
    case "refund":
      return facts.purchaseId !== null
        ? `Возврат покупки ${purchaseLabel(facts)}${reason}`
        : "Возврат пополнения банком";
    case "return":
      // A gift taken back is a cancelled gift, and says to whom (issue 46).
      return facts.giftTo
        ? `Отмена подарка ${purchaseLabel(facts)} для ${facts.giftTo} до выдачи`
        : `Возврат покупки ${purchaseLabel(facts)} до выдачи`;
    case "refund_debt":
      return "Погашение долга после возврата пополнения";
    case "adjustment":
      return `Корректировка баланса${reason}`;
    default:
      return "Операция по балансу";
  }
}
