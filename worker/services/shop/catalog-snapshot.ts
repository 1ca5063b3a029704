import { asc, eq, isNull, sql } from "drizzle-orm";
import type { SaleRule } from "#core/shop/sales.ts";
import { searchIndexText } from "#core/shop/search.ts";
import type { ShopCategory } from "#core/shop/types.ts";
import { UNTIL_WIPE_DAYS } from "#core/shop/until-wipe.ts";
import { catalogRevision, categories, itemContents, itemDurations, items, sales, servers } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { type Database, type Statement, type StatementResult, statement } from "../../ports/database.ts";

// The whole catalog, kept in memory per process (or Worker isolate) under the revision it was read
// at. The catalog_revision row moves with every write to items, durations, contents and categories
// (SQL triggers), and so does adding or removing a game server (which types have one decides what is
// sold, decision 122), so a read checks one row and reads the catalog again only after a change; filtering,
// searching and paging a server type's items then cost no query at all, whatever the catalog's size
// (decision 102). The triggers move it to at least the time in ms, so after a restore no write gives a
// held revision again to another catalog, and equality is enough (decision 153).

export type ItemRow = typeof items.$inferSelect;
export type DurationRow = typeof itemDurations.$inferSelect;

/**
 * The terms an item is sold for: its durations, shortest first, then «до вайпа» at its own price
 * when offered (decision 130: 0 days, kept on the item, not in item_durations).
 */
export function offeredDurations(
  item: Pick<ItemRow, "id" | "untilWipePrice">,
  durations: DurationRow[],
): DurationRow[] {
  return item.untilWipePrice == null
    ? durations
    : [...durations, { itemId: item.id, days: UNTIL_WIPE_DAYS, price: item.untilWipePrice }];
}
export interface ContentRow {
  itemId: number;
  item: string;
  img: string;
}

export interface CatalogSnapshot {
  revision: number;
  /** Listed items (is_available, in a shown category) of every server type, in the catalogue's order: category, then the item's own. */
  listed: ItemRow[];
  /** The listed items by id. */
  byId: Map<number, ItemRow>;
  /** The listed items of each server type, in the catalogue's order. */
  byServerType: Map<string, ItemRow[]>;
  /** The categories the shop shows: not hidden, in the operator's order. */
  categories: ShopCategory[];
  categoryNames: Map<number, string>;
  /** Each item's durations, shortest first. */
  durations: Map<number, DurationRow[]>;
  /** Each kit's contents, in their order. */
  contents: Map<number, ContentRow[]>;
  /** What a search looks in: the folded words of name, description, category and kit contents (core/shop/search.ts). */
  searchText: Map<number, string>;
  /** Sales not ended early, planned, running or over (decision 113): applied at `now` when a page is made. */
  sales: SaleRule[];
  /** Every limited offer's and sale's start and end, ascending: the moments the catalog changes by itself. */
  saleBoundaries: number[];
  /**
   * The server types that have at least one game server: only their items are sold (decision 122).
   * Another type's items stay listed, shown as not sold for now, and purchases of them are refused.
   */
  servedTypes: ReadonlySet<string>;
}

const REVISION = statement(sql`SELECT revision FROM catalog_revision WHERE id = 1`);

/**
 * How long a checked revision is trusted before a read checks it again (decision 116). A write made
 * through this process or isolate ends the trust at once (catalogChanged); one made elsewhere (another
 * isolate, an operator's script, SQL typed by hand) shows within this time. Money never depends on it:
 * a purchase's guard reads the database, and a price that moved since the page is the price-as-shown 409.
 */
export const CATALOG_TRUST_MS = 5_000;

interface Held {
  snapshot: CatalogSnapshot;
  /** When the revision was last read (the deps' clock). */
  checkedAt: number;
  /** `localWrites` when it was read: a write here since then means it is read again. */
  writes: number;
}

// Only settled snapshots are kept: a Worker must not wait on another request's I/O.
const held = new WeakMap<Database, Held>();
// One request's reads (keyed by its Deps) pinned to one snapshot.
const pinned = new WeakMap<object, CatalogSnapshot>();
// Writes to the catalog made by this process or isolate (catalogChanged), whichever database port made them.
let localWrites = 0;

/**
 * The catalog as it is now: the kept snapshot while its revision was checked within CATALOG_TRUST_MS
 * and nothing here wrote since, or while the revision hasn't moved; else read anew.
 */
export async function catalogSnapshot(deps: Pick<Deps, "db" | "now">): Promise<CatalogSnapshot> {
  const pin = pinned.get(deps);
  if (pin) return pin;
  const now = deps.now().getTime();
  const writes = localWrites;
  const kept = held.get(deps.db);
  if (kept) {
    const fresh = kept.writes === writes && now >= kept.checkedAt && now - kept.checkedAt < CATALOG_TRUST_MS;
    if (fresh) return kept.snapshot;
    const [row] = (await deps.db.run<{ revision: number }>(REVISION)).rows;
    if (row?.revision === kept.snapshot.revision) {
      held.set(deps.db, { snapshot: kept.snapshot, checkedAt: now, writes });
      return kept.snapshot;
    }
  }
  const snapshot = await readSnapshot(deps.db);
  held.set(deps.db, { snapshot, checkedAt: now, writes });
  return snapshot;
}

