import { kopecksToRubles } from "#core/format/money.ts";
import { type ItemFacts, saleRefusal } from "#core/shop/eligibility.ts";
import type { PageRequest } from "#core/shop/pagination.ts";
import { discounted, durationBasePrice } from "#core/shop/pricing.ts";
import { bestSale, effectiveDiscount, type SaleRule } from "#core/shop/sales.ts";
import { matchesSearch, searchWords } from "#core/shop/search.ts";
import type { ShopCardItem, ShopCategory, ShopItem } from "#core/shop/types.ts";
import type { Deps } from "../../deps.ts";
import { type CatalogSnapshot, catalogSnapshot, type DurationRow, type ItemRow } from "./catalog-snapshot.ts";

// Catalog reads, from the catalog kept in memory under its revision (catalog-snapshot.ts). Rows are
// in kopecks and ms; the pages and the API get rubles and ISO strings, the form players read.

export type { DurationRow, ItemRow };

export interface CatalogFilter {
  serverType?: string;
  categoryId?: number;
}

export function isLimitedRow(row: Pick<ItemRow, "startTime" | "endTime" | "maxQuantity">): boolean {
  return row.startTime != null || row.endTime != null || row.maxQuantity != null;
}

/** Whether the item can be bought at `now`: listed, inside its window, in stock. */
export function isPurchasableRow(row: ItemRow, now: number): boolean {
  return saleRefusal(row, now) === null;
}

/** What the eligibility rule needs to know of an item row, its durations and whether its type has a game server. */
export function itemFacts(row: ItemRow, durations: DurationRow[], hasServer: boolean): ItemFacts {
  return { ...row, hasServer, offeredDays: durations.map((duration) => duration.days) };
}

/**
 * The price in kopecks of buying `row` for `days` (null: one-time or permanent) at `discount` percent:
 * the item's own, or a running sale's when that is larger (effectiveDiscount, decision 113).
 */
export function priceFor(
  row: ItemRow,
  durations: DurationRow[],
  days: number | null,
  discount = row.discount,
): number | null {
  if (days == null) return durations.length === 0 ? discounted(row.price, discount) : null;
  const duration = durations.find((candidate) => candidate.days === days);
  if (!duration || row.isOneTime) return null;
  return discounted(durationBasePrice(days, duration.price, row.price), discount);
}

/** The running sale that takes the most off `row` at `now`, from the catalog's sales. */
export function saleFor(catalog: Pick<CatalogSnapshot, "sales">, row: ItemRow, now: number): SaleRule | null {
  return bestSale(catalog.sales, row, now);
}

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** An item as the API and the item page show it: its card, and what only the item page shows. */
function toShopItem(catalog: CatalogSnapshot, row: ItemRow, now: number): ShopItem {
  return {
    ...toCard(catalog, row, now),
    description: row.description,
    category_id: row.categoryId,
    reload_time: row.reloadTime,
    contents: (catalog.contents.get(row.id) ?? []).map(({ item, img }) => ({ item, img })),
  };
}

/** Durations as the API shows them, shortest first (the snapshot keeps them so): base and discounted rubles. */
function shopDurations(row: ItemRow, discount: number, durations: DurationRow[] = []) {
  return durations.map((duration) => {
    const base = durationBasePrice(duration.days, duration.price, row.price);
    return {
      days: duration.days,
      price: kopecksToRubles(base),
      discount_price: kopecksToRubles(discounted(base, discount)),
    };
  });
}

// What a shop card shows, and nothing else: no description, kit contents or commands.
function toCard(catalog: CatalogSnapshot, row: ItemRow, now: number): ShopCardItem {
  const sale = saleFor(catalog, row, now);
  const served = catalog.servedTypes.has(row.serverType);
  const discount = effectiveDiscount(row.discount, sale);
  return {
    id: row.id,
    name: row.name,
    price: kopecksToRubles(row.price),
    discount,
    discount_price: kopecksToRubles(discounted(row.price, discount)),
    // Named only while it is what prices the item (a larger own discount wins, decision 113).
    sale:
      sale && sale.percent > row.discount
        ? { title: sale.title, percent: sale.percent, ends_at: iso(sale.endsAt) ?? "" }
        : null,
    img: row.img,
    server_type: row.serverType,
    category_name: catalog.categoryNames.get(row.categoryId) ?? "",
    is_one_time: row.isOneTime,
    is_limited: isLimitedRow(row),
    // Not sold while its type has no game server (decision 122): listed, but not for sale for now.
    is_available: served && isPurchasableRow(row, now),
    no_server: !served,
    durations: shopDurations(row, discount, catalog.durations.get(row.id)),
    start_time: iso(row.startTime),
    end_time: iso(row.endTime),
    max_quantity: row.maxQuantity,
    sold_quantity: row.soldQuantity,
  };
}

