import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { CSV_BOM, csvLine, csvText, moscowDayStart } from "#core/admin/csv.ts";
import { EXPORT_TEXT } from "#core/messages/admin.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import { sqlInteger, sqlLabel, sqlLine, sqlMoment, sqlRubles, sqlText } from "./csv-cells.ts";
import { allows, type Operator } from "./roles.ts";

// The console's CSV exports (decision 110): payments, purchases and the ledger over a period of Moscow
// calendar days, streamed page by page on (created_at, id), so the file never sits whole in memory.

export const EXPORT_KINDS = ["payments", "purchases", "ledger"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Rows read per query. */
export const EXPORT_PAGE_SIZE = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ExportPeriod {
  from: string;
  to: string;
  /** [fromMs, toMs): from the start of `from` to the end of `to`, Moscow time. */
  fromMs: number;
  toMs: number;
}

export const exportSchema = z
  .object({
    kind: z.enum(EXPORT_KINDS, EXPORT_TEXT.kind),
    from: z.string().trim(),
    to: z.string().trim(),
    // Which part of a period too long for one file (decision 115); none: the whole period.
    part: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
  })
  .transform((input, ctx) => {
    const fromMs = moscowDayStart(input.from);
    const toStart = moscowDayStart(input.to);
    if (fromMs === null || toStart === null || fromMs > toStart) {
      ctx.addIssue({ code: "custom", message: EXPORT_TEXT.period, path: ["from"] });
      return z.NEVER;
    }
    return {
      kind: input.kind,
      part: input.part ?? null,
      period: { from: input.from, to: input.to, fromMs, toMs: toStart + DAY_MS },
    };
  });

export type ExportRequest = z.output<typeof exportSchema>;

/** Who may export what: support only purchases (the players' own reads), an admin everything. */
export function mayExport(operator: Pick<Operator, "role">, kind: ExportKind): boolean {
  return kind === "purchases" ? allows(operator, "exportPurchases") : allows(operator, "exportAll");
}

export function exportFileName(kind: ExportKind, period: ExportPeriod, part?: { part: number; parts: number }): string {
  const suffix = part ? `_part${part.part}of${part.parts}` : "";
  return `${kind}_${period.from}_${period.to}${suffix}.csv`;
}

type Cursor = { createdAt: number; id: number | string } | null;
interface Page {
  lines: string;
  last: Cursor;
  count: number;
}

/** What one kind of export reads: its table's (created_at, id) keyset, the joins, and its line's cells. */
interface ExportSource {
  createdAt: SQL;
  id: SQL;
  from: SQL;
  line: SQL;
}

const at = (column: string) => sql.raw(column);

const SOURCES: Record<ExportKind, ExportSource> = {
  payments: {
    createdAt: at("p.created_at"),
    id: at("p.id"),
    from: sql`payments p JOIN users u ON u.id = p.user_id`,
    line: sqlLine([
      sqlMoment(at("p.created_at")),
      sqlText(at("p.id")),
      sqlText(at("u.steam_id")),
      sqlText(at("u.nickname")),
      sqlRubles(at("p.amount")),
      sqlLabel(at("p.status"), EXPORT_TEXT.paymentStatus),
      sqlText(at("p.provider")),
      sqlText(at("p.provider_payment_id")),
      sqlText(at("p.email")),
      sqlMoment(at("p.completed_at")),
    ]),
  },
  purchases: {
    createdAt: at("p.created_at"),
    id: at("p.id"),
    from: sql`purchases p JOIN users u ON u.id = p.user_id JOIN items i ON i.id = p.item_id
      LEFT JOIN users f ON f.id = p.gift_to_user_id`,
    line: sqlLine([
      sqlMoment(at("p.created_at")),
      sqlInteger(at("p.id")),
      sqlText(at("p.transaction_id")),
      sqlText(at("u.steam_id")),
      sqlText(at("u.nickname")),
      sqlInteger(at("p.item_id")),
      sqlText(at("i.name")),
      sqlText(at("p.server_type")),
      sqlInteger(at("p.duration_days")),
      sqlRubles(at("p.price")),
      sqlLabel(at("p.status"), EXPORT_TEXT.purchaseStatus),
      sqlMoment(at("p.paid_at")),
      // A gift's friend (issue 24); empty for one's own purchase.
      sqlText(at("f.steam_id")),
    ]),
  },
  ledger: {
    createdAt: at("l.created_at"),
    id: at("l.id"),
    from: sql`ledger l JOIN users u ON u.id = l.user_id`,
    line: sqlLine([
      sqlMoment(at("l.created_at")),
      sqlInteger(at("l.id")),
      sqlText(at("u.steam_id")),
      sqlText(at("u.nickname")),
      sqlRubles(at("l.amount")),
      sqlLabel(at("l.kind"), EXPORT_TEXT.ledgerKind),
      sqlInteger(at("l.purchase_id")),
      sqlText(at("l.payment_id")),
      sqlText(at("l.note")),
    ]),
  },
};

/**
 * One page of an export as ONE string made by the database: the rows after the cursor in the period,
 * in (created_at, id) order, each formatted in SQL (csv-cells.ts) and joined in that order, with the
 * page's last key for the next. The Worker parses one value a page instead of a thousand rows.
 */
async function exportPage(
  deps: Pick<Deps, "db">,
  kind: ExportKind,
  period: ExportPeriod,
  cursor: Cursor,
  size: number,
) {
  const { createdAt, id, from, line } = SOURCES[kind];
  const after = cursor ? sql`AND (${createdAt}, ${id}) > (${cursor.createdAt}, ${cursor.id})` : sql``;
  const { rows } = await deps.db.run<{
    lines: string | null;
    count: number;
    lastCreatedAt: number;
    lastId: number | string;
  }>(
    statement(sql`WITH page AS MATERIALIZED (
        SELECT ${line} AS line, ${createdAt} AS created_at, ${id} AS id FROM ${from}
        WHERE ${createdAt} >= ${period.fromMs} AND ${createdAt} < ${period.toMs} ${after}
        ORDER BY ${createdAt}, ${id} LIMIT ${size})
      SELECT group_concat(line, '') AS lines, COUNT(*) AS count,
        (SELECT created_at FROM page ORDER BY created_at DESC, id DESC LIMIT 1) AS lastCreatedAt,
        (SELECT id FROM page ORDER BY created_at DESC, id DESC LIMIT 1) AS lastId
      FROM page`),
  );
  const row = rows[0];
  const count = row?.count ?? 0;
  return {
    lines: row?.lines ?? "",
    count,
    last: row && count > 0 ? { createdAt: row.lastCreatedAt, id: row.lastId } : null,
  } satisfies Page;
}

/**
 * The export as a byte stream: the BOM and the header row first, then one page of rows per pull, so
 * a slow reader holds the database reads back and memory stays one page deep whatever the period.
 */
export function exportStream(
  deps: Pick<Deps, "db">,
  kind: ExportKind,
  period: ExportPeriod,
  /** A part's rows: after this key (null: from the period's start), at most `rows` (null: to its end). */
  range: { after: Cursor; rows: number | null } = { after: null, rows: null },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor = range.after;
  let left = range.rows ?? Number.POSITIVE_INFINITY;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLine(EXPORT_TEXT.headers[kind].map(csvText))));
          return;
        }
        const size = Math.min(EXPORT_PAGE_SIZE, left);
        const page = await exportPage(deps, kind, period, cursor, size);
        if (page.lines) controller.enqueue(encoder.encode(page.lines));
        left -= page.count;
        if (page.count < size || !page.last || left <= 0) controller.close();
        else cursor = page.last;
      },
    },
    { highWaterMark: 0 },
  );
}