/**
 * Tells this process's kept catalog that a write here may have moved the revision (a purchase or a
 * return of limited stock, an operator's edit), so the next read checks it: the player or operator who
 * made the change sees it on their next page served here.
 */
function catalogChanged(): void {
  localWrites++;
}

/**
 * Every catalog read made with this request's `deps` sees `snapshot`: a visitor's page kept under a
 * catalog version is rendered from exactly that version.
 */
export function pinCatalog(deps: Pick<Deps, "db">, snapshot: CatalogSnapshot): void {
  pinned.set(deps, snapshot);
}

/** The revision and the catalog in one batch (one transaction), so the two always agree. */
async function readSnapshot(db: Database): Promise<CatalogSnapshot> {
  const { orm } = db;
  const [revisionRows, itemRows, durationRows, contentRows, categoryRows, saleRows, servedRows] = await orm.batch([
    orm.select({ revision: catalogRevision.revision }).from(catalogRevision),
    orm.select().from(items).orderBy(asc(items.sortOrder), asc(items.id)),
    orm.select().from(itemDurations).orderBy(asc(itemDurations.itemId), asc(itemDurations.days)),
    orm
      .select({ itemId: itemContents.itemId, item: itemContents.item, img: itemContents.img })
      .from(itemContents)
      .orderBy(asc(itemContents.itemId), asc(itemContents.sortOrder), asc(itemContents.id)),
    orm
      .select({ id: categories.id, name: categories.name, description: categories.description })
      .from(categories)
      // A hidden category is not in the shop, and so neither are its items (decision 119).
      .where(eq(categories.hidden, false))
      .orderBy(asc(categories.sortOrder), asc(categories.id)),
    orm.select().from(sales).where(isNull(sales.cancelledAt)).orderBy(asc(sales.id)),
    orm.selectDistinct({ serverType: servers.serverType }).from(servers),
  ]);
  const saleRules: SaleRule[] = saleRows.map(toSaleRule);
  const rank = new Map(categoryRows.map((category, index) => [category.id, index]));
  const categoryNames = new Map(categoryRows.map((category) => [category.id, category.name]));
  const ownDurations = groupBy(durationRows, (row) => row.itemId);
  const durations = new Map(
    itemRows.map((row) => [row.id, offeredDurations(row, ownDurations.get(row.id) ?? [])] as const),
  );
  const contents = groupBy(contentRows, (row) => row.itemId);
  // Items are read in their own order; a stable sort by category keeps it within each category.
  const listed = itemRows
    .filter((row) => row.isAvailable && rank.has(row.categoryId))
    .toSorted((a, b) => (rank.get(a.categoryId) ?? 0) - (rank.get(b.categoryId) ?? 0));
  const byServerType = groupBy(listed, (row) => row.serverType);
  // Folded once per catalog read, so a search is a scan of short strings whatever the catalog's size.
  const searchText = new Map(
    listed.map((row) => [
      row.id,
      searchIndexText([
        row.name,
        row.description,
        categoryNames.get(row.categoryId) ?? "",
        ...(contents.get(row.id) ?? []).map((c) => c.item),
      ]),
    ]),
  );
  const saleBoundaries = [
    ...new Set(
      [
        ...itemRows.flatMap((row) => [row.startTime, row.endTime]),
        ...saleRules.flatMap((sale) => [sale.startsAt, sale.endsAt]),
      ].filter((time) => time != null),
    ),
  ].toSorted((a, b) => a - b);
  return {
    revision: revisionRows[0]?.revision ?? 0,
    listed,
    byId: new Map(listed.map((row) => [row.id, row])),
    byServerType,
    categories: categoryRows,
    categoryNames,
    durations,
    contents,
    searchText,
    sales: saleRules,
    saleBoundaries,
    servedTypes: new Set(servedRows.map((row) => row.serverType)),
  };
}

/** A sales row as the pricing rule reads it. */
export function toSaleRule(row: typeof sales.$inferSelect): SaleRule {
  return {
    id: row.id,
    title: row.title,
    percent: row.percent,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    categoryIds: row.categoryIds ?? null,
    serverTypes: row.serverTypes ?? null,
    cancelledAt: row.cancelledAt,
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

/** A batch that may write what the shop shows: this process's kept catalog is checked again after it. */
export async function batchChangingCatalog(db: Database, statements: readonly Statement[]): Promise<StatementResult[]> {
  try {
    return await db.batch(statements);
  } finally {
    catalogChanged();
  }
}
