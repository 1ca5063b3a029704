// Sales (issue 23, decision 113): a percent off for a period, for the whole store or some categories
// and server types. One rule, here for the pages and written again in the purchase's SQL guard
// (worker/services/shop/purchase.ts); tests/sale-parity.test.ts keeps the two in agreement.

/** The most a sale (dated or at each wipe) takes off; the database's checks hold the same bound. */
export const MAX_SALE_PERCENT = 90;
/** The longest window of a wipe sale, in hours (decision 144). */
export const MAX_WIPE_SALE_HOURS = 72;

export interface SaleRule {
  id: number;
  title: string;
  /** 1 to MAX_SALE_PERCENT. */
  percent: number;
  /** ms since the epoch; the sale runs from startsAt (inclusive) to endsAt (exclusive). */
  startsAt: number;
  endsAt: number;
  /** null: every category / every server type. */
  categoryIds: number[] | null;
  serverTypes: string[] | null;
  /** Set when an operator ended it early: it runs no more. */
  cancelledAt: number | null;
}

export type SaleState = "planned" | "running" | "ended" | "cancelled";

export function saleState(sale: Pick<SaleRule, "startsAt" | "endsAt" | "cancelledAt">, now: number): SaleState {
  if (sale.cancelledAt !== null) return "cancelled";
  if (now < sale.startsAt) return "planned";
  return now < sale.endsAt ? "running" : "ended";
}

/** Whether `sale` takes money off `item` at `now`. */
export function saleApplies(sale: SaleRule, item: { categoryId: number; serverType: string }, now: number): boolean {
  return (
    saleState(sale, now) === "running" &&
    (sale.categoryIds === null || sale.categoryIds.includes(item.categoryId)) &&
    (sale.serverTypes === null || sale.serverTypes.includes(item.serverType))
  );
}

/** The running sale that takes the most off `item`: the highest percent, the oldest sale on a tie. */
export function bestSale(
  sales: readonly SaleRule[],
  item: { categoryId: number; serverType: string },
  now: number,
): SaleRule | null {
  let best: SaleRule | null = null;
  for (const sale of sales) {
    if (!saleApplies(sale, item, now)) continue;
    if (!best || sale.percent > best.percent || (sale.percent === best.percent && sale.id < best.id)) best = sale;
  }
  return best;
}

/**
 * The percent an item is sold at: its own discount (a limited offer's) or the sale's, whichever is
 * larger, so the lower price wins. Sales and discounts never add up.
 */
export function effectiveDiscount(itemDiscount: number, sale: Pick<SaleRule, "percent"> | null): number {
  return Math.max(itemDiscount, sale?.percent ?? 0);
}

/** The sale that set the price, when it did (it beat the item's own discount): recorded on the purchase. */
export function pricingSale<T extends Pick<SaleRule, "percent">>(itemDiscount: number, sale: T | null): T | null {
  return sale && sale.percent > itemDiscount ? sale : null;
}
