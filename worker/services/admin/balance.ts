import { sql } from "drizzle-orm";
import { z } from "zod";
import { ADMIN_TEXT } from "#core/messages/admin.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, statement } from "../../ports/database.ts";
import { auditStatement } from "./audit.ts";
import type { Operator } from "./roles.ts";

export const reasonSchema = z
  .string({ error: ADMIN_TEXT.reasonRequired })
  .trim()
  .min(3, ADMIN_TEXT.reasonRequired)
  .max(500, "Причина не длиннее 500 символов");

/** Rubles as the operator types them ("150", "-99,50") to kopecks. */
export const rublesSchema = z
  .string({ error: ADMIN_TEXT.amountInvalid })
  .trim()
  .regex(/^[-+]?\d{1,7}([.,]\d{1,2})?$/, ADMIN_TEXT.amountInvalid)
  .transform((value) => Math.round(Number(value.replace(",", ".")) * 100))
  .refine((kopecks) => kopecks !== 0, ADMIN_TEXT.amountZero)
  .refine((kopecks) => Math.abs(kopecks) <= 100_000_000, ADMIN_TEXT.amountTooLarge);

export const adjustBalanceSchema = z.object({ amount: rublesSchema, reason: reasonSchema });

export type AdminResult = { ok: true } | { ok: false; status: 400 | 403 | 404 | 409; error: string };

/**
 * Moves a player's balance by an operator's decision, in ONE batch: the journal row (before and
 * after read inside the transaction), a ledger row of its own kind `adjustment` carrying the reason,
 * and the balance change — CHECK (balance >= 0) aborts all three when it would go below zero.
 */
export async function adjustBalance(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: { userId: number; amount: number; reason: string },
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const { userId, reason } = input;
  // Bound numbers may arrive as REAL; the ledger and the journal keep whole kopecks.
  const amount = sql`CAST(${input.amount} AS INTEGER)`;
  const balance = sql`(SELECT balance FROM users WHERE id = ${userId})`;
  try {
    const [audit, ledger, update] = await deps.db.batch([
      auditStatement(
        {
          operator,
          action: "balance.adjust",
          targetType: "user",
          targetId: userId,
          before: sql`json_object('balance', ${balance})`,
          after: sql`json_object('balance', ${balance} + ${amount})`,
          reason,
          now,
        },
        sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId})`,
      ),
      statement(sql`INSERT INTO ledger (user_id, amount, kind, note, created_at)
        SELECT id, ${amount}, 'adjustment', ${reason}, ${now} FROM users WHERE id = ${userId}`),
      statement(sql`UPDATE users SET balance = balance + ${amount}, updated_at = ${now} WHERE id = ${userId}`),
    ]);
    if (audit?.changes !== 1 || ledger?.changes !== 1 || update?.changes !== 1) {
      return { ok: false, status: 404, error: ADMIN_TEXT.playerNotFound };
    }
    return { ok: true };
  } catch (error) {
    const violation = constraintViolation(error);
    if (violation?.kind === "CHECK" && violation.target === "users_balance_non_negative") {
      return { ok: false, status: 409, error: ADMIN_TEXT.belowZero };
    }
    throw error;
  }
}

export const blockSchema = z.object({
  blocked: z.enum(["1", "0"]).transform((value) => value === "1"),
  reason: reasonSchema,
});

/**
 * Blocks or unblocks a player's purchases. The journal row and the change share one batch and
 * one guard (the flag differs from the wanted state), so a repeat writes nothing.
 */
export async function setPurchasesBlocked(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  input: { userId: number; blocked: boolean; reason: string },
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const { userId, blocked, reason } = input;
  const wanted = blocked ? 1 : 0;
  const differs = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND purchases_blocked <> ${wanted})`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: blocked ? "player.block" : "player.unblock",
        targetType: "user",
        targetId: userId,
        before: { purchases_blocked: !blocked },
        after: { purchases_blocked: blocked },
        reason,
        now,
      },
      differs,
    ),
    statement(sql`UPDATE users SET purchases_blocked = ${wanted}, updated_at = ${now}
      WHERE id = ${userId} AND purchases_blocked <> ${wanted}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  const [exists] = await deps.db.orm.all(sql`SELECT 1 FROM users WHERE id = ${userId}`);
  return exists
    ? { ok: false, status: 409, error: ADMIN_TEXT.nothingChanged }
    : { ok: false, status: 404, error: ADMIN_TEXT.playerNotFound };
}
