import { sql } from "drizzle-orm";
import { DELIVERY_INTERRUPTED } from "#core/messages/game.ts";
import type { deliveries } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { rawSql, type Statement, statement } from "../../ports/database.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { renderCommand } from "./commands.ts";
import { deliveryIdFor } from "./delivery-id.ts";
import { grantWaitsSql } from "./fair-play.ts";
import { insertDeliveries, type NewDelivery } from "./insert-deliveries.ts";
import {
  allSaved,
  type CommandProgress,
  commandIndices,
  mergeProgress,
  PROGRESS_PATTERN,
  parseProgressLetters,
  readProgress,
} from "./progress.ts";
import {
  dueRevokeIds,
  effectServers,
  effectServersOf,
  kindOf,
  lacksSplitRevoke,
  revokeServer,
  revokeTarget,
  type SplitGrant,
  splitRevokeStatements,
} from "./revoke-targets.ts";
import type { GameServer } from "./signature.ts";
import { endWipedEntries } from "./wipe-ends.ts";

export { revokeTarget };

// Pull-based delivery, each command exactly once (decisions 061, 104, 124).
//
// A `deliveries` row is one unit of work for the plugin: grant an inventory entry, or revoke
// it when its time is up. Rows are created lazily and idempotently (UNIQUE(entry, kind)), with
// ids derived from the entry (delivery-id.ts), so the shop and promo codes only ever write
// inventory entries. Its commands are fixed at the first lease; the plugins report each command's
// progress (progress.ts) and the row is `done` once every command is saved in the game's world.

/** A served delivery is reserved for the server that took it this long. */
export const LEASE_MS = 5 * 60 * 1000;
/**
 * A server is alive while its last heartbeat is this recent (and it is still of the delivery's
 * type). A delivery stays with its home, and with the holder of a lease it never reported, while
 * that server is alive; a reported one moves on when its home is not (decision 124).
 */
export const LEASE_HOLDER_ALIVE_MS = 3 * 60 * 1000;
/** Delay before the next try after the 1st, 2nd, 3rd, 4th failure. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const;
/** The failure that makes a delivery `failed` and shows its reason in the Корзина. */
export const MAX_ATTEMPTS = 5;
export const MAX_DELIVERIES_PER_POLL = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
// The plugin runs an answer in order: an overdue revoke before a new grant of the same rank,
// so the grant is what stays.
const SERVED_ORDER = rawSql("CASE d.kind WHEN 'grant' THEN 1 ELSE 0 END, d.not_before, d.created_at");

/**
 * Whether inventory entries `a` and `b` (SQL aliases) hold the same rank: the same item, or
 * items whose revoke templates are the same set, since revoking either takes the same thing
 * away (docs/decisions/063-timed-ranks-stack.md).
 */
function sameRank(a: string, b: string) {
  const revokesOf = (entry: string, alias: string) =>
    `SELECT 1 FROM item_commands ${alias} WHERE ${alias}.item_id = ${entry}.item_id AND ${alias}.phase = 'revoke'`;
  const allIn = (from: string, to: string) =>
    `NOT EXISTS (${revokesOf(from, "rk_from")} AND NOT EXISTS (${revokesOf(to, "rk_to")} AND rk_to.template = rk_from.template))`;
  return rawSql(
    `(${a}.item_id = ${b}.item_id OR (EXISTS (${revokesOf(a, "rk_any")}) AND ${allIn(a, b)} AND ${allIn(b, a)}))`,
  );
}

/** Whether server `serverId` (SQL) heartbeated in the last LEASE_HOLDER_ALIVE_MS and is of type `serverType` (SQL). */
function alive(serverId: string, serverType: string, now: number) {
  return sql`EXISTS (SELECT 1 FROM server_heartbeats h JOIN servers s ON s.id = h.server_id
    WHERE h.server_id = ${rawSql(serverId)} AND s.server_type = ${rawSql(serverType)}
      AND h.received_at > ${now - LEASE_HOLDER_ALIVE_MS})`;
}

