import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { ringDoorbell } from "./doorbell.ts";
import { recordScheduledWipes } from "./fair-play.ts";
import { insertDeliveries, type NewDelivery } from "./insert-deliveries.ts";
import { effectServersOf, splitRevokeStatements } from "./revoke-targets.ts";

// «До вайпа» ends at the wipe (decision 130). A server's last wipe (servers.last_wipe_at: a new map
// its plugin reported, or its scheduled time passing) ends every «до вайпа» entry delivered there
// before it: the entry's end becomes the wipe, and its revoke is queued, due at once, for that server.
// The revoke is an ordinary one: exactly once (UNIQUE(entry, kind), decision 124's ids), retired when
// the player holds the rank there longer (decision 063), stranded when the server is gone. An entry whose
// grant a hand-off split (decision 132) ends with the wipe of its own server, the one the site counts it
// on; its revoke then goes to every server where the grant took effect. Another server's wipe ends
// nothing of it: the entry has one end, and the part there goes with it.

interface Ended extends NewDelivery {
  hasRevoke: number;
  grantProgress: string | null;
}

/**
 * Ends the «до вайпа» entries a wipe has passed: of one server (its heartbeat just recorded a new map)
 * or of every server (the minutely job, after a scheduled wipe). The read goes through
 * inventory_until_wipe_running, which holds only running «до вайпа» entries, so a run with nothing
 * to end reads one row per server. The end and the revoke are written in one batch; a run that dies
 * before it leaves both for the next.
 */
export async function endWipedEntries(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  serverId: number | null,
): Promise<number> {
  const { rows } = await deps.db.run<Ended>(
    statement(sql`SELECT e.id AS entryId, e.created_at AS entryCreatedAt, e.server_type AS serverType,
         u.steam_id AS steamId, 0 AS requiresOnline, s.last_wipe_at AS notBefore,
         EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = 'revoke') AS hasRevoke,
         (SELECT g.progress FROM deliveries g WHERE g.inventory_entry_id = e.id AND g.kind = 'grant') AS grantProgress
       FROM servers s
       CROSS JOIN inventory_entries e INDEXED BY inventory_until_wipe_running
       JOIN users u ON u.id = e.user_id
       -- One server by its key (an acknowledgement, a heartbeat), not a scan of them all with "? IS NULL OR".
       WHERE s.last_wipe_at IS NOT NULL AND ${serverId === null ? sql`1` : sql`s.id = ${serverId}`}
         AND e.used_server_id = s.id AND e.status = 'used' AND e.duration_days = 0 AND e.expires_at IS NULL
         AND e.used_at < s.last_wipe_at`),
  );
  if (rows.length === 0) return 0;
  const ends = JSON.stringify(rows.map((row) => [row.entryId, row.notBefore]));
  const revoked = rows.filter((row) => row.hasRevoke === 1);
  const splits = revoked.map((row) => ({ ...row, servers: effectServersOf(row.grantProgress) }));
  await insertDeliveries(deps, "revoke", revoked, [
    statement(sql`UPDATE inventory_entries
        SET expires_at = (SELECT json_extract(j.value, '$[1]') FROM json_each(${ends}) j
          WHERE json_extract(j.value, '$[0]') = inventory_entries.id)
        WHERE id IN (SELECT json_extract(value, '$[0]') FROM json_each(${ends}))
          AND status = 'used' AND duration_days = 0 AND expires_at IS NULL`),
    ...(await splitRevokeStatements(splits, deps.now().getTime())),
  ]);
  ringDoorbell(
    deps,
    revoked.map((row) => row.serverType),
  );
  console.log(JSON.stringify({ event: "until_wipe_ended", server: serverId, entries: rows.map((row) => row.entryId) }));
  return rows.length;
}

/**
 * The minutely cron's wipe step: a scheduled wipe that passed becomes its server's last wipe (decision
 * 129), and the «до вайпа» entries it passed end, whether or not the server is up (decision 130).
 */
export async function runScheduledWipes(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
): Promise<{ servers: number; untilWipeEnded: number }> {
  const servers = await recordScheduledWipes(deps);
  return { servers, untilWipeEnded: await endWipedEntries(deps, null) };
}
