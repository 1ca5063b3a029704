import { sql } from "drizzle-orm";
import { DELIVERY_INTERRUPTED } from "#core/messages/game.ts";
import { type Statement, statement } from "../../ports/database.ts";
import { DAY_MS, type DeliveryStatus, MAX_ATTEMPTS, RETRY_DELAYS_MS, sameRank } from "./delivery-rules.ts";
import type { CommandProgress } from "./progress.ts";
import { effectServers, type SplitGrant } from "./revoke-targets.ts";
import type { GameServer } from "./signature.ts";
import { failedForGood } from "./upkeep.ts";

// What an acknowledgement writes for one delivery: its progress, and everything a delivered one changes.

export interface DeliveryState {
  id: string;
  kind: "grant" | "revoke";
  status: DeliveryStatus;
  attempts: number;
  lease_until: number | null;
  leased_server_id: number | null;
  done_server_id: number | null;
  home_server_id: number | null;
  saving_since: number | null;
  lease_seq: number;
  counted_lease: number;
  commands: string | null;
  progress: string | null;
  entry_id: number;
  entry_created_at: number;
}

export function failureDelay(attemptsBefore: number): number {
  return RETRY_DELAYS_MS[Math.min(attemptsBefore, RETRY_DELAYS_MS.length - 1)] ?? 60_000;
}

/** A grant whose commands took effect on more than one server: its revoke goes to each (decision 132). */
export function splitGrant(row: DeliveryState, progress: CommandProgress[]): SplitGrant[] {
  const servers = effectServers(progress);
  return servers.length > 1 ? [{ entryId: row.entry_id, entryCreatedAt: row.entry_created_at, servers }] : [];
}

/**
 * Stores what a plugin-3 report says ran. The lease ends with it (the plugin is done with this
 * lease); a command given and not yet saved holds the delivery for this server until the save.
 */
export function recordProgress(
  row: DeliveryState,
  progress: CommandProgress[],
  server: GameServer,
  now: number,
): Statement {
  const given = progress.some((command) => command.state === "given");
  const tookEffectHere = progress.some(
    (command) => (command.state === "saved" || command.state === "given") && command.server === server.id,
  );
  return statement(sql`UPDATE deliveries
       SET progress = ${JSON.stringify(progress)},
           saving_since = ${given ? sql`COALESCE(saving_since, ${now})` : null},
           home_server_id = ${tookEffectHere ? server.id : sql`home_server_id`},
           lease_until = CASE WHEN status = 'pending' THEN NULL ELSE lease_until END
       WHERE id = ${row.id} AND leased_server_id = ${server.id}`);
}

