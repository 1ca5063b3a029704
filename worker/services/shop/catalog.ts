import { and, asc, count, eq, getTableColumns, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { type ItemFacts, saleRefusal } from "#core/shop/eligibility.ts";
import type { PageRequest } from "#core/shop/pagination.ts";
import { discounted, durationBasePrice } from "#core/shop/pricing.ts";
import type { ShopCardItem, ShopCategory, ShopItem } from "#core/shop/types.ts";
import { categories, itemContents, itemDurations, items } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";

// Catalog reads. Rows come out of D1 in kopecks and ms; the API shapes them in
// rubles and ISO strings, the form the pages and API clients read.

export type ItemRow = typeof items.$inferSelect;
export type DurationRow = typeof itemDurations.$inferSelect;

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

/** What the eligibility rule needs to know of an item row and its durations. */
export function itemFacts(row: ItemRow, durations: DurationRow[]): ItemFacts {
  return { ...row, offeredDays: durations.map((duration) => duration.days) };
}

/** The price in kopecks of buying `row` for `days` (null: one-time or permanent), discount applied. */
export function priceFor(row: ItemRow, durations: DurationRow[], days: number | null): number | null {
  if (days == null) return durations.length === 0 ? discounted(row.price, row.discount) : null;
  const duration = durations.find((candidate) => candidate.days === days);
  if (!duration || row.isOneTime) return null;
  return discounted(durationBasePrice(days, duration.price, row.price), row.discount);
}

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

function toShopItem(
  row: ItemRow,
  categoryName: string,
  durations: DurationRow[],
  contents: { item: string; img: string }[],
  now: number,
): ShopItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: kopecksToRubles(row.price),
    discount: row.discount,
    discount_price: kopecksToRubles(discounted(row.price, row.discount)),
    img: row.img,
    server_type: row.serverType,
    category_id: row.categoryId,
    category_name: categoryName,
    is_one_time: row.isOneTime,
    is_limited: isLimitedRow(row),
    is_available: isPurchasableRow(row, now),
    reload_time: row.reloadTime,
    durations: durations
      .toSorted((a, b) => a.days - b.days)
      .map((duration) => {
        const base = durationBasePrice(duration.days, duration.price, row.price);
        return {
          days: duration.days,
          price: kopecksToRubles(base),
          discount_price: kopecksToRubles(discounted(base, row.discount)),
        };
      }),
    contents,
    start_time: iso(row.startTime),
    end_time: iso(row.endTime),
    max_quantity: row.maxQuantity,
    sold_quantity: row.soldQuantity,
  };
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

const categoryColumns = { id: categories.id, name: categories.name, description: categories.description };

/**
 * The items matching `where`, their durations and contents, and the category list,
 * in ONE D1 round trip (a batch of read statements).
 */
async function loadCatalog(
  deps: Pick<Deps, "db" | "now">,
  where: SQL | undefined,
): Promise<{ items: ShopItem[]; categories: ShopCategory[] }> {
  const listed = and(eq(items.isAvailable, true), where);
  const ids = deps.db.orm.select({ id: items.id }).from(items).where(listed);
  const [rows, durations, contents, categoryRows] = await deps.db.orm.batch([
    // No join: in a D1 batch drizzle maps rows by column name, and items and categories share names.
    deps.db.orm.select().from(items).where(listed).orderBy(asc(items.sortOrder), asc(items.id)),
    deps.db.orm.select().from(itemDurations).where(inArray(itemDurations.itemId, ids)),
    deps.db.orm
      .select({ itemId: itemContents.itemId, item: itemContents.item, img: itemContents.img })
      .from(itemContents)
      .where(inArray(itemContents.itemId, ids))
      .orderBy(asc(itemContents.sortOrder), asc(itemContents.id)),
    // A handful of rows; read every time so the page needs no second round trip.
    deps.db.orm.select(categoryColumns).from(categories).orderBy(asc(categories.sortOrder), asc(categories.id)),
  ]);
  const now = deps.now().getTime();
  const durationsOf = groupBy(durations, (duration) => duration.itemId);
  const contentsOf = groupBy(contents, (content) => content.itemId);
  const categoryIndex = new Map(categoryRows.map((category, index) => [category.id, index]));
  const rank = (item: ItemRow) => categoryIndex.get(item.categoryId) ?? Number.MAX_SAFE_INTEGER;
  return {
    items: rows
      .toSorted((a, b) => rank(a) - rank(b))
      .map((item) =>
        toShopItem(
          item,
          categoryRows[rank(item)]?.name ?? "",
          durationsOf.get(item.id) ?? [],
          (contentsOf.get(item.id) ?? []).map(({ item: name, img }) => ({ item: name, img })),
          now,
        ),
      ),
    categories: categoryRows,
  };
}

