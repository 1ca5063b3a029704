import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { read, statement } from "../../ports/database.ts";
import type { GameServer } from "./signature.ts";

// What a poll reads before it leases (decision 126). A busy day is 5 760 polls a server, nearly all with
// nothing due and fifty or more players online; a poll that asked about each online player, or read
// the deliveries waiting for players who are away (more of them as the history grows), read more rows
// than the free plan allows in a day.

export interface DueCheck {
  /** Whether the poll may have anything to lease (a superset of what the lease takes). */
  due: boolean;
  /** The online players who have a delivery waiting for them: the lease asks about them alone. */
  waiting: string[];
}

const WAITING_SQL = "SELECT steam_ids AS steamIds FROM deliveries_waiting WHERE server_type = ?1";
// A delivery that needs nobody online (a revoke, a grant that may run offline), due now.
const DUE_OFFLINE_SQL = `SELECT EXISTS (SELECT 1 FROM deliveries INDEXED BY deliveries_pending_offline
  WHERE status = 'pending' AND requires_online = 0 AND server_type = ?1 AND not_before <= ?2) AS due`;

function steamIdsOf(text: string | undefined): Set<string> {
  try {
    const parsed: unknown = JSON.parse(text ?? "[]");
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

/**
 * One round trip of two reads, a row or two: the players of the type with a delivery waiting for them
 * (deliveries_waiting, a superset kept by triggers), and whether a delivery that needs nobody online
 * is due. Only when an online player is among the waiting are their deliveries looked up.
 */
export async function checkDue(deps: Deps, server: GameServer, online: string[]): Promise<DueCheck> {
  const now = deps.now().getTime();
  const [waitingRows, offlineRows] = await deps.db.read([
    read<{ steamIds: string }>(WAITING_SQL, [server.serverType]),
    read<{ due: number }>(DUE_OFFLINE_SQL, [server.serverType, now]),
  ] as const);
  const waitingIds = steamIdsOf(waitingRows[0]?.steamIds);
  const waiting = online.filter((steamId) => waitingIds.has(steamId));
  if (offlineRows[0]?.due === 1) return { due: true, waiting };
  if (waiting.length === 0) return { due: false, waiting };
  const { rows } = await deps.db.run<{ due: number }>(
    statement(sql`SELECT EXISTS (SELECT 1 FROM deliveries INDEXED BY deliveries_pending_player
        WHERE steam_id IN (SELECT value FROM json_each(${JSON.stringify(waiting)}))
          AND server_type = ${server.serverType} AND status = 'pending' AND requires_online = 1
          AND not_before <= ${now}) AS due`),
  );
  return { due: rows[0]?.due === 1, waiting };
}

/** Rebuilds each type's waiting players from the pending deliveries (the hourly upkeep): drops those served since. */
export async function rebuildWaiting(deps: Deps): Promise<void> {
  await deps.db.run(
    statement(sql`UPDATE deliveries_waiting SET steam_ids = (
        SELECT json_group_array(DISTINCT steam_id) FROM deliveries INDEXED BY deliveries_pending_player
        WHERE status = 'pending' AND requires_online = 1 AND server_type = deliveries_waiting.server_type)`),
  );
}
