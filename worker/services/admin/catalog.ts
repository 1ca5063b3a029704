import { asc, eq, type SQL, sql } from "drizzle-orm";
import { CATALOG_TEXT } from "#core/messages/admin.ts";
import { categories, itemCommands, itemDurations, items } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, type Statement, statement } from "../../ports/database.ts";
import { batchChangingCatalog } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import type { AdminResult } from "./balance.ts";
import type { ItemInput } from "./catalog-input.ts";
import type { Operator } from "./roles.ts";

export async function listCatalog(deps: Pick<Deps, "db">, serverType: string | null) {
  // Not one orm.batch: its rows come back keyed by column name, and items.name and categories.name collide.
  const [rows, categoryRows] = await Promise.all([
    deps.db.orm
      .select({
        id: items.id,
        name: items.name,
        serverType: items.serverType,
        categoryName: categories.name,
        categoryHidden: categories.hidden,
        price: items.price,
        discount: items.discount,
        isOneTime: items.isOneTime,
        isAvailable: items.isAvailable,
        startTime: items.startTime,
        endTime: items.endTime,
        maxQuantity: items.maxQuantity,
        soldQuantity: items.soldQuantity,
      })
      .from(items)
      .innerJoin(categories, eq(categories.id, items.categoryId))
      .where(serverType ? eq(items.serverType, serverType) : undefined)
      .orderBy(asc(items.serverType), asc(items.sortOrder), asc(items.id)),
    listCategories(deps),
  ]);
  return { items: rows, categories: categoryRows };
}

/** Every category an item may be put in, hidden ones too (the form marks them), in the shop's order. */
export function listCategories(deps: Pick<Deps, "db">) {
  return deps.db.orm
    .select({ id: categories.id, name: categories.name, hidden: categories.hidden })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
}

/** One item with what the edit form shows: its durations and command templates. */
export async function itemForEdit(deps: Pick<Deps, "db">, itemId: number) {
  const [rows, durations, commands] = await deps.db.orm.batch([
    deps.db.orm.select().from(items).where(eq(items.id, itemId)).limit(1),
    deps.db.orm.select().from(itemDurations).where(eq(itemDurations.itemId, itemId)).orderBy(asc(itemDurations.days)),
    deps.db.orm
      .select()
      .from(itemCommands)
      .where(eq(itemCommands.itemId, itemId))
      .orderBy(asc(itemCommands.sortOrder), asc(itemCommands.id)),
  ]);
  const [item] = rows;
  return item ? { item, durations, commands } : null;
}

/** What the journal keeps of an item: the fields the form edits. */
const itemJson = (id: SQL | number) => sql`(SELECT json_object(
    'name', name, 'price', price, 'discount', discount, 'img', img, 'server_type', server_type,
    'category_id', category_id, 'is_one_time', is_one_time, 'is_available', is_available,
    'start_time', start_time, 'end_time', end_time, 'max_quantity', max_quantity, 'until_wipe_price', until_wipe_price,
    'durations', (SELECT json_group_array(json_array(days, price)) FROM item_durations WHERE item_id = items.id),
    'commands', (SELECT json_group_array(json_array(phase, template)) FROM item_commands WHERE item_id = items.id))
  FROM items WHERE id = ${id})`;

/** Durations and commands replaced by the form's; a purchase keeps its own price, so past ones don't change. */
function childStatements(itemId: SQL | number, input: ItemInput): Statement[] {
  const statements = [
    statement(sql`DELETE FROM item_durations WHERE item_id = ${itemId}`),
    statement(sql`DELETE FROM item_commands WHERE item_id = ${itemId}`),
  ];
  for (const duration of input.durations.days) {
    statements.push(
      statement(
        sql`INSERT INTO item_durations (item_id, days, price) VALUES (${itemId}, ${duration.days}, ${duration.price})`,
      ),
    );
  }
  const commands = [
    ...input.grantCommands.map((template) => ({ phase: "grant", template })),
    ...input.revokeCommands.map((template) => ({ phase: "revoke", template })),
  ];
  commands.forEach((command, index) => {
    statements.push(
      statement(sql`INSERT INTO item_commands (item_id, phase, template, sort_order)
        VALUES (${itemId}, ${command.phase}, ${command.template}, ${index})`),
    );
  });
  return statements;
}

