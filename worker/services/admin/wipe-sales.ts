import { desc, sql } from "drizzle-orm";
import { z } from "zod";
import { SALES_TEXT } from "#core/messages/admin.ts";
import { WIPE_SALE_TEXT } from "#core/messages/wipe.ts";
import { smallCountText } from "#core/schemas/common.ts";
import { saleFields, saleFieldsOf } from "#core/schemas/sale.ts";
import { MAX_WIPE_SALE_HOURS } from "#core/shop/sales.ts";
import { nextWipes, scheduleFromColumns } from "#core/wipe/schedule.ts";
import { wipeSales } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { read, type Statement, statement } from "../../ports/database.ts";
import { batchChangingCatalog } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";
import { saleScope } from "./sales.ts";

// Wipe sales (decision 144): a percent off for some hours after each wipe of a server type. The cron
// turns each coming wipe into an ordinary `sales` row, so prices, the purchase's SQL and the shop's
// catalog version follow decision 113 unchanged.

const HOUR_MS = 60 * 60 * 1000;
/** A wipe's window is added this long before it, so it shows in the console's list as planned. */
export const WIPE_SALE_LOOKAHEAD_MS = 24 * HOUR_MS;
export const wipeSaleFormSchema = z.object({
  ...saleFields,
  hours: smallCountText(MAX_WIPE_SALE_HOURS, WIPE_SALE_TEXT.badHours),
});

export type WipeSaleForm = z.output<typeof wipeSaleFormSchema>;

/** The form's fields, the repeated checkboxes as arrays. */
export function wipeSaleFormInput(form: FormData) {
  return wipeSaleFormSchema.safeParse({ ...saleFieldsOf(form), hours: form.get("hours") ?? "" });
}

/** Every wipe sale, newest first. */
export async function listWipeSales(deps: Pick<Deps, "db">) {
  return deps.db.orm.select().from(wipeSales).orderBy(desc(wipeSales.id)).limit(100);
}

/**
 * Each running wipe sale's window as the console says it (issue 46): the one going on now, else the
 * next to start, from the schedules of its types' servers, as the cron will add them; null when none
 * of them has a wipe on the schedule.
 */
export async function wipeSaleWindows(
  deps: Pick<Deps, "db" | "now">,
  sales: readonly { id: number; hours: number; serverTypes: string[] | null; cancelledAt: number | null }[],
): Promise<Record<number, { startsAt: number; endsAt: number } | null>> {
  const now = deps.now().getTime();
  const [servers] = await deps.db.read([read<ServerRow>(SCHEDULED_SERVERS_READ)] as const);
  const windows: Record<number, { startsAt: number; endsAt: number } | null> = {};
  for (const sale of sales) {
    if (sale.cancelledAt !== null) continue;
    let earliest: { startsAt: number; endsAt: number } | null = null;
    for (const server of servers) {
      if (sale.serverTypes && !sale.serverTypes.includes(server.serverType)) continue;
      // The first wipe whose window has not ended: one still within its hours, or the next.
      const [wipe] = nextWipes(scheduleFromColumns(server), now - sale.hours * HOUR_MS, 1);
      if (wipe && (!earliest || wipe.at < earliest.startsAt)) {
        earliest = { startsAt: wipe.at, endsAt: wipe.at + sale.hours * HOUR_MS };
      }
    }
    windows[sale.id] = earliest;
  }
  return windows;
}

/** Creates a wipe sale and its journal line in one batch; a category that doesn't exist is refused by the batch. */
export async function createWipeSale(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: WipeSaleForm,
): Promise<{ ok: true; id: number } | { ok: false; error: string }> {
  const now = deps.now().getTime();
  const { categoryIds, serverTypes, categoryJson, typesJson, known } = saleScope(input);
  const token = crypto.randomUUID();
  const created = sql`(SELECT id FROM wipe_sales WHERE title = ${token})`;
  const results = await deps.db.batch([
    statement(sql`INSERT INTO wipe_sales (title, percent, hours, category_ids, server_types, created_at)
      SELECT ${token}, ${input.percent}, ${input.hours}, ${categoryJson}, ${typesJson}, ${now} WHERE ${known}`),
    auditStatement(
      {
        operator,
        action: "sale.wipe_create",
        targetType: "sale",
        targetId: sql`'wipe-' || ${created}`,
        before: null,
        after: { title: input.title, percent: input.percent, hours: input.hours, categoryIds, serverTypes },
        now,
      },
      sql`EXISTS ${created}`,
    ),
    // The title was a token naming the row inside this batch; now it gets its own.
    statement(sql`UPDATE wipe_sales SET title = ${input.title} WHERE title = ${token} RETURNING id`),
  ]);
  const [row] = (results[2]?.rows ?? []) as { id: number }[];
  return row ? { ok: true, id: row.id } : { ok: false, error: SALES_TEXT.badScope };
}

