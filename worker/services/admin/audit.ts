import { desc, eq, is, lt, SQL, sql } from "drizzle-orm";
import { PAYMENT_ADMIN_TEXT } from "#core/messages/admin.ts";
import { auditLog, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import type { Operator } from "./roles.ts";

/** Every action the console can take, with its name in the journal. */
export const AUDIT_ACTIONS = {
  "balance.adjust": "Корректировка баланса",
  "player.block": "Покупки заблокированы",
  "player.unblock": "Покупки разблокированы",
  "purchase.refund": "Возврат покупки",
  "item.create": "Товар добавлен",
  "item.update": "Товар изменён",
  "item.hide": "Товар скрыт",
  "item.show": "Товар показан",
  "delivery.retry": "Доставка повторена",
  "delivery.cancel": "Доставка отменена",
  "promo.create": "Промокод создан",
  "promo.disable": "Промокод отключён",
  "server.add": "Сервер добавлен",
  "server.rotate_key": "Ключ сервера заменен",
  "server.remove": "Сервер удалён",
  "server.skip_resync": "Сайт перестал ждать сервер после восстановления",
  "server.wipe_schedule": "Расписание вайпов изменено",
  "server.fair_play_set": "Окно после вайпа задано",
  "server.fair_play_remove": "Окно после вайпа убрано",
  "payment.recheck": "Платёж проверен у провайдера",
  "payment.restore_credit": "Платёж зачислен после восстановления базы",
  "export.download": "Выгрузка CSV",
  "discord.settings": "Уведомления Discord изменены",
  "discord.drop": "Уведомление Discord не доставлено за сутки",
  "settings.returns": "Срок возврата покупок изменён",
  "sale.create": "Распродажа создана",
  "sale.end": "Распродажа завершена досрочно",
  "sale.wipe_create": "Распродажа на вайп создана",
  "sale.wipe_end": "Распродажа на вайп завершена",
  "category.create": "Категория добавлена",
  "category.rename": "Категория переименована",
  "category.move": "Порядок категорий изменён",
  "category.hide": "Категория скрыта",
  "category.show": "Категория показана",
  "category.delete": "Категория удалена",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The journal's role for what the site does by itself (decision 135): no operator's account. */
export const SITE_OPERATOR_ROLE = "site";

/** A value for the journal's before/after: a plain object, or SQL that builds the JSON inside the batch. */
export type AuditValue = Record<string, unknown> | SQL | null;

export interface AuditEntry {
  operator: Operator;
  action: AuditAction;
  targetType:
    | "user"
    | "purchase"
    | "item"
    | "promo"
    | "server"
    | "delivery"
    | "payment"
    | "export"
    | "discord"
    | "settings"
    | "sale"
    | "category"
    | "server_type";
  /** SQL for a row the same batch creates. */
  targetId: string | number | SQL;
  before: AuditValue;
  after: AuditValue;
  reason?: string | null;
  now: number;
}

function json(value: AuditValue): SQL {
  if (value === null) return sql`NULL`;
  return is(value, SQL) ? value : sql`${JSON.stringify(value)}`;
}

/**
 * The journal row of one operator action, to be put IN THE SAME BATCH as the change it records:
 * both are written or neither. `onlyIf` is SQL that must hold for the row to be written (the
 * action's own guard), so an action that changes nothing leaves no row. Before and after given as
 * SQL are read inside the transaction, so they are what the change really saw.
 */
export function auditStatement(entry: AuditEntry, onlyIf: SQL = sql`1`): Statement {
  return statement(sql`
    INSERT INTO audit_log
      (operator_user_id, operator_steam_id, operator_role, action, target_type, target_id, before, after, reason, created_at)
    SELECT ${entry.operator.userId}, ${entry.operator.steamId}, ${entry.operator.role}, ${entry.action},
      ${entry.targetType}, ${is(entry.targetId, SQL) ? sql`CAST(${entry.targetId} AS TEXT)` : String(entry.targetId)}, ${json(entry.before)}, ${json(entry.after)},
      ${entry.reason ?? null}, ${entry.now}
    WHERE ${onlyIf}`);
}

export interface AuditRow {
  id: number;
  createdAt: number;
  operatorSteamId: string;
  operatorNickname: string | null;
  operatorRole: string;
  action: string;
  actionLabel: string;
  targetType: string;
  targetId: string;
  before: string | null;
  after: string | null;
  reason: string | null;
}

export const AUDIT_PAGE_SIZE = 50;

/** The journal, newest first; `before` is the id to continue below (keyset pagination on the primary key). */
export async function listAudit(deps: Pick<Deps, "db">, options: { before?: number } = {}): Promise<AuditRow[]> {
  const rows = await deps.db.orm
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      operatorSteamId: auditLog.operatorSteamId,
      operatorNickname: users.nickname,
      operatorRole: auditLog.operatorRole,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      before: auditLog.before,
      after: auditLog.after,
      reason: auditLog.reason,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.operatorUserId))
    .where(options.before ? lt(auditLog.id, options.before) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE);
  return rows.map((row) => ({
    ...row,
    // The site's own lines (decision 135) are signed with the account they concern, not an operator's.
    operatorNickname: row.operatorRole === SITE_OPERATOR_ROLE ? PAYMENT_ADMIN_TEXT.siteOperator : row.operatorNickname,
    actionLabel: AUDIT_ACTIONS[row.action as AuditAction] ?? row.action,
  }));
}
