import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { SALES_TEXT } from "#core/messages/admin.ts";
import { saleFields, saleFieldsOf } from "#core/schemas/sale.ts";
import { sales } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { batchChangingCatalog, toSaleRule } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import { moscowMoment } from "./catalog-input.ts";
import type { Operator } from "./roles.ts";

// The console's sales (issue 23, decision 113): an admin creates one for a period and may end it early.

/** The form as posted: repeated `categoryIds` and `serverTypes` checkboxes; none ticked means all. */
export const saleFormSchema = z
  .object({
    ...saleFields,
    startsAt: moscowMoment(SALES_TEXT.badStart).refine((ms) => ms !== null, SALES_TEXT.badStart),
    endsAt: moscowMoment(SALES_TEXT.badEnd).refine((ms) => ms !== null, SALES_TEXT.badEnd),
  })
  .refine((sale) => (sale.endsAt ?? 0) > (sale.startsAt ?? 0), { message: SALES_TEXT.badEnd, path: ["endsAt"] });

export type SaleForm = z.output<typeof saleFormSchema>;

/** The form's fields, the repeated checkboxes as arrays. */
export function saleFormInput(form: FormData) {
  return saleFormSchema.safeParse({
    ...saleFieldsOf(form),
    startsAt: form.get("startsAt") ?? "",
    endsAt: form.get("endsAt") ?? "",
  });
}

/** Every sale, newest first, as the pricing rule reads it. */
export async function listSales(deps: Pick<Deps, "db">) {
  const rows = await deps.db.orm.select().from(sales).orderBy(desc(sales.id)).limit(100);
  return rows.map(toSaleRule);
}

/**
 * What a sale (dated or at each wipe) covers, as stored: the chosen categories sorted and the server
 * types, each null for "all", and the SQL condition that every chosen category exists, so a batch
 * guarded by it inserts and journals nothing otherwise.
 */
export function saleScope(input: { categoryIds: number[]; serverTypes: string[] }) {
  const categoryIds = input.categoryIds.length > 0 ? [...new Set(input.categoryIds)].sort((a, b) => a - b) : null;
  const serverTypes = input.serverTypes.length > 0 ? [...new Set(input.serverTypes)] : null;
  const categoryJson = categoryIds ? JSON.stringify(categoryIds) : null;
  const typesJson = serverTypes ? JSON.stringify(serverTypes) : null;
  const known = sql`(${categoryJson} IS NULL OR (SELECT COUNT(*) FROM json_each(${categoryJson}) j
    WHERE j.value IN (SELECT id FROM categories)) = json_array_length(${categoryJson}))`;
  return { categoryIds, serverTypes, categoryJson, typesJson, known };
}

/** Creates a sale and its journal line in one batch; a category that doesn't exist is refused by the batch. */
export async function createSale(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: SaleForm,
): Promise<{ ok: true; id: number } | { ok: false; error: string }> {
  const now = deps.now().getTime();
  const { categoryIds, serverTypes, categoryJson, typesJson, known } = saleScope(input);
  const token = crypto.randomUUID();
  const created = sql`(SELECT id FROM sales WHERE title = ${token})`;
  const results = await batchChangingCatalog(deps.db, [
    statement(sql`INSERT INTO sales (title, percent, starts_at, ends_at, category_ids, server_types, created_at)
      SELECT ${token}, ${input.percent}, ${input.startsAt}, ${input.endsAt}, ${categoryJson}, ${typesJson}, ${now}
      WHERE ${known}`),
    auditStatement(
      {
        operator,
        action: "sale.create",
        targetType: "sale",
        targetId: created,
        before: null,
        after: {
          title: input.title,
          percent: input.percent,
          startsAt: input.startsAt,
          endsAt: input.endsAt,
          categoryIds,
          serverTypes,
        },
        now,
      },
      sql`EXISTS ${created}`,
    ),
    // The title was a token naming the row inside this batch; now it gets its own.
    statement(sql`UPDATE sales SET title = ${input.title} WHERE title = ${token} RETURNING id`),
  ]);
  const [row] = (results[2]?.rows ?? []) as { id: number }[];
  return row ? { ok: true, id: row.id } : { ok: false, error: SALES_TEXT.badScope };
}

/** Ends a planned or running sale now, with its journal line; an ended one is left as it is. */
export async function endSale(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const now = deps.now().getTime();
  const [sale] = await deps.db.orm.select().from(sales).where(eq(sales.id, id)).limit(1);
  if (!sale || sale.cancelledAt !== null || sale.endsAt <= now) return { ok: false, error: SALES_TEXT.notRunning };
  const results = await batchChangingCatalog(deps.db, [
    statement(
      sql`UPDATE sales SET cancelled_at = ${now} WHERE id = ${id} AND cancelled_at IS NULL AND ends_at > ${now}`,
    ),
    auditStatement(
      {
        operator,
        action: "sale.end",
        targetType: "sale",
        targetId: id,
        before: { endsAt: sale.endsAt },
        after: { endedAt: now },
        now,
      },
      sql`(SELECT cancelled_at FROM sales WHERE id = ${id}) = ${now}`,
    ),
  ]);
  return (results[0]?.changes ?? 0) > 0 ? { ok: true } : { ok: false, error: SALES_TEXT.notRunning };
}