function catalogFailure(error: unknown): AdminResult {
  const violation = constraintViolation(error);
  if (violation?.kind === "CHECK" && violation.target === "items_stock") {
    return { ok: false, status: 409, error: CATALOG_TEXT.belowSold };
  }
  if (violation?.kind === "FOREIGN KEY") return { ok: false, status: 400, error: CATALOG_TEXT.category };
  throw error;
}

const itemValues = (input: ItemInput) => ({
  name: input.name,
  description: input.description,
  price: input.price,
  discount: input.discount,
  img: input.img,
  serverType: input.serverType,
  categoryId: input.categoryId,
  isOneTime: input.isOneTime,
  isAvailable: input.isAvailable,
  startTime: input.startTime,
  endTime: input.endTime,
  maxQuantity: input.maxQuantity,
  untilWipePrice: input.durations.untilWipePrice,
});

/**
 * Adds an item with its durations and commands, and the journal row, in one batch. The new id is
 * read back as MAX(id) inside the same transaction, where no other insert can interleave.
 */
export async function createCatalogItem(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: ItemInput,
): Promise<AdminResult & { itemId?: number }> {
  const now = deps.now().getTime();
  const newId = sql`(SELECT MAX(id) FROM items)`;
  try {
    const results = await batchChangingCatalog(deps.db, [
      statement(deps.db.orm.insert(items).values(itemValues(input))),
      ...childStatements(newId, input),
      auditStatement({
        operator,
        action: "item.create",
        targetType: "item",
        targetId: newId,
        before: null,
        after: itemJson(newId),
        now,
      }),
      statement(sql`SELECT MAX(id) AS id FROM items`),
    ]);
    const id = (results.at(-1)?.rows[0] as { id: number } | undefined)?.id;
    return { ok: true, itemId: id };
  } catch (error) {
    return catalogFailure(error);
  }
}

/** Edits an item, its durations and commands; the journal keeps the item before and after. */
export async function updateCatalogItem(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  itemId: number,
  input: ItemInput,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const exists = sql`EXISTS (SELECT 1 FROM items WHERE id = ${itemId})`;
  try {
    const [audit] = await batchChangingCatalog(deps.db, [
      // The journal row first: its "before" is read before the statements below change the item.
      auditStatement(
        {
          operator,
          action: "item.update",
          targetType: "item",
          targetId: itemId,
          before: itemJson(itemId),
          after: {
            ...itemValues(input),
            durations: input.durations.days,
            grant: input.grantCommands,
            revoke: input.revokeCommands,
          },
          now,
        },
        exists,
      ),
      statement(deps.db.orm.update(items).set(itemValues(input)).where(eq(items.id, itemId))),
      ...childStatements(itemId, input),
    ]);
    if (audit?.changes !== 1) return { ok: false, status: 404, error: CATALOG_TEXT.notFound };
    return { ok: true };
  } catch (error) {
    return catalogFailure(error);
  }
}

/** Hides an item from the shop or shows it again. */
export async function setItemVisible(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  itemId: number,
  visible: boolean,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const wanted = visible ? 1 : 0;
  const [audit] = await batchChangingCatalog(deps.db, [
    auditStatement(
      {
        operator,
        action: visible ? "item.show" : "item.hide",
        targetType: "item",
        targetId: itemId,
        before: { is_available: !visible },
        after: { is_available: visible },
        now,
      },
      sql`EXISTS (SELECT 1 FROM items WHERE id = ${itemId} AND is_available <> ${wanted})`,
    ),
    statement(sql`UPDATE items SET is_available = ${wanted} WHERE id = ${itemId} AND is_available <> ${wanted}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return { ok: false, status: 409, error: "Ничего не изменилось: состояние уже такое" };
}
