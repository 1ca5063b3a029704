import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import type { GameServer } from "./signature.ts";

export interface WaitingItem {
  name: string;
  duration_days: number | null;
  failed: boolean;
}

/**
 * What is waiting for a player on this server's type (for the plugin's /store chat command), oldest
 * first, at most 50. Leases nothing. It reads only the player's waiting entries, in order, through
 * `inventory_user_ongoing` (user_id, status, expires_at): not the delivered ones that are the bulk of a
 * history, so it costs the same at 10 and 1 000 purchases (decision 156). A waiting entry's `expires_at`
 * is NULL (it is set when the entry starts running), so ordering by it first is the id order, and the
 * index gives the rows in that order: the LIMIT stops the walk, no sort of every waiting entry.
 */
export async function pendingForPlayer(deps: Deps, server: GameServer, steamId: string): Promise<WaitingItem[]> {
  const rows = await deps.db.run<{
    name: string;
    duration_days: number | null;
    is_permanent: number;
    last_error: string | null;
  }>(
    statement(sql`SELECT i.name, e.duration_days, e.is_permanent, e.last_error
       FROM users u JOIN inventory_entries e INDEXED BY inventory_user_ongoing ON e.user_id = u.id
         JOIN items i ON i.id = e.item_id
       WHERE u.steam_id = ${steamId} AND e.status = 'not_used' AND e.server_type = ${server.serverType}
         -- In the player's inventory already, waiting only for the world's save (decision 124).
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
           AND d.status = 'pending' AND d.saving_since IS NOT NULL)
       ORDER BY e.expires_at, e.id LIMIT 50`),
  );
  return rows.rows.map((row) => ({
    name: row.name,
    duration_days: row.is_permanent || row.duration_days === 0 ? null : row.duration_days,
    failed: row.last_error !== null,
  }));
}
