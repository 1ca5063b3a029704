import { asc, eq, type SQL, sql } from "drizzle-orm";
import { ADMIN_TEXT, CATEGORY_TEXT } from "#core/messages/admin.ts";
import type { CategoryFields } from "#core/schemas/category.ts";
import { categories } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { rawSql, statement } from "../../ports/database.ts";
import { batchChangingCatalog } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import type { AdminResult } from "./balance.ts";
import type { Operator } from "./roles.ts";

// The console's categories (issue 34, decision 119): a fresh shop has none, and an item needs one.
// Every change is one batch with its journal row; the categories triggers of migration 0007 move the
// catalog's revision, so the shop shows the change as it shows an item's.

export interface ConsoleCategory {
  id: number;
  name: string;
  description: string;
  hidden: boolean;
  /** Items in it, listed or not. */
  itemCount: number;
  /** Of those, the ones marked «Показывать в магазине». */
  listedCount: number;
}

/** Every category, hidden ones too, in the shop's order, with how many items each holds. */
export async function listConsoleCategories(deps: Pick<Deps, "db">): Promise<ConsoleCategory[]> {
  const rows = await deps.db.orm
    .select({
      id: categories.id,
      name: categories.name,
      description: categories.description,
      hidden: categories.hidden,
      // Spelled out: drizzle writes a selected column unqualified, which inside the subquery would be items.id.
      itemCount: sql<number>`(SELECT COUNT(*) FROM items i WHERE i.category_id = categories.id)`,
      listedCount: sql<number>`(SELECT COUNT(*) FROM items i WHERE i.category_id = categories.id AND i.is_available = 1)`,
    })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  return rows.map((row) => ({ ...row, itemCount: Number(row.itemCount), listedCount: Number(row.listedCount) }));
}

/** What the journal keeps of a category, read inside the batch. */
const categoryJson = (id: SQL | number) =>
  sql`(SELECT json_object('name', name, 'description', description, 'hidden', hidden) FROM categories WHERE id = ${id})`;

const sameName = (name: string, exceptId: number | null) =>
  sql`EXISTS (SELECT 1 FROM categories WHERE name = ${name} AND id IS NOT ${exceptId})`;

/**
 * Adds a category at the end of the list, with its journal row, in one batch; a name already taken
 * is refused. The row is named by a one-off token inside the batch (as a new sale is), so the journal
 * row points at it and nothing else.
 */
export async function createCategory(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: CategoryFields,
): Promise<AdminResult & { categoryId?: number }> {
  const now = deps.now().getTime();
  const token = crypto.randomUUID();
  const created = sql`(SELECT id FROM categories WHERE name = ${token})`;
  const results = await batchChangingCatalog(deps.db, [
    statement(sql`INSERT INTO categories (name, description, sort_order, hidden)
      SELECT ${token}, ${input.description}, (SELECT COALESCE(MAX(sort_order), -1) + 1 FROM categories), 0
      WHERE NOT ${sameName(input.name, null)}`),
    auditStatement(
      {
        operator,
        action: "category.create",
        targetType: "category",
        targetId: created,
        before: null,
        after: { name: input.name, description: input.description, hidden: false },
        now,
      },
      sql`EXISTS ${created}`,
    ),
    statement(sql`UPDATE categories SET name = ${input.name} WHERE name = ${token} RETURNING id`),
  ]);
  const [row] = (results[2]?.rows ?? []) as { id: number }[];
  return row ? { ok: true, categoryId: row.id } : { ok: false, status: 409, error: CATEGORY_TEXT.duplicate };
}

