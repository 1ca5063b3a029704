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
  })
  .transform((input, ctx) => {
    const fromMs = moscowDayStart(input.from);
    const toStart = moscowDayStart(input.to);
    if (fromMs === null || toStart === null || fromMs > toStart) {
      ctx.addIssue({ code: "custom", message: EXPORT_TEXT.period, path: ["from"] });
      return z.NEVER;
    }
    return { kind: input.kind, period: { from: input.from, to: input.to, fromMs, toMs: toStart + DAY_MS } };
  });

export type ExportRequest = z.output<typeof exportSchema>;

/** Who may export what: support only purchases (the players' own reads), an admin everything. */
export function mayExport(operator: Pick<Operator, "role">, kind: ExportKind): boolean {
  return kind === "purchases" ? allows(operator, "exportPurchases") : allows(operator, "exportAll");
}

export function exportFileName(kind: ExportKind, period: ExportPeriod): string {
  return `${kind}_${period.from}_${period.to}.csv`;
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
    from: sql`purchases p JOIN users u ON u.id = p.user_id JOIN items i ON i.id = p.item_id`,
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
async function exportPage(deps: Pick<Deps, "db">, kind: ExportKind, period: ExportPeriod, cursor: Cursor) {
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
        ORDER BY ${createdAt}, ${id} LIMIT ${EXPORT_PAGE_SIZE})
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
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor = null;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLine(EXPORT_TEXT.headers[kind].map(csvText))));
          return;
        }
        const page = await exportPage(deps, kind, period, cursor);
        if (page.lines) controller.enqueue(encoder.encode(page.lines));
        if (page.count < EXPORT_PAGE_SIZE || !page.last) controller.close();
        else cursor = page.last;
      },
    },
    { highWaterMark: 0 },
  );
}

export type ExportResult =
  | { ok: true; fileName: string; body: ReadableStream<Uint8Array> }
  | { ok: false; status: 403; error: string };

/** Checks the role, writes the journal row (before the first byte goes out), and hands back the stream. */
export async function startExport(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  request: ExportRequest,
): Promise<ExportResult> {
  if (!mayExport(operator, request.kind)) return { ok: false, status: 403, error: EXPORT_TEXT.onlyPurchases };
  await deps.db.batch([
    auditStatement({
      operator,
      action: "export.download",
      targetType: "export",
      targetId: request.kind,
      before: null,
      after: { kind: request.kind, from: request.period.from, to: request.period.to },
      now: deps.now().getTime(),
    }),
  ]);
  return {
    ok: true,
    fileName: exportFileName(request.kind, request.period),
    body: exportStream(deps, request.kind, request.period),
  };
}
