// Reading a player's money: the balance column and the ledger it must always equal.
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { ledger, users } from "#db/schema.ts";
import { testDeps } from "./deps.ts";

/** The balance column and the ledger's sum for a player (they must always agree). */
export async function balanceAndLedger(userId: number): Promise<{ balance: number; ledger: number }> {
  const rows = await testDeps().db.orm.all<{ balance: number; ledger: number }>(
    sql`SELECT (SELECT balance FROM users WHERE id = ${userId}) AS balance,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE user_id = ${userId}) AS ledger`,
  );
  const row = rows[0];
  if (!row || row.balance === null) throw new Error("no user");
  return row;
}

/** The balance column alone, in kopecks. */
export async function balanceOf(userId: number): Promise<number> {
  const [row] = await testDeps().db.orm.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error("no user");
  return row.balance;
}

/** A player's ledger rows. */
export function ledgerRows(userId: number) {
  return testDeps().db.orm.select().from(ledger).where(eq(ledger.userId, userId));
}

/** Asserts balance = sum(ledger) for each of `userIds` (all of them must exist). */
export async function expectBalancesMatchLedger(userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  const rows = await testDeps().db.orm.all<{ id: number; balance: number; total: number }>(
    sql`SELECT u.id, u.balance, (SELECT COALESCE(SUM(l.amount), 0) FROM ledger l WHERE l.user_id = u.id) AS total
     FROM users u WHERE u.id IN (SELECT value FROM json_each(${JSON.stringify(userIds)}))`,
  );
  expect(rows).toHaveLength(userIds.length);
  for (const row of rows) expect(row.balance, `user ${row.id}`).toBe(row.total);
}