/** Ends a wipe sale now, and with it its windows not yet over; journaled. */
export async function endWipeSale(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const now = deps.now().getTime();
  const results = await batchChangingCatalog(deps.db, [
    statement(sql`UPDATE wipe_sales SET cancelled_at = ${now} WHERE id = ${id} AND cancelled_at IS NULL`),
    auditStatement(
      {
        operator,
        action: "sale.wipe_end",
        targetType: "sale",
        targetId: `wipe-${id}`,
        before: null,
        after: { endedAt: now },
        now,
      },
      sql`(SELECT cancelled_at FROM wipe_sales WHERE id = ${id}) = ${now}`,
    ),
    statement(sql`UPDATE sales SET cancelled_at = ${now}
      WHERE wipe_sale_id = ${id} AND cancelled_at IS NULL AND ends_at > ${now}
        AND (SELECT cancelled_at FROM wipe_sales WHERE id = ${id}) = ${now}`),
  ]);
  return (results[0]?.changes ?? 0) > 0 ? { ok: true } : { ok: false, error: WIPE_SALE_TEXT.notRunning };
}

interface TemplateRow {
  id: number;
  title: string;
  percent: number;
  hours: number;
  categoryIds: string | null;
  serverTypes: string | null;
}

const SCHEDULED_SERVERS_READ = `SELECT server_type AS serverType, wipe_kind AS wipeKind, wipe_weekday AS wipeWeekday,
      wipe_minute AS wipeMinute, wipe_every_weeks AS wipeEveryWeeks, wipe_from AS wipeFrom
      FROM servers WHERE wipe_kind <> 'none'`;

interface ServerRow {
  serverType: string;
  wipeKind: string;
  wipeWeekday: number | null;
  wipeMinute: number | null;
  wipeEveryWeeks: number | null;
  wipeFrom: string | null;
}

/**
 * The cron's part (every minute): each running wipe sale gets a `sales` row for each wipe of each of
 * its server types that starts within a day or is still within its hours; added once (the unique
 * index `sales_wipe_window`). A planned window whose wipe is no longer on the schedule (an operator
 * changed it) is removed before it starts; a started one is never touched.
 */
export async function scheduleWipeSales(deps: Pick<Deps, "db" | "now">): Promise<{ added: number; removed: number }> {
  const now = deps.now().getTime();
  const [templates, servers, existing] = await deps.db.read([
    read<TemplateRow>(`SELECT id, title, percent, hours, category_ids AS categoryIds, server_types AS serverTypes
      FROM wipe_sales WHERE cancelled_at IS NULL`),
    read<ServerRow>(SCHEDULED_SERVERS_READ),
    // Windows that may still matter: any started within the longest window, and every planned one.
    read<{ id: number; wipeSaleId: number; serverTypes: string; startsAt: number; cancelledAt: number | null }>(
      `SELECT id, wipe_sale_id AS wipeSaleId, server_types AS serverTypes, starts_at AS startsAt,
         cancelled_at AS cancelledAt
       FROM sales WHERE wipe_sale_id IS NOT NULL AND starts_at > ?`,
      [now - MAX_WIPE_SALE_HOURS * HOUR_MS],
    ),
  ] as const);
  if (templates.length === 0 && existing.length === 0) return { added: 0, removed: 0 };

  const keyOf = (saleId: number, typeJson: string, startsAt: number) => `${saleId}|${typeJson}|${startsAt}`;
  const have = new Set(existing.map((row) => keyOf(row.wipeSaleId, row.serverTypes, row.startsAt)));
  const wanted = new Set<string>();
  const inserts: Statement[] = [];
  for (const template of templates) {
    const types = template.serverTypes ? (JSON.parse(template.serverTypes) as string[]) : null;
    const since = now - template.hours * HOUR_MS;
    for (const server of servers) {
      if (types && !types.includes(server.serverType)) continue;
      const typeJson = JSON.stringify([server.serverType]);
      // Wipes after `since`: one still within its hours, and those starting within the lookahead.
      for (const wipe of nextWipes(scheduleFromColumns(server), since, 8)) {
        if (wipe.at > now + WIPE_SALE_LOOKAHEAD_MS) break;
        const key = keyOf(template.id, typeJson, wipe.at);
        if (wanted.has(key)) continue;
        wanted.add(key);
        if (have.has(key)) continue;
        inserts.push(
          statement(sql`INSERT INTO sales (title, percent, starts_at, ends_at, category_ids, server_types, wipe_sale_id, created_at)
            VALUES (${template.title}, ${template.percent}, ${wipe.at}, ${wipe.at + template.hours * HOUR_MS},
              ${template.categoryIds}, ${typeJson}, ${template.id}, ${now})
            ON CONFLICT (wipe_sale_id, server_types, starts_at) DO NOTHING RETURNING id`),
        );
      }
    }
  }
  // A planned window whose wipe left the schedule; never one that started or that a purchase names.
  const removals = existing
    .filter(
      (row) =>
        row.cancelledAt === null &&
        row.startsAt > now &&
        !wanted.has(keyOf(row.wipeSaleId, row.serverTypes, row.startsAt)),
    )
    .map((row) =>
      statement(sql`DELETE FROM sales WHERE id = ${row.id} AND starts_at > ${now}
        AND NOT EXISTS (SELECT 1 FROM purchases WHERE sale_id = ${row.id}) RETURNING id`),
    );
  // Most minutes change nothing: every window is already there, and the catalog doesn't move.
  if (inserts.length === 0 && removals.length === 0) return { added: 0, removed: 0 };
  const results = await batchChangingCatalog(deps.db, [...inserts, ...removals]);
  // Rows returned, not `changes`: the catalog revision's triggers count there too.
  const count = (from: number, to?: number) =>
    results.slice(from, to).reduce((sum, result) => sum + (result?.rows.length ?? 0), 0);
  return { added: count(0, inserts.length), removed: count(inserts.length) };
}
