import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Deps } from "../../deps.ts";
import { rawSql, read, type Statement, statement } from "../../ports/database.ts";

const DAY = 86_400_000;
// Days start at midnight Moscow time (UTC+3 all year): the operators' day, not the server's.
const MSK_OFFSET = 3 * 3_600_000;
export const SUMMARY_DAYS = 30;

export interface SummaryPeriods {
  today: number;
  week: number;
  month: number;
}

/** The starts of today, the last 7 and the last 30 days (each including today), in epoch ms. */
export function summaryPeriods(now: number): SummaryPeriods {
  const today = Math.floor((now + MSK_OFFSET) / DAY) * DAY - MSK_OFFSET;
  return { today, week: today - 6 * DAY, month: today - (SUMMARY_DAYS - 1) * DAY };
}

/**
 * The summary's reads. Each filters on (status, time) and reads only columns of the covering
 * indexes purchases_status_paid and payments_status_completed, so a month of sums costs one index
 * range however many rows the tables hold (EXPLAIN QUERY PLAN in decision 096 and its test).
 */
export function summaryStatements(periods: SummaryPeriods): Record<string, Statement> {
  const { today, week, month } = periods;
  // Integer constants of ours inlined, so the division is an integer one (bound numbers may be REAL).
  const msk = rawSql(String(MSK_OFFSET));
  const day = rawSql(String(DAY));
  return {
    topUps: statement(sql`SELECT
        COALESCE(SUM(CASE WHEN completed_at >= ${today} THEN amount END), 0) AS today,
        COALESCE(SUM(CASE WHEN completed_at >= ${week} THEN amount END), 0) AS week,
        COALESCE(SUM(amount), 0) AS month,
        COUNT(DISTINCT CASE WHEN completed_at >= ${today} THEN user_id END) AS payersToday,
        COUNT(DISTINCT CASE WHEN completed_at >= ${week} THEN user_id END) AS payersWeek,
        COUNT(DISTINCT user_id) AS payersMonth
      FROM payments WHERE status = 'completed' AND completed_at >= ${month}`),
    topItems: statement(sql`SELECT t.item_id AS itemId, i.name, i.server_type AS serverType, t.count, t.revenue
      FROM (SELECT item_id, COUNT(*) AS count, SUM(price) AS revenue FROM purchases
            WHERE status = 'completed' AND paid_at >= ${month} GROUP BY item_id) t
      JOIN items i ON i.id = t.item_id
      ORDER BY t.revenue DESC, t.count DESC LIMIT 10`),
    purchasesByDay: statement(sql`SELECT (paid_at + ${msk}) / ${day} AS day, COUNT(*) AS count, SUM(price) AS total
      FROM purchases WHERE status = 'completed' AND paid_at >= ${month} GROUP BY day`),
    topUpsByDay: statement(sql`SELECT (completed_at + ${msk}) / ${day} AS day, COUNT(*) AS count, SUM(amount) AS total
      FROM payments WHERE status = 'completed' AND completed_at >= ${month} GROUP BY day`),
  };
}

export interface SummaryDay {
  /** Midnight (Moscow) starting the day, epoch ms. */
  start: number;
  purchases: { count: number; total: number };
  topUps: { count: number; total: number };
}

type Totals = { today: number; week: number; month: number };

export interface Summary {
  purchases: Totals & { count: number };
  topUps: Totals;
  payers: Totals;
  topItems: { itemId: number; name: string; serverType: string; count: number; revenue: number }[];
  days: SummaryDay[];
}

type Row = Record<string, number>;

export interface SummaryStateRow {
  state: string;
}

/** The newest ids of the ledger, purchases and payments: three primary-key lookups naming the summed data's state. */
export const summaryStateRead = () =>
  read<SummaryStateRow>(`SELECT COALESCE((SELECT MAX(id) FROM ledger), 0) || ':' || COALESCE((SELECT MAX(id) FROM purchases), 0)
      || ':' || COALESCE((SELECT MAX(rowid) FROM payments), 0) AS state`);

