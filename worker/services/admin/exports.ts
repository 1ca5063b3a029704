import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { CSV_BOM, csvInteger, csvLine, csvMoment, csvRubles, csvText, moscowDayStart } from "#core/admin/csv.ts";
import { EXPORT_TEXT } from "#core/messages/admin.ts";
import { items, ledger, payments, purchases, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { auditStatement } from "./audit.ts";
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

/** Rows at or after the cursor's successor, in the period, in (created_at, id) order. */
function keyset(createdAt: AnySQLiteColumn, id: AnySQLiteColumn, period: ExportPeriod, cursor: Cursor) {
  return and(
    gte(createdAt, period.fromMs),
    lt(createdAt, period.toMs),
    cursor ? sql`(${createdAt}, ${id}) > (${cursor.createdAt}, ${cursor.id})` : undefined,
  );
}

async function paymentsPage(deps: Pick<Deps, "db">, period: ExportPeriod, cursor: Cursor): Promise<Page> {
  const rows = await deps.db.orm
    .select({
      id: payments.id,
      createdAt: payments.createdAt,
      steamId: users.steamId,
      nickname: users.nickname,
      amount: payments.amount,
      status: payments.status,
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      email: payments.email,
      completedAt: payments.completedAt,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(keyset(payments.createdAt, payments.id, period, cursor))
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(EXPORT_PAGE_SIZE);
  let lines = "";
  for (const row of rows) {
    lines += csvLine([
      csvMoment(row.createdAt),
      csvText(row.id),
      csvText(row.steamId),
      csvText(row.nickname),
      csvRubles(row.amount),
      csvText(EXPORT_TEXT.paymentStatus[row.status] ?? row.status),
      csvText(row.provider),
      csvText(row.providerPaymentId),
      csvText(row.email),
      csvMoment(row.completedAt),
    ]);
  }
  const last = rows.at(-1);
  return { lines, count: rows.length, last: last ? { createdAt: last.createdAt, id: last.id } : null };
}

async function purchasesPage(deps: Pick<Deps, "db">, period: ExportPeriod, cursor: Cursor): Promise<Page> {
  const rows = await deps.db.orm
    .select({
      id: purchases.id,
      createdAt: purchases.createdAt,
      transactionId: purchases.transactionId,
      steamId: users.steamId,
      nickname: users.nickname,
      itemId: purchases.itemId,
      itemName: items.name,
      serverType: purchases.serverType,
      durationDays: purchases.durationDays,
      price: purchases.price,
      status: purchases.status,
      paidAt: purchases.paidAt,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .innerJoin(items, eq(items.id, purchases.itemId))
    .where(keyset(purchases.createdAt, purchases.id, period, cursor))
    .orderBy(asc(purchases.createdAt), asc(purchases.id))
    .limit(EXPORT_PAGE_SIZE);
  let lines = "";
  for (const row of rows) {
    lines += csvLine([
      csvMoment(row.createdAt),
      csvInteger(row.id),
      csvText(row.transactionId),
      csvText(row.steamId),
      csvText(row.nickname),
      csvInteger(row.itemId),
      csvText(row.itemName),
      csvText(row.serverType),
      csvInteger(row.durationDays),
      csvRubles(row.price),
      csvText(EXPORT_TEXT.purchaseStatus[row.status] ?? row.status),
      csvMoment(row.paidAt),
    ]);
  }
  const last = rows.at(-1);
  return { lines, count: rows.length, last: last ? { createdAt: last.createdAt, id: last.id } : null };
}

async function ledgerPage(deps: Pick<Deps, "db">, period: ExportPeriod, cursor: Cursor): Promise<Page> {
  const rows = await deps.db.orm
    .select({
      id: ledger.id,
      createdAt: ledger.createdAt,
      steamId: users.steamId,
      nickname: users.nickname,
      amount: ledger.amount,
      kind: ledger.kind,
      purchaseId: ledger.purchaseId,
      paymentId: ledger.paymentId,
      note: ledger.note,
    })
    .from(ledger)
    .innerJoin(users, eq(users.id, ledger.userId))
    .where(keyset(ledger.createdAt, ledger.id, period, cursor))
    .orderBy(asc(ledger.createdAt), asc(ledger.id))
    .limit(EXPORT_PAGE_SIZE);
  let lines = "";
  for (const row of rows) {
    lines += csvLine([
      csvMoment(row.createdAt),
      csvInteger(row.id),
      csvText(row.steamId),
      csvText(row.nickname),
      csvRubles(row.amount),
      csvText(EXPORT_TEXT.ledgerKind[row.kind] ?? row.kind),
      csvInteger(row.purchaseId),
      csvText(row.paymentId),
      csvText(row.note),
    ]);
  }
  const last = rows.at(-1);
  return { lines, count: rows.length, last: last ? { createdAt: last.createdAt, id: last.id } : null };
}

const PAGES: Record<ExportKind, typeof paymentsPage> = {
  payments: paymentsPage,
  purchases: purchasesPage,
  ledger: ledgerPage,
};

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
        const page = await PAGES[kind](deps, period, cursor);
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
