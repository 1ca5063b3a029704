import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { FAIR_PLAY_TEXT } from "#core/messages/wipe.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import type { Deps } from "../../deps.ts";
import { read, statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";

// The console's fair-play windows on «Серверы» (decision 129): set one per server type and category
// or item, or remove it; each change journaled in the same batch.

export const fairPlayFormSchema = z.object({
  serverType: z.enum(SERVER_TYPES, FAIR_PLAY_TEXT.badType),
  target: z
    .string(FAIR_PLAY_TEXT.badTarget)
    .regex(/^(category|item):[1-9]\d{0,9}$/, FAIR_PLAY_TEXT.badTarget)
    .transform((value) => {
      const [kind, id] = value.split(":");
      return { kind: kind as "category" | "item", id: Number(id) };
    }),
  hours: z
    .string(FAIR_PLAY_TEXT.badHours)
    .trim()
    .regex(/^\d{1,2}$/, FAIR_PLAY_TEXT.badHours)
    .transform(Number)
    .pipe(z.number().min(1, FAIR_PLAY_TEXT.badHours).max(72, FAIR_PLAY_TEXT.badHours)),
  purchasesOpen: z.enum(["yes", "no"], FAIR_PLAY_TEXT.badOpen).transform((value) => value === "yes"),
});

export type FairPlayForm = z.output<typeof fairPlayFormSchema>;

export interface FairPlayRow {
  id: number;
  serverType: string;
  categoryId: number | null;
  itemId: number | null;
  /** The category's or the item's name. */
  name: string;
  hours: number;
  /** 0 or 1. */
  purchasesOpen: number;
}

/** Every window, and what a window can name: the categories and each type's items. One round trip. */
export async function listFairPlay(deps: Pick<Deps, "db">) {
  const [windows, categories, items] = await deps.db.read([
    read<FairPlayRow>(`SELECT fw.id, fw.server_type AS serverType, fw.category_id AS categoryId, fw.item_id AS itemId,
        COALESCE((SELECT c.name FROM categories c WHERE c.id = fw.category_id),
          (SELECT i.name FROM items i WHERE i.id = fw.item_id), '') AS name,
        fw.hours, fw.purchases_open AS purchasesOpen
      FROM fair_play_windows fw ORDER BY fw.server_type, fw.id`),
    read<{ id: number; name: string }>("SELECT id, name FROM categories ORDER BY sort_order, id"),
    read<{ id: number; name: string; serverType: string }>(
      "SELECT id, name, server_type AS serverType FROM items ORDER BY server_type, name, id",
    ),
  ] as const);
  return {
    windows: windows.map((row) => ({ ...row, purchasesOpen: Boolean(row.purchasesOpen) })),
    categories,
    items,
  };
}

/** The window's target as SQL: the category's or the item's column, and that it exists for the type. */
function targetSql(input: FairPlayForm): { match: SQL; exists: SQL } {
  return input.target.kind === "category"
    ? {
        match: sql`category_id = ${input.target.id}`,
        exists: sql`EXISTS (SELECT 1 FROM categories WHERE id = ${input.target.id})`,
      }
    : {
        match: sql`item_id = ${input.target.id}`,
        exists: sql`EXISTS (SELECT 1 FROM items WHERE id = ${input.target.id} AND server_type = ${input.serverType})`,
      };
}

/**
 * Sets the window of a type's category or item (replacing the one it had) with its journal line in
 * one batch; a category or item that doesn't exist (or an item of another type) changes nothing.
 */
export async function setFairPlay(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: FairPlayForm,
): Promise<{ ok: true } | { ok: false; status: 400; error: string }> {
  const now = deps.now().getTime();
  const { match, exists } = targetSql(input);
  const categoryId = input.target.kind === "category" ? input.target.id : null;
  const itemId = input.target.kind === "item" ? input.target.id : null;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.fair_play_set",
        targetType: "server_type",
        targetId: input.serverType,
        before: sql`(SELECT json_object('hours', hours, 'purchasesOpen', json(CASE WHEN purchases_open THEN 'true' ELSE 'false' END))
          FROM fair_play_windows WHERE server_type = ${input.serverType} AND ${match})`,
        after: { categoryId, itemId, hours: input.hours, purchasesOpen: input.purchasesOpen },
        now,
      },
      exists,
    ),
    statement(sql`DELETE FROM fair_play_windows WHERE server_type = ${input.serverType} AND ${match} AND ${exists}`),
    statement(sql`INSERT INTO fair_play_windows (server_type, category_id, item_id, hours, purchases_open, created_at)
      SELECT ${input.serverType}, ${categoryId}, ${itemId}, ${input.hours}, ${input.purchasesOpen ? 1 : 0}, ${now}
      WHERE ${exists}`),
  ]);
  if (audit?.changes !== 1) return { ok: false, status: 400, error: FAIR_PLAY_TEXT.badTarget };
  return { ok: true };
}

/** Removes a window, journaled in the same batch. */
export async function removeFairPlay(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  id: number,
): Promise<{ ok: true } | { ok: false; status: 404; error: string }> {
  const now = deps.now().getTime();
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.fair_play_remove",
        targetType: "server_type",
        targetId: sql`(SELECT server_type FROM fair_play_windows WHERE id = ${id})`,
        before: sql`(SELECT json_object('categoryId', category_id, 'itemId', item_id, 'hours', hours,
          'purchasesOpen', json(CASE WHEN purchases_open THEN 'true' ELSE 'false' END))
          FROM fair_play_windows WHERE id = ${id})`,
        after: null,
        now,
      },
      sql`EXISTS (SELECT 1 FROM fair_play_windows WHERE id = ${id})`,
    ),
    statement(sql`DELETE FROM fair_play_windows WHERE id = ${id}`),
  ]);
  if (audit?.changes !== 1) return { ok: false, status: 404, error: FAIR_PLAY_TEXT.notFound };
  return { ok: true };
}