async function loadItems(deps: Pick<Deps, "db" | "now">, where: SQL | undefined): Promise<ShopItem[]> {
  return (await loadCatalog(deps, where)).items;
}

function filterWhere(filter: CatalogFilter): SQL | undefined {
  return and(
    filter.serverType ? eq(items.serverType, filter.serverType) : undefined,
    filter.categoryId ? eq(items.categoryId, filter.categoryId) : undefined,
  );
}

export function listItems(deps: Pick<Deps, "db" | "now">, filter: CatalogFilter = {}): Promise<ShopItem[]> {
  return loadItems(deps, filterWhere(filter));
}

/** One page of a list and how many rows the whole list has. */
export interface PageOf<T> {
  items: T[];
  total: number;
}

// The catalogue's order everywhere: by category, then the item's own order.
const catalogOrder = [asc(categories.sortOrder), asc(categories.id), asc(items.sortOrder), asc(items.id)];
// Aliased: in a D1 batch drizzle maps rows by column name, and items and categories share names.
const categoryName = sql<string>`${categories.name}`.as("category_name");

const offsetOf = (page: PageRequest) => (page.page - 1) * page.perPage;

/** The ids of one page of the listed items matching `listed`, in catalogue order: a subquery. */
function pageIdsOf(deps: Pick<Deps, "db">, listed: SQL | undefined, page: PageRequest) {
  return deps.db.orm
    .select({ id: items.id })
    .from(items)
    .innerJoin(categories, eq(categories.id, items.categoryId))
    .where(listed)
    .orderBy(...catalogOrder)
    .limit(page.perPage)
    .offset(offsetOf(page));
}

/**
 * One page of the listed items matching `filter`, in catalogue order, with durations and kit contents,
 * and the count of all of them: one round trip, reading only the page's rows.
 */
export async function listItemsPage(
  deps: Pick<Deps, "db" | "now">,
  filter: CatalogFilter,
  page: PageRequest,
): Promise<PageOf<ShopItem>> {
  const listed = and(eq(items.isAvailable, true), filterWhere(filter));
  const { orm } = deps.db;
  const pageIds = pageIdsOf(deps, listed, page);
  const [[counted], rows, durations, contents] = await orm.batch([
    orm.select({ total: count() }).from(items).where(listed),
    orm
      .select({ item: getTableColumns(items), categoryName })
      .from(items)
      .innerJoin(categories, eq(categories.id, items.categoryId))
      .where(listed)
      .orderBy(...catalogOrder)
      .limit(page.perPage)
      .offset(offsetOf(page)),
    orm.select().from(itemDurations).where(inArray(itemDurations.itemId, pageIds)),
    orm
      .select({ itemId: itemContents.itemId, item: itemContents.item, img: itemContents.img })
      .from(itemContents)
      .where(inArray(itemContents.itemId, pageIds))
      .orderBy(asc(itemContents.sortOrder), asc(itemContents.id)),
  ]);
  const now = deps.now().getTime();
  const durationsOf = groupBy(durations, (duration) => duration.itemId);
  const contentsOf = groupBy(contents, (content) => content.itemId);
  return {
    total: counted?.total ?? 0,
    items: rows.map(({ item, categoryName: name }) =>
      toShopItem(
        item,
        name,
        durationsOf.get(item.id) ?? [],
        (contentsOf.get(item.id) ?? []).map(({ item: content, img }) => ({ item: content, img })),
        now,
      ),
    ),
  };
}

