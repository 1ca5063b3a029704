import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { rawSql, type Statement, statement } from "../../ports/database.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { sameRank } from "./delivery-rules.ts";
import { dueRevokeIds, revokeServer } from "./revoke-targets.ts";

// Upkeep of due revokes and failed deliveries: superseded, stranded, and the operators' Discord row.

/**
 * A due revoke is `superseded` when another entry of the same rank, delivered on the same
 * server to the same player, ends later (or never): that entry's revoke takes the rank away
 * once, when no paid time is left. Ties go to the higher id, so exactly one revoke remains.
 */
export function supersedeCoveredRevokes(now: number, serverId: number | null): Statement {
  // Only due revokes: one not yet due is retired when it falls due, before any poll could serve it,
  // and reading every running rank's revoke on every poll read them all (decision 126).
  // A split grant's twin is covered on its own server, by the entries the site counts there (decision 132).
  const on = rawSql("COALESCE(deliveries.revoke_server_id, a.used_server_id)");
  return statement(sql`UPDATE deliveries SET status = 'superseded', lease_until = NULL, done_at = ${now}
     WHERE id IN ${dueRevokeIds(now)} AND (lease_until IS NULL OR lease_until <= ${now})
       AND EXISTS (
         SELECT 1 FROM inventory_entries a JOIN inventory_entries b
           ON b.user_id = a.user_id AND b.server_type = a.server_type AND b.used_server_id = ${on}
         WHERE a.id = deliveries.inventory_entry_id AND (${serverId} IS NULL OR ${on} = ${serverId})
           AND b.id <> a.id AND b.status = 'used'
           -- A running «до вайпа» entry covers every earlier end: the wipe ends it (decision 130).
           AND (b.is_permanent = 1 OR (b.duration_days = 0 AND b.expires_at IS NULL)
             OR b.expires_at > a.expires_at OR (b.expires_at = a.expires_at AND b.id > a.id))
           AND ${sameRank("a", "b")})`);
}

/** The cron's sweep over every server (a poll and an acknowledgement sweep their own server). */
export async function supersedeRevokes(deps: Deps): Promise<number> {
  return (await deps.db.run(supersedeCoveredRevokes(deps.now().getTime(), null))).changes;
}

/** The operators' Discord row for a delivery this batch marked `failed` (decision 110). */
export function failedForGood(deliveryId: string, now: number): Statement {
  return discordEventStatement(
    "delivery_failed",
    sql`SELECT json_object('nickname', COALESCE(u.nickname, d.steam_id), 'item', i.name, 'serverType', d.server_type,
          'error', d.last_error) AS payload
        FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id JOIN items i ON i.id = e.item_id
        LEFT JOIN users u ON u.steam_id = d.steam_id
        WHERE d.id = ${deliveryId} AND d.status = 'failed'`,
    now,
  );
}

/**
 * Due revokes whose granting server is gone (deleted, or no longer of the entry's type) can't
 * run anywhere else: the rank is in that server's Oxide. They become `stranded` with the reason,
 * for an operator to take the rank away by hand, instead of waiting silently or being marked done.
 */
export async function strandRevokes(deps: Deps): Promise<number> {
  const now = deps.now().getTime();
  const stranded = await deps.db.run<{ id: string; inventory_entry_id: number; steam_id: string; last_error: string }>(
    statement(sql`UPDATE deliveries
       SET status = 'stranded', lease_until = NULL,
           last_error = (SELECT CASE WHEN ${revokeServer("deliveries", "e")} IS NULL
                 THEN 'Неизвестно, какой сервер выдал привилегию; снимите её вручную'
                 ELSE 'Сервер #' || ${revokeServer("deliveries", "e")} || ', выдавший привилегию, удалён или сменил тип; снимите её вручную' END
               FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
       WHERE id IN ${dueRevokeIds(now)}
         AND (lease_until IS NULL OR lease_until <= ${now})
         AND NOT EXISTS (SELECT 1 FROM inventory_entries e JOIN servers s ON s.id = ${revokeServer("deliveries", "e")}
           WHERE e.id = deliveries.inventory_entry_id AND s.server_type = deliveries.server_type)
       RETURNING id, inventory_entry_id, steam_id, last_error`),
  );
  if (stranded.rows.length > 0) {
    // The operators' Discord (decision 110): after the update, since the cron's update is its own statement.
    await deps.db.batch(
      stranded.rows.map((row) =>
        discordEventStatement(
          "revoke_stranded",
          sql`SELECT json_object('nickname', COALESCE(u.nickname, d.steam_id), 'item', i.name, 'error', d.last_error) AS payload
              FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id JOIN items i ON i.id = e.item_id
              LEFT JOIN users u ON u.steam_id = d.steam_id
              WHERE d.id = ${row.id} AND d.status = 'stranded'`,
          now,
        ),
      ),
    );
  }
  for (const row of stranded.rows) {
    console.warn(
      JSON.stringify({
        event: "revoke_stranded",
        delivery: row.id,
        entry: row.inventory_entry_id,
        steam_id: row.steam_id,
        message: row.last_error,
      }),
    );
  }
  return stranded.changes;
}
