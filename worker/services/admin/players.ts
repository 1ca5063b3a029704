import { desc, eq, like, or, sql } from "drizzle-orm";
import { z } from "zod";
import { deliveries, inventoryEntries, items, ledger, payments, purchases, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { deliveryKind } from "../game/revoke-targets.ts";
import { ledgerRowsOf } from "../profile/ledger-rows.ts";

export const playerSearchSchema = z.string().trim().max(64).catch("");

export interface PlayerListRow {
  id: number;
  steamId: string;
  nickname: string;
  balance: number;
  purchasesBlocked: boolean;
  createdAt: number;
}

const SEARCH_LIMIT = 50;

/** Players by exact SteamID64 or a part of the nickname; the newest players when the query is blank. */
export async function searchPlayers(deps: Pick<Deps, "db">, query: string): Promise<PlayerListRow[]> {
  const columns = {
    id: users.id,
    steamId: users.steamId,
    nickname: users.nickname,
    balance: users.balance,
    purchasesBlocked: users.purchasesBlocked,
    createdAt: users.createdAt,
  };
  const base = deps.db.orm.select(columns).from(users);
  if (query === "") return base.orderBy(desc(users.id)).limit(20);
  // LIKE wildcards typed by the operator are taken literally.
  const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const nickname = sql`${users.nickname} LIKE ${pattern} ESCAPE '\\'`;
  return base
    .where(/^\d{17}$/.test(query) ? or(eq(users.steamId, query), nickname) : or(like(users.steamId, pattern), nickname))
    .orderBy(desc(users.id))
    .limit(SEARCH_LIMIT);
}

const HISTORY_LIMIT = 200;

/** Everything the console shows about one player: balance, ledger with reasons, purchases, Корзина, deliveries, top-ups. */
export async function playerDetail(deps: Pick<Deps, "db">, steamId: string) {
  const [user] = await deps.db.orm.select().from(users).where(eq(users.steamId, steamId)).limit(1);
  if (!user) return null;
  // One round trip. orm.batch keys each row by column name, so no query here may select two columns of one name.
  const [ledgerRows, purchaseRows, inventoryRows, deliveryRows, paymentRows, ledgerSum] = await deps.db.orm.batch([
    ledgerRowsOf(deps.db, user.id).limit(HISTORY_LIMIT),
    deps.db.orm
      .select({
        id: purchases.id,
        transactionId: purchases.transactionId,
        itemName: items.name,
        serverType: purchases.serverType,
        durationDays: purchases.durationDays,
        price: purchases.price,
        status: purchases.status,
        paidAt: purchases.paidAt,
        // A gift's friend (decision 114).
        giftTo: sql<string | null>`(SELECT f.nickname FROM users f WHERE f.id = ${purchases.giftToUserId})`,
      })
      .from(purchases)
      .innerJoin(items, eq(items.id, purchases.itemId))
      .where(eq(purchases.userId, user.id))
      .orderBy(desc(purchases.id))
      .limit(HISTORY_LIMIT),
    deps.db.orm
      .select({
        id: inventoryEntries.id,
        itemName: items.name,
        serverType: inventoryEntries.serverType,
        durationDays: inventoryEntries.durationDays,
        isPermanent: inventoryEntries.isPermanent,
        status: inventoryEntries.status,
        purchaseId: inventoryEntries.purchaseId,
        expiresAt: inventoryEntries.expiresAt,
        lastError: inventoryEntries.lastError,
        createdAt: inventoryEntries.createdAt,
      })
      .from(inventoryEntries)
      .innerJoin(items, eq(items.id, inventoryEntries.itemId))
      .where(eq(inventoryEntries.userId, user.id))
      .orderBy(desc(inventoryEntries.id))
      .limit(HISTORY_LIMIT),
    deps.db.orm
      .select({
        id: deliveries.id,
        kind: deliveryKind,
        itemName: items.name,
        serverType: deliveries.serverType,
        status: deliveries.status,
        attempts: deliveries.attempts,
        lastError: deliveries.lastError,
        doneAt: deliveries.doneAt,
        createdAt: deliveries.createdAt,
      })
      .from(deliveries)
      .innerJoin(inventoryEntries, eq(inventoryEntries.id, deliveries.inventoryEntryId))
      .innerJoin(items, eq(items.id, inventoryEntries.itemId))
      .where(eq(inventoryEntries.userId, user.id))
      .orderBy(desc(deliveries.createdAt))
      .limit(HISTORY_LIMIT),
    deps.db.orm
      .select({
        id: payments.id,
        providerPaymentId: payments.providerPaymentId,
        amount: payments.amount,
        status: payments.status,
        createdAt: payments.createdAt,
        completedAt: payments.completedAt,
      })
      .from(payments)
      .where(eq(payments.userId, user.id))
      .orderBy(desc(payments.createdAt))
      .limit(HISTORY_LIMIT),
    deps.db.orm
      .select({ sum: sql<number>`COALESCE(SUM(${ledger.amount}), 0)` })
      .from(ledger)
      .where(eq(ledger.userId, user.id)),
  ]);
  return {
    user: {
      id: user.id,
      steamId: user.steamId,
      nickname: user.nickname,
      avatarUrl: user.avatarUrl,
      balance: user.balance,
      purchasesBlocked: user.purchasesBlocked,
      createdAt: user.createdAt,
    },
    ledgerSum: ledgerSum[0]?.sum ?? 0,
    ledger: ledgerRows.map((row) => ({ ...row, reason: ledgerReason(row) })),
    purchases: purchaseRows,
    inventory: inventoryRows,
    deliveries: deliveryRows,
    payments: paymentRows,
  };
}

export type PlayerDetail = NonNullable<Awaited<ReturnType<typeof playerDetail>>>;

/** Why the money moved, in the console's words. */
export function ledgerReason(row: {
  kind: string;
  note: string | null;
  itemName: string | null;
  purchaseId: number | null;
  paymentId: string | null;
  promoCode: string | null;
}): string {
  switch (row.kind) {
    case "purchase":
      return `Покупка №${row.purchaseId} «${row.itemName ?? "?"}»`;
    case "refund":
      // An operator's refund of a purchase, or the provider's refund of a deposit (decision 097).
      return row.purchaseId !== null
        ? `Возврат покупки №${row.purchaseId} «${row.itemName ?? "?"}»: ${row.note ?? ""}`
        : `Возврат платежа ${row.paymentId ?? ""} банком`.replace("  ", " ");
    case "refund_debt":
      return `Погашение долга после возврата платежа ${row.paymentId ?? ""}`.trim();
    case "deposit":
      return row.paymentId ? `Пополнение ${row.paymentId}` : "Пополнение";
    case "promo":
      return `Промокод ${row.promoCode ?? ""}`.trim();
    case "adjustment":
      return `Корректировка: ${row.note ?? "начальный баланс"}`;
    default:
      return row.kind;
  }
}