/** A computed summary is kept this long at most; a new ledger row or purchase replaces it at once. */
const SUMMARY_CACHE_SECONDS = 60;

// The key names the data's state and the day, so the isolate keeps the last few summaries in memory
// too, for as long as the key-value store would, and answers a reload without its read (decision 115).
const recentSummaries = new LRUCache<string, Summary>({ max: 4, ttl: SUMMARY_CACHE_SECONDS * 1000 });

/**
 * The summary, computed once per change of the data it sums. Every money movement writes a ledger
 * row, every purchase and top-up a row of its own, so the newest ids of the three (primary-key
 * lookups) name the data's state: reloading /admin costs three lookups and a key-value read instead
 * of a month of sums, and any change is seen on the next load.
 */
export async function loadSummary(
  deps: Pick<Deps, "db" | "kv" | "now">,
  /** The state's rows when the caller read them in its own batch (summaryStateRead). */
  stateRows?: readonly SummaryStateRow[],
): Promise<Summary> {
  const periods = summaryPeriods(deps.now().getTime());
  const rows = stateRows ?? (await deps.db.read([summaryStateRead()] as const))[0];
  const key = `admin-summary:v1:${periods.today}:${rows[0]?.state ?? ""}`;
  const recent = recentSummaries.get(key);
  if (recent) return recent;
  const cached = await deps.kv.get(key);
  if (cached !== null) {
    const summary = JSON.parse(cached) as Summary;
    recentSummaries.set(key, summary);
    return summary;
  }
  const summary = await computeSummary(deps, periods);
  await deps.kv.put(key, JSON.stringify(summary), { expirationTtlSeconds: SUMMARY_CACHE_SECONDS });
  recentSummaries.set(key, summary);
  return summary;
}

async function computeSummary(deps: Pick<Deps, "db">, periods: SummaryPeriods): Promise<Summary> {
  const statements = summaryStatements(periods);
  // Reads only, sent together: one round trip.
  const [topUps, topItems, purchasesByDay, topUpsByDay] = await deps.db.batch([
    statements.topUps,
    statements.topItems,
    statements.purchasesByDay,
    statements.topUpsByDay,
  ] as Statement[]);
  const t = (topUps?.rows[0] ?? {}) as Row;
  const byDay = (rows: Row[] | undefined) => new Map((rows ?? []).map((row) => [row.day, row]));
  const purchaseDays = byDay(purchasesByDay?.rows as Row[]);
  const topUpDays = byDay(topUpsByDay?.rows as Row[]);
  const firstDay = (periods.month + MSK_OFFSET) / DAY;
  const days = Array.from({ length: SUMMARY_DAYS }, (_, index) => {
    const day = firstDay + index;
    const bought = purchaseDays.get(day);
    const paid = topUpDays.get(day);
    return {
      start: day * DAY - MSK_OFFSET,
      purchases: { count: bought?.count ?? 0, total: bought?.total ?? 0 },
      topUps: { count: paid?.count ?? 0, total: paid?.total ?? 0 },
    };
  });
  // Purchase totals come from the per-day rows: one index range fewer than a query of their own.
  const sum = (from: number) =>
    days.filter((day) => day.start >= from).reduce((total, day) => total + day.purchases.total, 0);
  return {
    purchases: {
      today: sum(periods.today),
      week: sum(periods.week),
      month: sum(periods.month),
      count: days.reduce((total, day) => total + day.purchases.count, 0),
    },
    topUps: { today: t.today ?? 0, week: t.week ?? 0, month: t.month ?? 0 },
    payers: { today: t.payersToday ?? 0, week: t.payersWeek ?? 0, month: t.payersMonth ?? 0 },
    topItems: (topItems?.rows ?? []) as Summary["topItems"],
    days,
  };
}