// What a shop card shows, and nothing else: no description, kit contents or commands.
const cardColumns = {
  id: items.id,
  name: items.name,
  price: items.price,
  discount: items.discount,
  img: items.img,
  serverType: items.serverType,
  isOneTime: items.isOneTime,
  isAvailable: items.isAvailable,
  startTime: items.startTime,
  endTime: items.endTime,
  maxQuantity: items.maxQuantity,
  soldQuantity: items.soldQuantity,
  categoryName,
};
type CardRow = Pick<ItemRow, Exclude<keyof typeof cardColumns, "categoryName">> & { categoryName: string };
type CardDuration = Pick<DurationRow, "itemId" | "days" | "price">;
const durationColumns = { itemId: itemDurations.itemId, days: itemDurations.days, price: itemDurations.price };

function toCard(row: CardRow, durations: CardDuration[], now: number): ShopCardItem {
  const price = discounted(row.price, row.discount);
  return {
    id: row.id,
    name: row.name,
    price: kopecksToRubles(row.price),
    discount: row.discount,
    discount_price: kopecksToRubles(price),
    img: row.img,
    server_type: row.serverType,
    category_name: row.categoryName,
    is_one_time: row.isOneTime,
    is_limited: isLimitedRow(row),
    is_available: saleRefusal(row, now) === null,
    durations: durations
      .toSorted((a, b) => a.days - b.days)
      .map((duration) => {
        const base = durationBasePrice(duration.days, duration.price, row.price);
        return {
          days: duration.days,
          price: kopecksToRubles(base),
          discount_price: kopecksToRubles(discounted(base, row.discount)),
        };
      }),
    start_time: iso(row.startTime),
    end_time: iso(row.endTime),
    max_quantity: row.maxQuantity,
    sold_quantity: row.soldQuantity,
  };
}

/**
 * What the shop page shows: the categories and one page of cards of a server type (and category),
 * searched or not, with the count of all matching items. Without a search one round trip; a search
 * first reads the texts it matches in (SQLite's LIKE folds no Cyrillic), then the page's cards.
 */
export async function shopPageCatalog(
  deps: Pick<Deps, "db" | "now">,
  filter: CatalogFilter,
  query: string | null,
  page: PageRequest,
): Promise<PageOf<ShopCardItem> & { categories: ShopCategory[] }> {
  const { orm } = deps.db;
  const listed = and(eq(items.isAvailable, true), filterWhere(filter));
  const cardsOf = (where: SQL | undefined) =>
    orm
      .select(cardColumns)
      .from(items)
      .innerJoin(categories, eq(categories.id, items.categoryId))
      .where(where)
      .orderBy(...catalogOrder);
  const categoryList = orm
    .select(categoryColumns)
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  const now = deps.now().getTime();
  const withDurations = (rows: CardRow[], durations: CardDuration[]) => {
    const durationsOf = groupBy(durations, (duration) => duration.itemId);
    return rows.map((row) => toCard(row, durationsOf.get(row.id) ?? [], now));
  };

  if (query == null) {
    const pageIds = pageIdsOf(deps, listed, page);
    const [[counted], rows, durations, categoryRows] = await orm.batch([
      orm.select({ total: count() }).from(items).where(listed),
      cardsOf(listed).limit(page.perPage).offset(offsetOf(page)),
      orm.select(durationColumns).from(itemDurations).where(inArray(itemDurations.itemId, pageIds)),
      categoryList,
    ]);
    return { total: counted?.total ?? 0, items: withDurations(rows, durations), categories: categoryRows };
  }

  const [texts, contents, categoryRows] = await orm.batch([
    orm
      .select({ id: items.id, name: items.name, description: items.description, categoryName })
      .from(items)
      .innerJoin(categories, eq(categories.id, items.categoryId))
      .where(listed)
      .orderBy(...catalogOrder),
    orm
      .select({ itemId: itemContents.itemId, item: itemContents.item })
      .from(itemContents)
      .innerJoin(items, eq(items.id, itemContents.itemId))
      .where(listed),
    categoryList,
  ]);
  const contentsOf = groupBy(contents, (content) => content.itemId);
  const found = texts
    .filter((row) =>
      matches(
        [row.name, row.description, row.categoryName, ...(contentsOf.get(row.id) ?? []).map((c) => c.item)],
        query,
      ),
    )
    .map((row) => row.id);
  const ids = found.slice(offsetOf(page), offsetOf(page) + page.perPage);
  if (ids.length === 0) return { total: found.length, items: [], categories: categoryRows };
  const [rows, durations] = await orm.batch([
    cardsOf(inArray(items.id, ids)),
    orm.select(durationColumns).from(itemDurations).where(inArray(itemDurations.itemId, ids)),
  ]);
  return { total: found.length, items: withDurations(rows, durations), categories: categoryRows };
}