/** Everything a delivery that took effect in full changes: done, the Корзина entry, a rank's time and revoke. */
export function deliveredStatements(
  row: DeliveryState,
  server: GameServer,
  now: number,
  revokeId: string,
): Statement[] {
  // When it reached the game: the first report of a command given, else now. A grant given on the old map
  // and saved by the shutdown before a wipe is reported from the new one; its wipe still ends it (decision 130).
  const usedAt = row.saving_since ?? now;
  const statements: Statement[] = [
    statement(sql`UPDATE deliveries SET status = 'done', done_at = ${now}, done_server_id = ${server.id}, lease_until = NULL,
           last_error = NULL, saving_since = NULL, home_server_id = COALESCE(home_server_id, ${server.id})
         WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id}`),
  ];
  if (row.kind !== "grant") return statements;
  const justDelivered = sql`EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'done' AND done_server_id = ${server.id} AND done_at = ${now})`;
  statements.push(
    // Time on a rank stacks: it starts when the player's paid time on it on this server ends.
    statement(sql`UPDATE inventory_entries AS e
         SET status = 'used', used_at = ${usedAt}, used_server_id = ${server.id}, last_error = NULL,
             -- «До вайпа» (0 days) has no end yet: the server's next wipe sets it (wipe-ends.ts, decision 130).
             expires_at = CASE WHEN e.is_permanent = 0 AND e.duration_days > 0 THEN
               max(${now}, coalesce((SELECT max(p.expires_at) FROM inventory_entries p
                 WHERE p.user_id = e.user_id AND p.server_type = e.server_type AND p.used_server_id = ${server.id}
                   AND p.status = 'used' AND p.expires_at > ${now} AND ${sameRank("p", "e")}), 0))
               + e.duration_days * ${DAY_MS} END
         WHERE e.id = ${row.entry_id} AND e.status = 'not_used' AND ${justDelivered}`),
    // Every running entry of the rank shows the rank's real end, and its revoke moves there.
    statement(sql`UPDATE inventory_entries AS p
         SET expires_at = (SELECT e.expires_at FROM inventory_entries e WHERE e.id = ${row.entry_id})
         WHERE p.status = 'used' AND p.expires_at > ${now} AND p.used_server_id = ${server.id}
           -- The player's running ranks on this server (inventory_timed_player), not everyone's (decision 126).
           AND p.user_id = (SELECT e.user_id FROM inventory_entries e WHERE e.id = ${row.entry_id})
           AND ${justDelivered}
           AND EXISTS (SELECT 1 FROM inventory_entries e
             WHERE e.id = ${row.entry_id} AND e.id <> p.id AND e.expires_at IS NOT NULL
               AND e.user_id = p.user_id AND e.server_type = p.server_type AND ${sameRank("p", "e")})`),
    // Through the player's entries on this server, not every pending revoke (decision 126).
    statement(sql`UPDATE deliveries INDEXED BY deliveries_entry_kind
         SET not_before = (SELECT e.expires_at FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
         WHERE kind <> 'grant' AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})
           AND not_before < (SELECT e.expires_at FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
           -- The player's running ranks on this server (inventory_timed_player): only their revokes move.
           AND inventory_entry_id IN (SELECT id FROM inventory_entries WHERE used_server_id = ${server.id}
             AND user_id = (SELECT e.user_id FROM inventory_entries e WHERE e.id = ${row.entry_id})
             AND status = 'used' AND expires_at > ${now})`),
    statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
         SELECT ${revokeId}, e.id, 'revoke', e.server_type, d.steam_id, 0, 'pending', 0, e.expires_at, ${now}
         FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
         WHERE d.id = ${row.id} AND e.expires_at IS NOT NULL
           AND EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = 'revoke')
         ON CONFLICT DO NOTHING`),
  );
  return statements;
}

/** A command may have run before a crash: failed at once, whatever the attempts; an operator checks the game by hand and retries. */
export function interruptedStatements(row: DeliveryState, server: GameServer, now: number): Statement[] {
  const statements = [
    statement(sql`UPDATE deliveries
         SET attempts = attempts + 1, last_error = ${DELIVERY_INTERRUPTED}, lease_until = NULL, status = 'failed',
             counted_lease = lease_seq
         WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id} AND attempts = ${row.attempts}`),
  ];
  if (row.kind === "grant") {
    statements.push(
      statement(sql`UPDATE inventory_entries SET last_error = ${DELIVERY_INTERRUPTED}
           WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${row.id})
             AND EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'failed')`),
    );
  }
  statements.push(failedForGood(row.id, now));
  return statements;
}

/** A failure counted: retried later, or `failed` at the last attempt with its reason in the Корзина. */
export function failureStatements(
  row: DeliveryState,
  server: GameServer,
  now: number,
  failure: { message: string; countedLease: number; reportsProgress: boolean },
): Statement[] {
  const { message, countedLease, reportsProgress } = failure;
  const statements = [
    statement(sql`UPDATE deliveries
         SET attempts = attempts + 1, last_error = ${message}, lease_until = NULL,
             status = CASE WHEN attempts + 1 >= ${MAX_ATTEMPTS} THEN 'failed' ELSE 'pending' END,
             not_before = ${now} + ${failureDelay(row.attempts)},
             counted_lease = ${countedLease},
             -- An older plugin doesn't say what ran before the failure: the retry stays on this server.
             home_server_id = ${reportsProgress ? sql`home_server_id` : sql`COALESCE(home_server_id, ${server.id})`}
         WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id} AND attempts = ${row.attempts}`),
  ];
  const finalFailure = row.attempts + 1 >= MAX_ATTEMPTS;
  if (finalFailure && row.kind === "grant") {
    // What the player reads in the Корзина.
    statements.push(
      statement(sql`UPDATE inventory_entries SET last_error = ${`Не удалось выдать предмет на сервере: ${message}`}
           WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${row.id})
             AND EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'failed')`),
    );
  }
  if (finalFailure) statements.push(failedForGood(row.id, now));
  return statements;
}
