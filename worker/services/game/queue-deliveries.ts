import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import { insertDeliveries, type NewDelivery } from "./insert-deliveries.ts";
import { effectServersOf, lacksSplitRevoke, splitRevokeStatements } from "./revoke-targets.ts";

// Creating the `deliveries` rows: a new entry's grant, a delivered timed entry's revoke (decision 124).

/**
 * Grant deliveries for not-yet-delivered entries that have none: of one server type or all, made
 * after `since` (the hourly backstop reads the day's entries), or only `entryIds` (those a poll found
 * listed in deliveries_waiting, decision 126). `also` rides in the same batch as the inserts.
 */
export async function ensureGrantDeliveries(
  deps: Deps,
  serverType: string | null = null,
  since: number | null = null,
  entryIds: readonly number[] | null = null,
  also: Statement[] = [],
): Promise<number> {
  return insertDeliveries(deps, "grant", await missingGrants(deps, serverType, since, entryIds), also);
}

async function missingGrants(
  deps: Deps,
  serverType: string | null,
  since: number | null,
  entryIds: readonly number[] | null,
): Promise<NewDelivery[]> {
  const now = deps.now().getTime();
  const which =
    entryIds === null
      ? sql`e.status = 'not_used' AND e.created_at > ${since ?? -1}`
      : sql`e.id IN (SELECT value FROM json_each(${JSON.stringify(entryIds)})) AND e.status = 'not_used'`;
  const missing = await deps.db.run<NewDelivery>(
    statement(sql`SELECT e.id AS entryId, e.created_at AS entryCreatedAt, e.server_type AS serverType,
         u.steam_id AS steamId, i.requires_online AS requiresOnline, ${now} AS notBefore
       FROM inventory_entries e
       JOIN users u ON u.id = e.user_id
       JOIN items i ON i.id = e.item_id
       WHERE ${which}
         AND (${serverType} IS NULL OR e.server_type = ${serverType})
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant')`),
  );
  return missing.rows;
}

/** The Корзина entries of this type made since a poll last queued their grants (deliveries_waiting.entry_ids). */
export async function newEntriesOf(deps: Deps, serverType: string): Promise<number[]> {
  const { rows } = await deps.db.run<{ entryIds: string }>(
    statement(sql`SELECT entry_ids AS entryIds FROM deliveries_waiting WHERE server_type = ${serverType}`),
  );
  return parseIds(rows[0]?.entryIds);
}

/** The ids of a JSON array, what isn't an integer left out. */
export function parseIds(text: string | undefined): number[] {
  try {
    const parsed: unknown = JSON.parse(text ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/**
 * Queues the grant deliveries of the entries a purchase, a promo code or anything else made since the
 * type's last poll (a trigger lists them in deliveries_waiting), with decision 124's ids, and takes
 * from the list in the same batch every entry that now has its grant or no longer waits. An entry
 * listed meanwhile stays for the next poll.
 */
export async function queueNewGrants(deps: Deps, serverType: string, entryIds: readonly number[]): Promise<string[]> {
  if (entryIds.length === 0) return [];
  const grants = await missingGrants(deps, serverType, null, entryIds);
  await insertDeliveries(deps, "grant", grants, [
    statement(sql`UPDATE deliveries_waiting SET entry_ids = (
        SELECT json_group_array(j.value) FROM json_each(deliveries_waiting.entry_ids) j
        WHERE EXISTS (SELECT 1 FROM inventory_entries e WHERE e.id = j.value AND e.status = 'not_used')
          AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = j.value AND d.kind = 'grant'))
      WHERE server_type = ${serverType}`),
  ]);
  // Whose grants these are: they may be online and waiting now.
  return grants.map((grant) => grant.steamId);
}

/**
 * Revoke deliveries for delivered timed entries that lack one (the ack normally creates them;
 * this is the cron's backstop, e.g. for revoke commands added to an item later), with the twins a
 * split grant owes its other servers (decision 132). Due at expiry.
 * `since`: only entries ending after it (the hourly backstop reads the running ranks, not every one).
 */
export async function ensureRevokeDeliveries(deps: Deps, since: number | null = null): Promise<number> {
  const missing = await deps.db.run<NewDelivery & { grantProgress: string | null }>(
    statement(sql`SELECT e.id AS entryId, e.created_at AS entryCreatedAt, e.server_type AS serverType,
         u.steam_id AS steamId, 0 AS requiresOnline, e.expires_at AS notBefore,
         (SELECT g.progress FROM deliveries g WHERE g.inventory_entry_id = e.id AND g.kind = 'grant') AS grantProgress
       FROM inventory_entries e
       JOIN users u ON u.id = e.user_id
       WHERE e.status = 'used' AND e.expires_at IS NOT NULL AND e.expires_at > ${since ?? -1}
         AND EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = 'revoke')
         AND (NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'revoke')
           OR ${lacksSplitRevoke("e")})`),
  );
  const splits = missing.rows.map((row) => ({ ...row, servers: effectServersOf(row.grantProgress) }));
  return insertDeliveries(deps, "revoke", missing.rows, await splitRevokeStatements(splits, deps.now().getTime()));
}