// toLowerCase folds Cyrillic as the Russian locale does (Russian has no special casing rules) and,
// unlike toLocaleLowerCase("ru"), costs no locale lookup per text: a search folds thousands of them.
// Texts are joined with a newline so a match never spans two of them.
function matches(texts: string[], query: string): boolean {
  return texts.join("\n").toLowerCase().includes(query.trim().toLowerCase());
}

function matching(all: ShopItem[], query: string): ShopItem[] {
  return all.filter((item) =>
    matches([item.name, item.description, item.category_name, ...item.contents.map((content) => content.item)], query),
  );
}

/** One listed item with its category's name, durations and kit contents: one round trip of three small reads. */
export async function getItem(deps: Pick<Deps, "db" | "now">, id: number): Promise<ShopItem | null> {
  const { orm } = deps.db;
  const [rows, durations, contents] = await orm.batch([
    orm
      .select({ item: getTableColumns(items), categoryName })
      .from(items)
      .innerJoin(categories, eq(categories.id, items.categoryId))
      .where(and(eq(items.id, id), eq(items.isAvailable, true)))
      .limit(1),
    orm.select().from(itemDurations).where(eq(itemDurations.itemId, id)),
    orm
      .select({ item: itemContents.item, img: itemContents.img })
      .from(itemContents)
      .where(eq(itemContents.itemId, id))
      .orderBy(asc(itemContents.sortOrder), asc(itemContents.id)),
  ]);
  const row = rows[0];
  return row ? toShopItem(row.item, row.categoryName, durations, contents, deps.now().getTime()) : null;
}

/**
 * Case-insensitive search in names, descriptions and kit contents. SQLite's
 * LIKE folds ASCII only, so Cyrillic is matched here after one filtered read
 * (a server type's catalog is a few dozen rows).
 */
export async function searchItems(
  deps: Pick<Deps, "db" | "now">,
  query: string,
  filter: CatalogFilter = {},
): Promise<ShopItem[]> {
  return matching(await listItems(deps, filter), query);
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
  const limited = await loadItems(
    deps,
    and(filterWhere(filter), or(isNotNull(items.startTime), isNotNull(items.endTime), isNotNull(items.maxQuantity))),
  );
  const now = deps.now().getTime();
  const started = (item: ShopItem) => item.start_time == null || Date.parse(item.start_time) <= now;
  const notEnded = (item: ShopItem) => item.end_time == null || Date.parse(item.end_time) > now;
  const upcoming = limited.filter((item) => !started(item));
  const next = upcoming.map((item) => Date.parse(item.start_time ?? "")).toSorted((a, b) => a - b)[0];
  return {
    items: limited.filter((item) => started(item) && notEnded(item)),
    upcoming_items: filter.includeUpcoming ? upcoming : [],
    next_offer_time: next == null ? null : new Date(next).toISOString(),
  };
}

export async function listCategories(deps: Pick<Deps, "db">): Promise<ShopCategory[]> {
  return deps.db.orm
    .select({ id: categories.id, name: categories.name, description: categories.description })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
}

/** The item row and its durations, for the purchase checks. */
export async function loadItemForPurchase(deps: Pick<Deps, "db">, id: number) {
  const [row, durations] = await deps.db.orm.batch([
    deps.db.orm.select().from(items).where(eq(items.id, id)).limit(1),
    deps.db.orm.select().from(itemDurations).where(eq(itemDurations.itemId, id)),
  ]);
  const item = row[0];
  return item ? { item, durations } : null;
}
