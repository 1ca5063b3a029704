import { sql } from "drizzle-orm";
import { rawSql, statement } from "../../ports/database.ts";
import { alive, sameRank } from "./delivery-rules.ts";
import { grantWaitsSql } from "./fair-play.ts";
import { kindOf, revokeServer } from "./revoke-targets.ts";
import type { GameServer } from "./signature.ts";

// Which delivery a server takes: the leasing rule in named parts (decision 124). Each part is a
// condition on a delivery `d` of entry `e`; `leasable()` is their conjunction.

/** A delivery the plugin was served and did not start (player not ready, no room): its lease ends unbound. */
export interface Skipped {
  delivery_id: string;
  lease: number;
}

/** Pending and due on this server's type, not held by a running lease nor by a save it waits for. */
function dueAndFree(server: GameServer, now: number) {
  return sql`d.server_type = ${server.serverType} AND d.status = 'pending' AND d.not_before <= ${now}
    -- Given and not yet saved: its server reports it after the next save.
    AND d.saving_since IS NULL
    AND (d.lease_until IS NULL OR d.lease_until <= ${now})`;
}

/**
 * Bound to its home, or to the holder of a lease it never reported, while that server lives;
 * a reported delivery whose home is gone moves on with its progress.
 */
function boundHere(server: GameServer, now: number) {
  const bound = rawSql("CASE WHEN d.lease_until IS NOT NULL THEN d.leased_server_id ELSE d.home_server_id END");
  return sql`(${bound} IS NULL OR ${bound} = ${server.id}
      OR (d.lease_until IS NULL AND NOT ${alive("d.home_server_id", "d.server_type", now)}))`;
}

/** Its commands are fixed, or its item has templates to fix them from. */
function hasCommands() {
  return sql`(d.commands IS NOT NULL OR EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = ${kindOf("d")}))`;
}

/** After a restore from a backup, nothing of the type moves until each of its servers has said what it ran. */
function typeResynced() {
  return sql`NOT EXISTS (SELECT 1 FROM servers rs WHERE rs.server_type = d.server_type AND rs.needs_resync = 1)`;
}

/** A grant only for an entry still waiting: one returned by its buyer is never handed out (decision 111). */
function grantStillWaiting() {
  return sql`(d.kind <> 'grant' OR e.status = 'not_used')`;
}

/** The rank lives in the Oxide of the server that granted it; a split grant's twin revokes on its own (decision 132). */
function revokeOnItsServer(server: GameServer) {
  return sql`(d.kind = 'grant' OR ${revokeServer("d", "e")} = ${server.id})`;
}

/** A grant waits out this server's fair-play window after its wipe (decision 129). */
function outsideFairPlayWindow(server: GameServer, now: number) {
  return sql`(d.kind <> 'grant' OR NOT ${grantWaitsSql(server.id, now)})`;
}

/**
 * What makes a pending, due delivery `d` (of entry `e`) leasable by `server` now, besides its player
 * being online (decision 124). The lease and the poll's check before it (poll.ts) share it, so a
 * delivery that waits for another server, a save or an operator makes no poll write anything.
 */
export function leasable(server: GameServer, now: number) {
  return sql`${dueAndFree(server, now)}
    AND ${boundHere(server, now)}
    AND ${hasCommands()}
    AND ${typeResynced()}
    AND ${grantStillWaiting()}
    AND ${revokeOnItsServer(server)}
    AND ${outsideFairPlayWindow(server, now)}`;
}

/**
 * The pending deliveries of the online players and the due ones that need nobody online, never
 * those waiting for players who are away (decision 126): read through their partial indexes.
 */
export function candidates(server: GameServer, onlineJson: string, now: number) {
  return sql`SELECT id FROM deliveries INDEXED BY deliveries_pending_player
             WHERE status = 'pending' AND requires_online = 1 AND server_type = ${server.serverType}
               AND steam_id IN (SELECT value FROM json_each(${onlineJson}))
             UNION ALL
             SELECT id FROM deliveries INDEXED BY deliveries_pending_offline
             WHERE status = 'pending' AND requires_online = 0 AND server_type = ${server.serverType} AND not_before <= ${now}`;
}

/**
 * A revoke waits while a grant of the same rank is leased to this server and not yet acknowledged:
 * revoking now would undo it. Read through the player's entries, not every pending grant (decision 126).
 */
export function noUnackedGrantOfRank(server: GameServer) {
  return sql`(d.kind = 'grant' OR NOT EXISTS (
             SELECT 1 FROM inventory_entries ge CROSS JOIN deliveries g INDEXED BY deliveries_entry_kind ON g.inventory_entry_id = ge.id
             WHERE g.kind = 'grant' AND g.status = 'pending' AND g.leased_server_id = ${server.id}
               AND ge.user_id = e.user_id AND ${sameRank("ge", "e")}))`;
}

/** Ends unbound the leases of the deliveries the plugin says it did not start (`skipped`). */
export function releaseSkipped(server: GameServer, skipped: readonly Skipped[]) {
  return skipped.length === 0
    ? []
    : [
        statement(sql`UPDATE deliveries SET lease_until = NULL,
               leased_server_id = CASE WHEN home_server_id IS NULL THEN NULL ELSE leased_server_id END
             WHERE id IN (SELECT json_extract(j.value, '$[0]') FROM json_each(${JSON.stringify(skipped.map((s) => [s.delivery_id, s.lease]))}) j
                 WHERE json_extract(j.value, '$[1]') = deliveries.lease_seq)
               AND leased_server_id = ${server.id} AND status = 'pending' AND lease_until IS NOT NULL AND saving_since IS NULL`),
      ];
}