/** The listed items of a server type and category (either may be absent), in the catalogue's order. */
function listedOf(catalog: CatalogSnapshot, filter: CatalogFilter): ItemRow[] {
  const ofType = filter.serverType ? (catalog.byServerType.get(filter.serverType) ?? []) : catalog.listed;
  return filter.categoryId ? ofType.filter((row) => row.categoryId === filter.categoryId) : ofType;
}

/** The rows whose texts contain `query`, case folded (SQLite's LIKE folds no Cyrillic, so it is done here). */
/** The rows every word of `query` finds (each must begin a word of the item's texts; decision 108). */
function searched(catalog: CatalogSnapshot, rows: ItemRow[], query: string): ItemRow[] {
  const words = searchWords(query);
  return rows.filter((row) => matchesSearch(catalog.searchText.get(row.id) ?? "", words));
}

function pageOf<T>(rows: T[], page: PageRequest): T[] {
  const offset = (page.page - 1) * page.perPage;
  return rows.slice(offset, offset + page.perPage);
}

/** One page of a list and how many rows the whole list has. */
export interface PageOf<T> {
  items: T[];
  total: number;
}

/** One page of the listed items matching `filter`, in catalogue order, with durations and kit contents, and their count. */
export async function listItemsPage(
  deps: Pick<Deps, "db" | "now">,
  filter: CatalogFilter,
  page: PageRequest,
): Promise<PageOf<ShopItem>> {
  const catalog = await catalogSnapshot(deps);
  const now = deps.now().getTime();
  const rows = listedOf(catalog, filter);
  return { total: rows.length, items: pageOf(rows, page).map((row) => toShopItem(catalog, row, now)) };
}

/**
 * What the shop page shows: the categories and one page of cards of a server type (and category),
 * searched or not, with the count of all matching items.
 */
export async function shopPageCatalog(
  deps: Pick<Deps, "db" | "now">,
  filter: CatalogFilter,
  query: string | null,
  page: PageRequest,
): Promise<PageOf<ShopCardItem> & { categories: ShopCategory[] }> {
  const catalog = await catalogSnapshot(deps);
  const now = deps.now().getTime();
  const listed = listedOf(catalog, filter);
  const rows = query == null ? listed : searched(catalog, listed, query);
  return {
    total: rows.length,
    items: pageOf(rows, page).map((row) => toCard(catalog, row, now)),
    categories: categoriesOf(catalog, filter.serverType),
  };
}

/** The categories that have listed items of `serverType` (every category when no type is given). */
function categoriesOf(catalog: CatalogSnapshot, serverType: string | undefined): ShopCategory[] {
  if (!serverType) return catalog.categories;
  const used = new Set((catalog.byServerType.get(serverType) ?? []).map((row) => row.categoryId));
  return catalog.categories.filter((category) => used.has(category.id));
}

/** One listed item with its category's name, durations and kit contents. */
export async function getItem(deps: Pick<Deps, "db" | "now">, id: number): Promise<ShopItem | null> {
  const catalog = await catalogSnapshot(deps);
  const row = catalog.byId.get(id);
  return row ? toShopItem(catalog, row, deps.now().getTime()) : null;
}

/** Case-insensitive search in names, descriptions, category names and kit contents. */
export async function searchItems(
  deps: Pick<Deps, "db" | "now">,
  query: string,
  filter: CatalogFilter = {},
): Promise<ShopItem[]> {
  const catalog = await catalogSnapshot(deps);
  const now = deps.now().getTime();
  return searched(catalog, listedOf(catalog, filter), query).map((row) => toShopItem(catalog, row, now));
}

export interface LimitedList {
  items: ShopItem[];
  upcoming_items: ShopItem[];
  next_offer_time: string | null;
}

/** Limited offers: those whose window is open (sold out included), the upcoming ones, and when the next one starts. */
export async function listLimited(
  deps: Pick<Deps, "db" | "now">,
  filter: CatalogFilter & { includeUpcoming?: boolean } = {},
): Promise<LimitedList> {
  const catalog = await catalogSnapshot(deps);
  const now = deps.now().getTime();
  const limited = listedOf(catalog, filter).filter(isLimitedRow);
  const started = (row: ItemRow) => row.startTime == null || row.startTime <= now;
  const notEnded = (row: ItemRow) => row.endTime == null || row.endTime > now;
  const upcoming = limited.filter((row) => !started(row));
  const next = upcoming.map((row) => row.startTime ?? 0).toSorted((a, b) => a - b)[0];
  return {
    items: limited.filter((row) => started(row) && notEnded(row)).map((row) => toShopItem(catalog, row, now)),
    upcoming_items: filter.includeUpcoming ? upcoming.map((row) => toShopItem(catalog, row, now)) : [],
    next_offer_time: next == null ? null : new Date(next).toISOString(),
  };
}

export async function listCategories(deps: Pick<Deps, "db" | "now">): Promise<ShopCategory[]> {
  return (await catalogSnapshot(deps)).categories;
}
