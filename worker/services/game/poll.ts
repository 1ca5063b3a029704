import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Read, statement } from "../../ports/database.ts";
import { leasable } from "./lease-rule.ts";
import { parseIds } from "./queue-deliveries.ts";
import type { GameServer } from "./signature.ts";

// What a poll reads before it leases (decision 126). A busy day is 5 760 polls a server, nearly all with
// nothing due and fifty or more players online; a poll that asked about each online player, or read
// the deliveries waiting for players who are away (more of them as the history grows), read more rows
// than the free plan allows in a day.

export interface DueCheck {
  /**
   * Whether the poll has anything to do: a delivery it may lease now (decision 124's rules, less the
   * same-rank guard, so a superset), or new entries whose grants it must queue.
   */
  due: boolean;
  /** The online players who have a delivery waiting for them: the lease asks about them alone. */
  waiting: string[];
  /** The entries made since the type's last poll, whose grant deliveries this poll queues. */
  newEntries: number[];
}

function steamIdsOf(text: string | undefined): Set<string> {
  try {
    const parsed: unknown = JSON.parse(text ?? "[]");
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

/**
 * One round trip of two reads, a row or a few: the type's row of deliveries_waiting (the players
 * with a delivery waiting for them, a superset kept by triggers, and the entries made since the last
 * poll), and whether a delivery that needs nobody online is leasable here now. Only when an online
 * player is among the waiting are their deliveries looked up, in a second round trip.
 */
export async function checkDue(deps: Deps, server: GameServer, online: string[]): Promise<DueCheck> {
  const now = deps.now().getTime();
  const [waitingRows, offlineRows] = await deps.db.read([
    statement(
      sql`SELECT steam_ids AS steamIds, entry_ids AS entryIds FROM deliveries_waiting WHERE server_type = ${server.serverType}`,
    ) as Read<{ steamIds: string; entryIds: string }>,
    statement(sql`SELECT EXISTS (SELECT 1 FROM deliveries AS d INDEXED BY deliveries_pending_offline
        JOIN inventory_entries e ON e.id = d.inventory_entry_id
        WHERE d.status = 'pending' AND d.requires_online = 0 AND d.server_type = ${server.serverType}
          AND d.not_before <= ${now} AND ${leasable(server, now)}) AS due`) as Read<{ due: number }>,
  ] as const);
  const waitingIds = steamIdsOf(waitingRows[0]?.steamIds);
  const waiting = online.filter((steamId) => waitingIds.has(steamId));
  const newEntries = parseIds(waitingRows[0]?.entryIds);
  if (offlineRows[0]?.due === 1 || newEntries.length > 0) return { due: true, waiting, newEntries };
  if (waiting.length === 0) return { due: false, waiting, newEntries };
  const { rows } = await deps.db.run<{ due: number }>(
    statement(sql`SELECT EXISTS (SELECT 1 FROM deliveries AS d INDEXED BY deliveries_pending_player
        JOIN inventory_entries e ON e.id = d.inventory_entry_id
        WHERE d.steam_id IN (SELECT value FROM json_each(${JSON.stringify(waiting)}))
          AND d.server_type = ${server.serverType} AND d.status = 'pending' AND d.requires_online = 1
          AND ${leasable(server, now)}) AS due`),
  );
  return { due: rows[0]?.due === 1, waiting, newEntries };
}

/** Rebuilds each type's waiting players from the pending deliveries (the hourly upkeep): drops those served since. */
export async function rebuildWaiting(deps: Deps): Promise<void> {
  await deps.db.run(
    statement(sql`UPDATE deliveries_waiting SET steam_ids = (
        SELECT json_group_array(DISTINCT steam_id) FROM deliveries INDEXED BY deliveries_pending_player
        WHERE status = 'pending' AND requires_online = 1 AND server_type = deliveries_waiting.server_type)`),
  );
}
