import { and, count, eq, sql } from "drizzle-orm";
import { kopecksToRubles } from "#core/format/money.ts";
import { type LedgerKind, statementDescription } from "#core/messages/statement.ts";
import type { StatementEntry } from "#core/profile/types.ts";
import type { PageRequest } from "#core/shop/pagination.ts";
import { ledger, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { ledgerRowsOf } from "./ledger-rows.ts";
import { isoOrNull } from "./time.ts";

// The balance statement «Движение средств» (decision 108): every ledger row of the player, newest
// first, with what it was and the balance right after it. The ledger is the balance's only source
// (balance = sum(ledger), every money movement writes its row in the same batch), so the running sum
// in ledger order is the balance after each movement, and the rows of all pages add up to the balance.

/** Rows on one page of /statement and of /api/balance/history when the client names no size. */
export const STATEMENT_PAGE_SIZE = 20;

export interface StatementRows {
  entries: StatementEntry[];
  /** Every movement of the player. */
  total: number;
  /** Kopecks: the balance column, which the sum of all rows equals. */
  balance: number;
}

/** One page of the player's own movements, newest first; another player's rows are never read. */
export async function listStatement(deps: Pick<Deps, "db">, userId: number, page: PageRequest): Promise<StatementRows> {
  // Ledger ids grow in commit order (AUTOINCREMENT), so they order movements as the balance saw them,
  // even when two batches took their timestamps in the other order. The balance after a movement is the
  // balance now less the movements after it: the page's own rows, and the newer pages' (none on the
  // first page). A running sum over every row of the player read each row and its joins on every view
  // (decision 126); this reads the page's rows, the newer pages' amounts and the count.
  const offset = (page.page - 1) * page.perPage;
  const [rows, totals, newer] = await deps.db.orm.batch([
    ledgerRowsOf(deps.db, userId).limit(page.perPage).offset(offset),
    deps.db.orm
      .select({
        total: count(),
        balance: sql<number>`(SELECT ${users.balance} FROM ${users} WHERE ${users.id} = ${userId})`,
      })
      .from(ledger)
      .where(eq(ledger.userId, userId)),
    deps.db.orm
      .select({
        amount: sql<
          number | null
        >`(SELECT SUM(n.amount) FROM (SELECT amount FROM ledger WHERE user_id = ${userId} ORDER BY id DESC LIMIT ${offset}) n)`,
      })
      .from(users)
      .where(eq(users.id, userId)),
  ]);
  let after = Number(totals[0]?.balance ?? 0) - Number(newer[0]?.amount ?? 0);
  const withBalance = rows.map((row) => {
    const balanceAfter = after;
    after -= row.amount;
    return { ...row, balanceAfter };
  });
  const entries = withBalance.map(
    (row): StatementEntry => ({
      id: row.id,
      created_at: isoOrNull(row.createdAt),
      kind: row.kind,
      amount: kopecksToRubles(row.amount),
      description: statementDescription({ ...row, kind: row.kind as LedgerKind }),
      item_name: row.itemName,
      promo_code: row.promoCode,
      note: row.note,
      balance_after: kopecksToRubles(Number(row.balanceAfter)),
    }),
  );
  return { entries, total: totals[0]?.total ?? 0, balance: Number(totals[0]?.balance ?? 0) };
}

/**
 * Kopecks on the player's balance right after one of their purchases, as the statement shows it
 * beside that purchase's row: the balance now less every later movement (issue 46). Null when the
 * purchase is not the player's or moved no money.
 */
export async function balanceAfterPurchase(
  deps: Pick<Deps, "db">,
  userId: number,
  purchaseId: number,
): Promise<number | null> {
  const [row] = await deps.db.orm
    .select({
      after: sql<number>`${users.balance} - COALESCE((SELECT SUM(n.amount) FROM ledger n
        WHERE n.user_id = ${users.id} AND n.id > ${ledger.id}), 0)`,
    })
    .from(ledger)
    .innerJoin(users, eq(users.id, ledger.userId))
    .where(and(eq(ledger.userId, userId), eq(ledger.purchaseId, purchaseId), eq(ledger.kind, "purchase")))
    .limit(1);
  return row ? Number(row.after) : null;
}