/** Renames a category and changes its description; the journal keeps both before and after. */
export async function renameCategory(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
  input: CategoryFields,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const changes = sql`EXISTS (SELECT 1 FROM categories WHERE id = ${id}
      AND (name <> ${input.name} OR description <> ${input.description}))
    AND NOT ${sameName(input.name, id)}`;
  const [audit] = await batchChangingCatalog(deps.db, [
    // The journal row first: its "before" is read before the update below.
    auditStatement(
      {
        operator,
        action: "category.rename",
        targetType: "category",
        targetId: id,
        before: categoryJson(id),
        after: { name: input.name, description: input.description },
        now,
      },
      changes,
    ),
    statement(sql`UPDATE categories SET name = ${input.name}, description = ${input.description}
      WHERE id = ${id} AND (name <> ${input.name} OR description <> ${input.description})
        AND NOT ${sameName(input.name, id)}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  const [row] = await deps.db.orm.all<{ taken: number }>(
    sql`SELECT ${sameName(input.name, id)} AS taken FROM categories WHERE id = ${id}`,
  );
  if (!row) return { ok: false, status: 404, error: CATEGORY_TEXT.notFound };
  if (row.taken) return { ok: false, status: 409, error: CATEGORY_TEXT.duplicate };
  // The same name and description again: nothing to change, nothing to journal.
  return { ok: true };
}

/** Hides a category (and so its items) from the shop, or shows it again. */
export async function setCategoryHidden(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
  hidden: boolean,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const wanted = hidden ? 1 : 0;
  const [audit] = await batchChangingCatalog(deps.db, [
    auditStatement(
      {
        operator,
        action: hidden ? "category.hide" : "category.show",
        targetType: "category",
        targetId: id,
        before: { hidden: !hidden },
        after: { hidden },
        now,
      },
      sql`EXISTS (SELECT 1 FROM categories WHERE id = ${id} AND hidden <> ${wanted})`,
    ),
    statement(sql`UPDATE categories SET hidden = ${wanted} WHERE id = ${id} AND hidden <> ${wanted}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  const [row] = await deps.db.orm.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
  return row
    ? { ok: false, status: 409, error: ADMIN_TEXT.nothingChanged }
    : { ok: false, status: 404, error: CATEGORY_TEXT.notFound };
}

/**
 * Moves a category one place up (-1) or down (+1) in the shop's order. The order is read, the new one
 * computed, and every category numbered 0, 1, 2… in one batch that runs only if the order is still the
 * one read (else it is refused as unchanged), so two operators moving at once never mix their orders.
 * The numbers are integers read from the database, spliced in as literals: D1 binds at most 100
 * parameters per statement, and a catalog may have more categories than that allows.
 */
export async function moveCategory(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
  step: -1 | 1,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const rows = await deps.db.orm
    .select({ id: categories.id, sortOrder: categories.sortOrder })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  const from = rows.findIndex((row) => row.id === id);
  if (from === -1) return { ok: false, status: 404, error: CATEGORY_TEXT.notFound };
  const to = from + step;
  if (to < 0 || to >= rows.length) return { ok: false, status: 409, error: CATEGORY_TEXT.cantMove };
  const order = rows.map((row) => row.id);
  [order[from], order[to]] = [order[to] as number, order[from] as number];
  const int = (value: number) => String(Math.trunc(Number(value)));
  const asRead = rows.map((row) => `WHEN ${int(row.id)} THEN ${int(row.sortOrder)}`).join(" ");
  const renumbered = order.map((categoryId, index) => `WHEN ${int(categoryId)} THEN ${index}`).join(" ");
  // Uncorrelated subqueries: SQLite evaluates each once per statement, before the update changes a row.
  const unchanged = rawSql(`(SELECT COUNT(*) FROM categories) = ${rows.length}
    AND (SELECT COUNT(*) FROM categories WHERE sort_order = CASE id ${asRead} END) = ${rows.length}`);
  const [audit] = await batchChangingCatalog(deps.db, [
    auditStatement(
      {
        operator,
        action: "category.move",
        targetType: "category",
        targetId: id,
        before: { position: from + 1 },
        after: { position: to + 1 },
        now,
      },
      unchanged,
    ),
    statement(sql`UPDATE categories SET sort_order = CASE id ${rawSql(renumbered)} END WHERE ${unchanged}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return { ok: false, status: 409, error: ADMIN_TEXT.nothingChanged };
}

/** Deletes a category that holds no item; one that holds any is refused with how many, and left as it is. */
export async function deleteCategory(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const empty = sql`EXISTS (SELECT 1 FROM categories WHERE id = ${id})
    AND NOT EXISTS (SELECT 1 FROM items WHERE category_id = ${id})`;
  const [audit] = await batchChangingCatalog(deps.db, [
    auditStatement(
      {
        operator,
        action: "category.delete",
        targetType: "category",
        targetId: id,
        before: categoryJson(id),
        after: null,
        now,
      },
      empty,
    ),
    statement(
      sql`DELETE FROM categories WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM items WHERE category_id = ${id})`,
    ),
  ]);
  if (audit?.changes === 1) return { ok: true };
  const [row] = await deps.db.orm.all<{ items: number }>(
    sql`SELECT (SELECT COUNT(*) FROM items WHERE category_id = ${id}) AS items FROM categories WHERE id = ${id}`,
  );
  if (!row) return { ok: false, status: 404, error: CATEGORY_TEXT.notFound };
  return { ok: false, status: 409, error: CATEGORY_TEXT.notEmpty(Number(row.items)) };
}