export interface ServedDelivery {
  delivery_id: string;
  kind: "grant" | "revoke";
  steam_id: string;
  requires_online: boolean;
  /** What the player reads in the game's chat when it arrives (the item's name). */
  title: string;
  /** The purchased duration of a timed item; null when permanent or one-off. */
  duration_days: number | null;
  commands: string[];
  /** Commands (indices) that took effect already, here or on another server: never run again. */
  done: number[];
  /** This lease's number: the plugin reports under it, so one failure counts once. */
  lease: number;
  /** «Повторить» presses so far: a command left uncertain by a crash runs again only after one. */
  retry: number;
}

export interface AckResult {
  delivery_id: string;
  ok: boolean;
  message?: string | undefined;
  /** The plugin started it and crashed before finishing; it will never run it again (plugin 2.0). */
  interrupted?: boolean | undefined;
  /** Plugin 3: one letter per command (p, g, s, f, u); with it the report is read by progress.ts. */
  progress?: string | undefined;
  /** Plugin 3: the lease it ran under. */
  lease?: number | undefined;
}

export type AckStatus = "done" | "retry" | "failed" | "duplicate" | "progress";

export type AckOutcome =
  | { status: "ok"; results: { delivery_id: string; status: AckStatus }[]; ackSeq: number }
  | { status: "unknown"; ids: string[] }
  | { status: "forbidden"; ids: string[] }
  | { status: "invalid"; ids: string[] };

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
async function queueNewGrants(deps: Deps, serverType: string, entryIds: readonly number[]): Promise<string[]> {
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

/** A delivery the plugin was served and did not start (player not ready, no room): its lease ends unbound. */
export interface Skipped {
  delivery_id: string;
  lease: number;
}

/**
 * What makes a pending, due delivery `d` (of entry `e`) leasable by `server` now, besides its player
 * being online (decision 124). The lease and the poll's check before it (poll.ts) share it, so a
 * delivery that waits for another server, a save or an operator makes no poll write anything.
 */
export function leasable(server: GameServer, now: number) {
  const bound = rawSql("CASE WHEN d.lease_until IS NOT NULL THEN d.leased_server_id ELSE d.home_server_id END");
  return sql`d.server_type = ${server.serverType} AND d.status = 'pending' AND d.not_before <= ${now}
    -- Given and not yet saved: its server reports it after the next save.
    AND d.saving_since IS NULL
    AND (d.lease_until IS NULL OR d.lease_until <= ${now})
    -- Bound to its home, or to the holder of a lease it never reported, while that server lives;
    -- a reported delivery whose home is gone moves on with its progress.
    AND (${bound} IS NULL OR ${bound} = ${server.id}
      OR (d.lease_until IS NULL AND NOT ${alive("d.home_server_id", "d.server_type", now)}))
    AND (d.commands IS NOT NULL OR EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = ${kindOf("d")}))
    -- After a restore from a backup, nothing of the type moves until each of its servers has said what it ran.
    AND NOT EXISTS (SELECT 1 FROM servers rs WHERE rs.server_type = d.server_type AND rs.needs_resync = 1)
    -- A grant only for an entry still waiting: one returned by its buyer is never handed out (decision 111).
    AND (d.kind <> 'grant' OR e.status = 'not_used')
    -- The rank lives in the Oxide of the server that granted it; a split grant's twin revokes on its own (decision 132).
    AND (d.kind = 'grant' OR ${revokeServer("d", "e")} = ${server.id})
    -- A grant waits out this server's fair-play window after its wipe (decision 129).
    AND (d.kind <> 'grant' OR NOT ${grantWaitsSql(server.id, now)})`;
}

/**
 * Leases the deliveries due on this server's type whose player is online (or that may run
 * offline) and returns them with their commands, fixed at the first lease. One UPDATE … RETURNING,
 * so two servers polling at once can't both take the same row. A delivery goes to its home, or
 * to the holder of a lease never reported, while that server lives (decision 124); deliveries the
 * plugin reports it did not start (`skipped`) are released first. The new entries' grants are queued
 * first (`newEntries`: read from deliveries_waiting when the caller hasn't). Reads only pending
 * deliveries of `online` players and due ones that need nobody online (decision 126).
 */
export async function leaseDeliveries(
  deps: Deps,
  server: GameServer,
  online: string[],
  skipped: Skipped[] = [],
  checked?: { waiting: readonly string[]; newEntries: readonly number[] },
): Promise<ServedDelivery[]> {
  const owners = await queueNewGrants(
    deps,
    server.serverType,
    checked?.newEntries ?? (await newEntriesOf(deps, server.serverType)),
  );
  // The poll's check said which online players have a delivery waiting; the grants just queued add theirs.
  const players = checked
    ? [...new Set([...checked.waiting, ...online.filter((steamId) => owners.includes(steamId))])]
    : online;
  const now = deps.now().getTime();
  const onlineJson = JSON.stringify(players);
  const release =
    skipped.length === 0
      ? []
      : [
          statement(sql`UPDATE deliveries SET lease_until = NULL,
               leased_server_id = CASE WHEN home_server_id IS NULL THEN NULL ELSE leased_server_id END
             WHERE id IN (SELECT json_extract(j.value, '$[0]') FROM json_each(${JSON.stringify(skipped.map((s) => [s.delivery_id, s.lease]))}) j
                 WHERE json_extract(j.value, '$[1]') = deliveries.lease_seq)
               AND leased_server_id = ${server.id} AND status = 'pending' AND lease_until IS NOT NULL AND saving_since IS NULL`),
        ];
  const written = await deps.db.batch([
    ...release,
    supersedeCoveredRevokes(now, server.id),
    statement(sql`UPDATE deliveries SET lease_until = ${now} + ${LEASE_MS}, leased_server_id = ${server.id}, lease_seq = lease_seq + 1
       WHERE id IN (
         -- Read through the pending deliveries of the online players and the due ones that need nobody
         -- online, never those waiting for players who are away (decision 126).
         SELECT d.id FROM (
             SELECT id FROM deliveries INDEXED BY deliveries_pending_player
             WHERE status = 'pending' AND requires_online = 1 AND server_type = ${server.serverType}
               AND steam_id IN (SELECT value FROM json_each(${onlineJson}))
             UNION ALL
             SELECT id FROM deliveries INDEXED BY deliveries_pending_offline
             WHERE status = 'pending' AND requires_online = 0 AND server_type = ${server.serverType} AND not_before <= ${now}
           ) AS candidate
           CROSS JOIN deliveries d ON d.id = candidate.id
           JOIN inventory_entries e ON e.id = d.inventory_entry_id
         -- The candidates are online or need nobody: their player is not asked about again.
         WHERE ${leasable(server, now)}
           -- A grant of the rank that this server may have run but not yet acknowledged would be undone.
           AND (d.kind = 'grant' OR NOT EXISTS (
             -- Through the player's entries, not every pending grant (decision 126).
             SELECT 1 FROM inventory_entries ge CROSS JOIN deliveries g INDEXED BY deliveries_entry_kind ON g.inventory_entry_id = ge.id
             WHERE g.kind = 'grant' AND g.status = 'pending' AND g.leased_server_id = ${server.id}
               AND ge.user_id = e.user_id AND ${sameRank("ge", "e")}))
         ORDER BY ${SERVED_ORDER}
         LIMIT ${MAX_DELIVERIES_PER_POLL})
       RETURNING id`),
  ]);
  const leased = written.at(-1);
  const ids = ((leased?.rows ?? []) as { id: string }[]).map((row) => row.id);
  if (ids.length === 0) return [];

  const idsJson = JSON.stringify(ids);
  const [details, templates] = await deps.db.batch([
    statement(sql`SELECT d.id, ${kindOf("d")} AS kind, d.steam_id, d.requires_online, d.commands, d.progress, d.lease_seq, d.retries,
           e.item_id, e.duration_days, e.is_permanent, u.nickname, i.name AS title
         FROM deliveries d
         JOIN inventory_entries e ON e.id = d.inventory_entry_id
         JOIN users u ON u.id = e.user_id
         JOIN items i ON i.id = e.item_id
         WHERE d.id IN (SELECT value FROM json_each(${idsJson}))
         ORDER BY ${SERVED_ORDER}`),
    statement(sql`SELECT c.item_id, c.phase, c.template FROM item_commands c
         WHERE c.item_id IN (SELECT e.item_id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
                             WHERE d.id IN (SELECT value FROM json_each(${idsJson})) AND d.commands IS NULL)
         ORDER BY c.sort_order, c.id`),
  ]);

  const byItem = new Map<string, string[]>();
  for (const row of (templates?.rows ?? []) as { item_id: number; phase: string; template: string }[]) {
    const key = `${row.item_id}:${row.phase}`;
    byItem.set(key, [...(byItem.get(key) ?? []), row.template]);
  }
  const fix: Statement[] = [];
  const served = (
    (details?.rows ?? []) as {
      id: string;
      kind: "grant" | "revoke";
      steam_id: string;
      requires_online: number;
      commands: string | null;
      progress: string | null;
      lease_seq: number;
      retries: number;
      item_id: number;
      duration_days: number | null;
      is_permanent: number;
      nickname: string;
      title: string;
    }[]
  ).map((row) => {
    let commands = parseCommands(row.commands);
    if (commands === null) {
      // The first lease fixes what this delivery runs (decision 124).
      commands = renderTemplates(byItem.get(`${row.item_id}:${row.kind}`) ?? [], row, server.name);
      fix.push(
        statement(
          sql`UPDATE deliveries SET commands = ${JSON.stringify(commands)} WHERE id = ${row.id} AND commands IS NULL`,
        ),
      );
    }
    return {
      delivery_id: row.id,
      kind: row.kind,
      steam_id: row.steam_id,
      requires_online: row.requires_online === 1,
      title: row.title,
      // «До вайпа» has no count of days for the chat to show (decision 130).
      duration_days: row.is_permanent || row.duration_days === 0 ? null : row.duration_days,
      commands,
      done: commandIndices(readProgress(row.progress, commands.length), "saved"),
      lease: row.lease_seq,
      retry: row.retries,
    } satisfies ServedDelivery;
  });
  if (fix.length > 0) await deps.db.batch(fix);
  return served;
}

/**
 * Whether this server must first send again what it acknowledged since `resync_from` (decision 124):
 * the site was restored from a backup (`npm run db:restore` marked every server), or the plugin has
 * seen a higher acknowledgement counter than the site now has. Answers the counter to send from, or
 * null; a plugin that says it has sent everything is done.
 */
export async function resyncFrom(
  deps: Deps,
  server: GameServer,
  pluginSeq: number | undefined,
  resynced: boolean,
): Promise<number | null> {
  const current = server.ackSeq ?? 0;
  if (server.needsResync && resynced) {
    await deps.db.run(statement(sql`UPDATE servers SET needs_resync = 0 WHERE id = ${server.id}`));
    return null;
  }
  if (!server.needsResync && !(pluginSeq !== undefined && pluginSeq > current)) return null;
  if (!server.needsResync) {
    await deps.db.run(statement(sql`UPDATE servers SET needs_resync = 1 WHERE id = ${server.id}`));
    console.error(
      JSON.stringify({
        event: "site_behind_plugin",
        server: server.id,
        site_ack_seq: current,
        plugin_ack_seq: pluginSeq,
        message: "the plugin has seen later acknowledgements than the database holds: restored from a backup?",
      }),
    );
  }
  return current;
}

/** The stored, fixed commands of a delivery; null before its first lease. */
export function parseCommands(json: string | null): string[] | null {
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
}

export function renderTemplates(
  templates: readonly string[],
  row: { steam_id: string; nickname: string; duration_days: number | null },
  serverName: string,
): string[] {
  return templates.map((template) =>
    renderCommand(template, {
      steamId: row.steam_id,
      nickname: row.nickname,
      days: row.duration_days,
      server: serverName,
    }),
  );
}

export type DeliveryStatus = (typeof deliveries.$inferSelect)["status"];

/**
 * A due revoke is `superseded` when another entry of the same rank, delivered on the same
 * server to the same player, ends later (or never): that entry's revoke takes the rank away
 * once, when no paid time is left. Ties go to the higher id, so exactly one revoke remains.
 */
function supersedeCoveredRevokes(now: number, serverId: number | null): Statement {
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

/**
 * Due revokes whose granting server is gone (deleted, or no longer of the entry's type) can't
 * run anywhere else: the rank is in that server's Oxide. They become `stranded` with the reason,
 * for an operator to take the rank away by hand, instead of waiting silently or being marked done.
 */
/** The operators' Discord row for a delivery this batch marked `failed` (decision 110). */
function failedForGood(deliveryId: string, now: number): Statement {
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

interface DeliveryState {
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

function failureDelay(attemptsBefore: number): number {
  return RETRY_DELAYS_MS[Math.min(attemptsBefore, RETRY_DELAYS_MS.length - 1)] ?? 60_000;
}

/** What a plugin-3 report (one letter a command) means, before anything is written. */
function invalidReport(row: DeliveryState, result: AckResult): boolean {
  if (result.progress === undefined) return false;
  if (!PROGRESS_PATTERN.test(result.progress)) return true;
  const commands = parseCommands(row.commands);
  return commands !== null && commands.length !== result.progress.length;
}

/**
 * Applies the plugin's results. The whole request is refused, with nothing else changed, when it
 * names an unknown delivery (404), one that is not (or no longer) handed to this server (403), or
 * a report that doesn't fit the delivery's commands (400); a 403 marks those deliveries for the
 * console, since this server may have run them after they were handed to another one (decision
 * 104). Repeating an acknowledgement changes nothing. Plugin 3 reports each command's progress
 * (decision 124): the delivery is done once every command is saved.
 */
export async function acknowledgeDeliveries(deps: Deps, server: GameServer, results: AckResult[]): Promise<AckOutcome> {
  const ids = [...new Set(results.map((result) => result.delivery_id))];
  let rows = await readDeliveryStates(deps, ids);
  if (rows.size < ids.length) {
    // A site restored from a backup may not have created the row yet; its id is the entry's (delivery-id.ts).
    await ensureGrantDeliveries(deps, server.serverType);
    await ensureRevokeDeliveries(deps);
    rows = await readDeliveryStates(deps, ids);
  }
  const byId = rows;

  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) return { status: "unknown", ids: unknown };
  // Re-sending after a restore, the server claims what the restored rows don't show leased (decision 124).
  const claimable = (row: DeliveryState) =>
    Boolean(server.needsResync) && row.leased_server_id === null && row.status !== "done";
  const forbidden = ids.filter((id) => {
    const row = byId.get(id);
    if (!row) return true;
    if (claimable(row)) return false;
    return row.status === "done" ? row.done_server_id !== server.id : row.leased_server_id !== server.id;
  });
  if (forbidden.length > 0) {
    await markRefusedAcks(deps, server, forbidden);
    return { status: "forbidden", ids: forbidden };
  }
  const invalid = results.filter((result) => {
    const row = byId.get(result.delivery_id);
    return row !== undefined && invalidReport(row, result);
  });
  if (invalid.length > 0) return { status: "invalid", ids: [...new Set(invalid.map((result) => result.delivery_id))] };

  const now = deps.now().getTime();
  const statements: Statement[] = [];
  const claimed = [...byId.values()].filter(claimable).map((row) => row.id);
  if (claimed.length > 0) {
    statements.push(
      statement(sql`UPDATE deliveries SET leased_server_id = ${server.id}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(claimed)})) AND leased_server_id IS NULL`),
    );
  }
  const outcomes: { delivery_id: string; status: AckStatus }[] = [];
  const seen = new Set<string>();
  let coversRanks = false;
  const splits: SplitGrant[] = [];

  for (const result of results) {
    const row = byId.get(result.delivery_id);
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    const reported = result.progress === undefined ? null : parseProgressLetters(result.progress);
    // A restored row may not have its commands yet: the report says how many there are.
    const commands = parseCommands(row.commands) ?? Array.from({ length: reported?.length ?? 0 }, () => "");
    const stale = reported !== null && (result.lease ?? 0) < row.lease_seq;
    const progress =
      reported && !stale ? mergeProgress(readProgress(row.progress, commands.length), reported, server.id, now) : null;
    if (progress && row.kind === "grant") splits.push(...splitGrant(row, progress));

    if (row.status !== "pending") {
      // Already done, failed or cancelled: a repeat. What a plugin-3 report says ran is still kept.
      if (progress && row.status !== "done") statements.push(recordProgress(row, progress, server, now));
      outcomes.push({ delivery_id: row.id, status: "duplicate" });
      continue;
    }
    if (stale) {
      // A report from an earlier lease arriving late: this server has reported under a newer one.
      outcomes.push({ delivery_id: row.id, status: "duplicate" });
      continue;
    }

    const outcome = progress
      ? allSaved(progress)
        ? "done"
        : progress.some((command) => command.state === "uncertain")
          ? "interrupted"
          : reported?.includes("failed")
            ? "failure"
            : "progress"
      : result.ok
        ? "done"
        : result.interrupted
          ? "interrupted"
          : "failure";

    if (progress) statements.push(recordProgress(row, progress, server, now));

    if (outcome === "progress") {
      outcomes.push({ delivery_id: row.id, status: "progress" });
      continue;
    }

    if (outcome === "done") {
      statements.push(
        ...deliveredStatements(row, server, now, await deliveryIdFor("revoke", row.entry_id, row.entry_created_at)),
      );
      if (row.kind === "grant") coversRanks = true;
      outcomes.push({ delivery_id: row.id, status: "done" });
      continue;
    }

    if (outcome === "interrupted") {
      // Failed at once, whatever the attempts: an operator checks the game by hand and retries.
      statements.push(
        statement(sql`UPDATE deliveries
             SET attempts = attempts + 1, last_error = ${DELIVERY_INTERRUPTED}, lease_until = NULL, status = 'failed',
                 counted_lease = lease_seq
             WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id} AND attempts = ${row.attempts}`),
      );
      if (row.kind === "grant") {
        statements.push(
          statement(sql`UPDATE inventory_entries SET last_error = ${DELIVERY_INTERRUPTED}
               WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${row.id})
                 AND EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'failed')`),
        );
      }
      statements.push(failedForGood(row.id, now));
      console.error(
        JSON.stringify({ event: "delivery_interrupted", delivery: row.id, kind: row.kind, server: server.id }),
      );
      outcomes.push({ delivery_id: row.id, status: "failed" });
      continue;
    }

    // A failure counts once: per lease from plugin 3, once per report from older plugins.
    const counted = progress ? (result.lease ?? 0) <= row.counted_lease : row.lease_until === null;
    if (counted) {
      outcomes.push({ delivery_id: row.id, status: "duplicate" });
      continue;
    }
    const message = (result.message ?? "").trim().slice(0, 300) || "без описания";
    const finalFailure = row.attempts + 1 >= MAX_ATTEMPTS;
    statements.push(
      statement(sql`UPDATE deliveries
           SET attempts = attempts + 1, last_error = ${message}, lease_until = NULL,
               status = CASE WHEN attempts + 1 >= ${MAX_ATTEMPTS} THEN 'failed' ELSE 'pending' END,
               not_before = ${now} + ${failureDelay(row.attempts)},
               counted_lease = ${progress ? (result.lease ?? 0) : row.lease_seq},
               -- An older plugin doesn't say what ran before the failure: the retry stays on this server.
               home_server_id = ${progress ? sql`home_server_id` : sql`COALESCE(home_server_id, ${server.id})`}
           WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id} AND attempts = ${row.attempts}`),
    );
    if (finalFailure && row.kind === "grant") {
      // What the player reads in the Корзина.
      statements.push(
        statement(sql`UPDATE inventory_entries SET last_error = ${`Не удалось выдать предмет на сервере: ${message}`}
             WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${row.id})
               AND EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'failed')`),
      );
    }
    if (finalFailure) {
      statements.push(failedForGood(row.id, now));
      console.warn(
        JSON.stringify({ event: "delivery_failed", delivery: row.id, kind: row.kind, server: server.id, message }),
      );
    }
    outcomes.push({ delivery_id: row.id, status: finalFailure ? "failed" : "retry" });
  }

  // After the entries' own revokes: their twins on the other servers where a split grant took effect.
  statements.push(...(await splitRevokeStatements(splits, now)));
  if (coversRanks) statements.push(supersedeCoveredRevokes(now, server.id));
  // Every accepted acknowledgement moves the server's counter on; a restored site's is behind (decision 124).
  statements.push(statement(sql`UPDATE servers SET ack_seq = ack_seq + 1 WHERE id = ${server.id} RETURNING ack_seq`));
  const written = await deps.db.batch(statements);
  const ackSeq = Number((written.at(-1)?.rows[0] as { ack_seq?: number } | undefined)?.ack_seq ?? 0);
  // A «до вайпа» grant given on the old map and saved by the wipe's shutdown is acknowledged from the
  // new one: its wipe ends it now, not at the next minute's job (decision 130).
  if (coversRanks) await endWipedEntries(deps, server.id);
  return { status: "ok", results: outcomes, ackSeq };
}

async function readDeliveryStates(deps: Deps, ids: string[]): Promise<Map<string, DeliveryState>> {
  const rows = await deps.db.run<DeliveryState>(
    statement(sql`SELECT d.id, ${kindOf("d")} AS kind, d.status, d.attempts, d.lease_until, d.leased_server_id, d.done_server_id,
         d.home_server_id, d.saving_since, d.lease_seq, d.counted_lease, d.commands, d.progress,
         e.id AS entry_id, e.created_at AS entry_created_at
       FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
       WHERE d.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  return new Map(rows.rows.map((row) => [row.id, row]));
}

/** A grant whose commands took effect on more than one server: its revoke goes to each (decision 132). */
function splitGrant(row: DeliveryState, progress: CommandProgress[]): SplitGrant[] {
  const servers = effectServers(progress);
  return servers.length > 1 ? [{ entryId: row.entry_id, entryCreatedAt: row.entry_created_at, servers }] : [];
}

/**
 * Stores what a plugin-3 report says ran. The lease ends with it (the plugin is done with this
 * lease); a command given and not yet saved holds the delivery for this server until the save.
 */
function recordProgress(row: DeliveryState, progress: CommandProgress[], server: GameServer, now: number): Statement {
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
function deliveredStatements(row: DeliveryState, server: GameServer, now: number, revokeId: string): Statement[] {
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

/** Marks deliveries whose ack came from a server they are no longer handed to, and says so in the log. */
async function markRefusedAcks(deps: Deps, server: GameServer, ids: string[]): Promise<void> {
  const now = deps.now().getTime();
  await deps.db.run(
    statement(sql`UPDATE deliveries SET ack_refused_at = ${now}, ack_refused_server_id = ${server.id}
       WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  console.error(
    JSON.stringify({
      event: "ack_refused_after_handoff",
      server: server.id,
      deliveries: ids,
      message: "a server acknowledged deliveries handed to another server: they may have been given twice",
    }),
  );
}

export interface WaitingItem {
  name: string;
  duration_days: number | null;
  failed: boolean;
}

/** What is waiting for a player on this server's type (for the plugin's /store chat command). Leases nothing. */
export async function pendingForPlayer(deps: Deps, server: GameServer, steamId: string): Promise<WaitingItem[]> {
  const rows = await deps.db.run<{
    name: string;
    duration_days: number | null;
    is_permanent: number;
    last_error: string | null;
  }>(
    statement(sql`SELECT i.name, e.duration_days, e.is_permanent, e.last_error
       FROM inventory_entries e JOIN users u ON u.id = e.user_id JOIN items i ON i.id = e.item_id
       WHERE u.steam_id = ${steamId} AND e.server_type = ${server.serverType} AND e.status = 'not_used'
         -- In the player's inventory already, waiting only for the world's save (decision 124).
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
           AND d.status = 'pending' AND d.saving_since IS NOT NULL)
       ORDER BY e.id LIMIT 50`),
  );
  return rows.rows.map((row) => ({
    name: row.name,
    duration_days: row.is_permanent || row.duration_days === 0 ? null : row.duration_days,
    failed: row.last_error !== null,
  }));
}
