import { eq } from "drizzle-orm";
import { type OperatorRole, operators } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { read } from "../../ports/database.ts";
import { SESSION_PLAYER_SQL, type SessionKey, type SessionUser } from "../auth/sessions.ts";

/** A signed-in player with an operator role. */
export interface Operator {
  userId: number;
  steamId: string;
  nickname: string;
  role: OperatorRole;
}

/**
 * What each part of the console needs. `support` helps players (reads, refunds up to a limit,
 * blocking, deliveries); money out of nothing, the catalog, promo codes and server keys are the
 * admin's.
 */
export const PERMISSIONS = {
  console: ["admin", "support"],
  players: ["admin", "support"],
  blockPlayer: ["admin", "support"],
  refund: ["admin", "support"],
  deliveries: ["admin", "support"],
  payments: ["admin", "support"],
  adjustBalance: ["admin"],
  catalog: ["admin"],
  promos: ["admin"],
  servers: ["admin"],
  exportPurchases: ["admin", "support"],
  exportAll: ["admin"],
  discord: ["admin"],
  shopSettings: ["admin"],
  sales: ["admin"],
} as const satisfies Record<string, readonly OperatorRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/** The largest refund support may give, in kopecks; larger ones are the admin's. */
export const SUPPORT_REFUND_LIMIT = 100_000;

export function allows(operator: Pick<Operator, "role">, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly OperatorRole[]).includes(operator.role);
}

/**
 * The player's operator role: admin when ADMIN_STEAM_IDS lists them (the settings can't be
 * changed from the console, so they always win), else the role `npm run admins` stored, else none.
 */
export async function operatorOf(
  deps: Pick<Deps, "db" | "config">,
  user: Pick<SessionUser, "id" | "steamId" | "nickname">,
): Promise<Operator | null> {
  if (deps.config.adminSteamIds.includes(user.steamId)) return toOperator(deps, user, []);
  const rows = await deps.db.orm
    .select({ role: operators.role })
    .from(operators)
    .where(eq(operators.steamId, user.steamId))
    .limit(1);
  return toOperator(deps, user, rows);
}

const STORED_ROLE_SQL = `SELECT role FROM operators
  WHERE steam_id = (SELECT steam_id FROM users WHERE id = ${SESSION_PLAYER_SQL}) LIMIT 1`;

/** The stored role of the session's player, read in the session's own round trip (decision 115). */
export const sessionStoredRoleRead = (key: SessionKey) => read<{ role: OperatorRole }>(STORED_ROLE_SQL, key);

/** The operator `user` is, from the settings' admins and the stored role rows read for them. */
export function toOperator(
  deps: Pick<Deps, "config">,
  user: Pick<SessionUser, "id" | "steamId" | "nickname">,
  storedRole: readonly { role: OperatorRole }[],
): Operator | null {
  const base = { userId: user.id, steamId: user.steamId, nickname: user.nickname };
  if (deps.config.adminSteamIds.includes(user.steamId)) return { ...base, role: "admin" };
  const [row] = storedRole;
  return row ? { ...base, role: row.role } : null;
}
