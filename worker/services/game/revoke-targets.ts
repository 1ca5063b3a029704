import { sql } from "drizzle-orm";
import { deliveries } from "#db/schema.ts";
import { rawSql, type Statement, statement } from "../../ports/database.ts";
import { deliveryIdFor } from "./delivery-id.ts";
import { type CommandProgress, readProgress } from "./progress.ts";

// Where a revoke runs (decisions 063, 132). A rank lives in the Oxide of each server where a command of
// its grant took effect. Usually that is one server, the entry's (`used_server_id`), and the entry's own
// revoke (kind 'revoke') runs there. A hand-off splits a grant: A ran the group and saved it, went
// silent, and B ran the rest and became the entry's server. Then every other server named in the grant's
// progress (a command saved or given there) gets a revoke of its own, the entry's revoke's twin: same
// commands, same due time, leased only by that server, retired or stranded by that server's state alone.
// While UNIQUE(entry, kind) stands, a twin's kind is `revoke@<server>`: once per entry and server.

/** The stored kind of the revoke of an entry on one more server. */
export function splitRevokeKind(serverId: number): string {
  return `revoke@${serverId}`;
}

/** The same for the ORM's selects (the console's lists). */
export const deliveryKind = sql<
  "grant" | "revoke"
>`CASE WHEN ${deliveries.kind} = 'grant' THEN 'grant' ELSE 'revoke' END`;

/** What a stored row `d` is to the plugin and the templates: 'grant', or 'revoke' (twins included). */
export function kindOf(d: string) {
  return rawSql(`CASE WHEN ${d}.kind = 'grant' THEN 'grant' ELSE 'revoke' END`);
}

/**
 * The server whose Oxide holds what entry `e` granted, so its own revoke runs there: the server the
 * grant was delivered on, or — for a grant refunded before it was acknowledged — the server that holds
 * its effects or its lease.
 */
export function revokeTarget(e: string) {
  return rawSql(revokeTargetText(e));
}

function revokeTargetText(e: string): string {
  return `COALESCE(${e}.used_server_id, (SELECT COALESCE(g.home_server_id, g.leased_server_id)
    FROM deliveries g WHERE g.inventory_entry_id = ${e}.id AND g.kind = 'grant'))`;
}

/** The server revoke `d` (of entry `e`) runs on: its own for a twin, else the entry's. */
export function revokeServer(d: string, e: string) {
  return rawSql(`COALESCE(${d}.revoke_server_id, ${revokeTargetText(e)})`);
}

/**
 * The ids of the due revokes, twins included, through the two partial indexes of pending revokes, so the
 * minutely upkeep reads what is due and nothing else (decision 126).
 */
export function dueRevokeIds(now: number) {
  return sql`(SELECT id FROM deliveries INDEXED BY deliveries_pending_revoke
      WHERE status = 'pending' AND kind = 'revoke' AND not_before <= ${now}
    UNION ALL SELECT id FROM deliveries INDEXED BY deliveries_pending_split_revoke
      WHERE status = 'pending' AND revoke_server_id IS NOT NULL AND not_before <= ${now})`;
}

/** The servers where a command of a grant took effect (saved) or waits in the world for its save (given). */
export function effectServers(progress: readonly CommandProgress[]): number[] {
  const servers = progress
    .filter((command) => command.state === "saved" || command.state === "given")
    .map((command) => command.server)
    .filter((server): server is number => server !== null);
  return [...new Set(servers)];
}

/** effectServers of a stored progress (JSON). */
export function effectServersOf(progressJson: string | null): number[] {
  let count = 0;
  try {
    const parsed: unknown = progressJson ? JSON.parse(progressJson) : [];
    count = Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    count = 0;
  }
  return effectServers(readProgress(progressJson, count));
}

/** Whether entry `e`'s grant took effect on a server other than the entry's own that has no revoke of it yet. */
export function lacksSplitRevoke(e: string) {
  return rawSql(`EXISTS (SELECT 1 FROM deliveries g, json_each(g.progress) p
    WHERE g.inventory_entry_id = ${e}.id AND g.kind = 'grant' AND json_extract(p.value, '$.state') IN ('saved', 'given')
      AND json_extract(p.value, '$.server') IS NOT ${revokeTargetText(e)}
      AND NOT EXISTS (SELECT 1 FROM deliveries x
        WHERE x.inventory_entry_id = ${e}.id AND x.kind = 'revoke@' || json_extract(p.value, '$.server')))`);
}

export interface SplitGrant {
  entryId: number;
  entryCreatedAt: number;
  /** The servers the grant's progress names (effectServers); the entry's own server is skipped in SQL. */
  servers: readonly number[];
}

/**
 * The twins of entries' revokes, one per server where the grant took effect other than the entry's own.
 * Each mirrors the entry's revoke, which must exist before it in the batch: its due time, moved earlier
 * when the entry's is (a refund), never later (a timed rank's stacking moves every revoke of the entry).
 * Ids come from the entry and the server (decision 124's, per server), so a restored site makes the same.
 * The SQL checks again that the progress names the server and that it is not the entry's own.
 */
export async function splitRevokeStatements(grants: readonly SplitGrant[], now: number): Promise<Statement[]> {
  // A grant that took effect on one server only has nothing to split: the entry's own revoke runs there.
  const pairs = grants
    .filter((grant) => grant.servers.length > 1)
    .flatMap((grant) => grant.servers.map((serverId) => ({ ...grant, serverId })));
  return Promise.all(
    pairs.map(async ({ entryId, entryCreatedAt, serverId }) =>
      statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, revoke_server_id, server_type, steam_id,
           requires_online, status, attempts, not_before, created_at)
         SELECT ${await deliveryIdFor("revoke", entryId, entryCreatedAt, serverId)}, e.id, ${splitRevokeKind(serverId)},
           ${serverId}, r.server_type, r.steam_id, 0, 'pending', 0, r.not_before, ${now}
         FROM inventory_entries e JOIN deliveries r ON r.inventory_entry_id = e.id AND r.kind = 'revoke'
         WHERE e.id = ${entryId} AND ${serverId} IS NOT ${revokeTarget("e")}
           AND EXISTS (SELECT 1 FROM deliveries g, json_each(g.progress) p
             WHERE g.inventory_entry_id = e.id AND g.kind = 'grant'
               AND json_extract(p.value, '$.state') IN ('saved', 'given') AND json_extract(p.value, '$.server') = ${serverId})
         ON CONFLICT (inventory_entry_id, kind) DO UPDATE SET not_before = MIN(deliveries.not_before, excluded.not_before)
           WHERE deliveries.status = 'pending'`),
    ),
  );
}