/** How many files `rows` rows make at `rowsPerFile` each (decision 115): at least one. */
export function exportPartCount(rows: number, rowsPerFile: number): number {
  return Math.max(1, Math.ceil(rows / rowsPerFile));
}

/** How many rows the kind has in the period: D1 counts them on the (created_at, id) index. */
async function countRows(deps: Pick<Deps, "db">, kind: ExportKind, period: ExportPeriod): Promise<number> {
  const { createdAt, from } = SOURCES[kind];
  const { rows } = await deps.db.run<{ count: number }>(
    statement(
      sql`SELECT COUNT(*) AS count FROM ${from} WHERE ${createdAt} >= ${period.fromMs} AND ${createdAt} < ${period.toMs}`,
    ),
  );
  return rows[0]?.count ?? 0;
}

/** The key just before the row that starts the part beginning at `offset` rows into the period. */
async function keyBefore(
  deps: Pick<Deps, "db">,
  kind: ExportKind,
  period: ExportPeriod,
  offset: number,
): Promise<Cursor> {
  if (offset <= 0) return null;
  const { createdAt, id, from } = SOURCES[kind];
  const { rows } = await deps.db.run<{ createdAt: number; id: number | string }>(
    statement(sql`SELECT ${createdAt} AS createdAt, ${id} AS id FROM ${from}
      WHERE ${createdAt} >= ${period.fromMs} AND ${createdAt} < ${period.toMs}
      ORDER BY ${createdAt}, ${id} LIMIT 1 OFFSET ${offset - 1}`),
  );
  const row = rows[0];
  return row ? { createdAt: row.createdAt, id: row.id } : null;
}

export type ExportResult =
  | { ok: true; fileName: string; body: ReadableStream<Uint8Array> }
  | { ok: false; status: 403; error: string }
  /** The period holds more rows than one file may (EXPORT_ROWS_PER_FILE): download it in `parts`. */
  | { ok: false; status: "parts"; rows: number; rowsPerFile: number; parts: number };

/** Checks the role, writes the journal row (before the first byte goes out), and hands back the stream. */
export async function startExport(
  deps: Pick<Deps, "db" | "now" | "config">,
  operator: Operator,
  request: ExportRequest,
): Promise<ExportResult> {
  if (!mayExport(operator, request.kind)) return { ok: false, status: 403, error: EXPORT_TEXT.onlyPurchases };
  const { kind, period } = request;
  // Where one file may hold only so many rows (the Worker's CPU per request), a longer period is
  // offered in parts, each its own request (decision 115); the owner's own server sets no limit.
  const rowsPerFile = deps.config.exportRowsPerFile;
  let part: { part: number; parts: number } | null = null;
  let range: { after: Cursor; rows: number | null } = { after: null, rows: null };
  if (rowsPerFile !== null) {
    const rows = await countRows(deps, kind, period);
    const parts = exportPartCount(rows, rowsPerFile);
    if (parts > 1) {
      if (request.part === null || request.part > parts)
        return { ok: false, status: "parts", rows, rowsPerFile, parts };
      part = { part: request.part, parts };
      range = { after: await keyBefore(deps, kind, period, (request.part - 1) * rowsPerFile), rows: rowsPerFile };
    }
  }
  await deps.db.batch([
    auditStatement({
      operator,
      action: "export.download",
      targetType: "export",
      targetId: kind,
      before: null,
      after: { kind, from: period.from, to: period.to, ...(part ?? {}) },
      now: deps.now().getTime(),
    }),
  ]);
  return {
    ok: true,
    fileName: exportFileName(kind, period, part ?? undefined),
    body: exportStream(deps, kind, period, range),
  };
}
