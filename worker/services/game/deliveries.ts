import { sql } from "drizzle-orm";
import { DELIVERY_INTERRUPTED } from "#core/messages/game.ts";
import type { deliveries } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { rawSql, type Statement, statement } from "../../ports/database.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { renderCommand } from "./commands.ts";
import type { GameServer } from "./signature.ts";

// Pull-based, exactly-once delivery (docs/decisions/061-delivery-leases-and-acks.md).
//
// A `deliveries` row is one unit of work for the plugin: grant an inventory entry, or revoke
// it when its time is up. Rows are created lazily and idempotently (UNIQUE(entry, kind)), so
// the shop and promo codes only ever write inventory entries.

/** A served delivery is reserved for the server that took it this long. */
export const LEASE_MS = 5 * 60 * 1000;
/**
 * After its lease ends, an unacknowledged delivery goes back to the same server at once, but to
 * another server of the type only after this much longer: the first may have run it and crashed
 * before the ack (its journal then acks on restart without running it again).
 */
export const HANDOFF_MS = 30 * 60 * 1000;
/**
 * …and never while the leasing server is alive (a heartbeat this recent, and still of the type):
 * it will poll again and either run the delivery or acknowledge it from its journal (decision 104).
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
const SERVED_ORDER = rawSql("CASE d.kind WHEN 'revoke' THEN 0 ELSE 1 END, d.not_before, d.created_at");

// A random RFC 4122 version 4 UUID, per row, in SQL.
const UUID_SQL =
  sql.raw(`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
  || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`);

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
}

export interface AckResult {
  delivery_id: string;
  ok: boolean;
  message?: string | undefined;
  /** The plugin started it and crashed before finishing; it will never run it again. */
  interrupted?: boolean | undefined;
}

export type AckStatus = "done" | "retry" | "failed" | "duplicate";

export type AckOutcome =
  | { status: "ok"; results: { delivery_id: string; status: AckStatus }[] }
  | { status: "unknown"; ids: string[] }
  | { status: "forbidden"; ids: string[] };

/** Grant deliveries for every not-yet-delivered entry that has none (optionally of one server type). */
export async function ensureGrantDeliveries(deps: Deps, serverType: string | null = null): Promise<number> {
  const now = deps.now().getTime();
  const result = await deps.db.run(
    statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
       SELECT ${UUID_SQL}, e.id, 'grant', e.server_type, u.steam_id, i.requires_online, 'pending', 0, ${now}, ${now}
       FROM inventory_entries e
       JOIN users u ON u.id = e.user_id
       JOIN items i ON i.id = e.item_id
       WHERE e.status = 'not_used'
         AND (${serverType} IS NULL OR e.server_type = ${serverType})
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant')
       ON CONFLICT DO NOTHING`),
  );
  return result.changes;
}

/**
 * Revoke deliveries for delivered timed entries that lack one (the ack normally creates them;
 * this is the cron's backstop, e.g. for revoke commands added to an item later). Due at expiry.
 */
export async function ensureRevokeDeliveries(deps: Deps): Promise<number> {
  const now = deps.now().getTime();
  const result = await deps.db.run(
    statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
       SELECT ${UUID_SQL}, e.id, 'revoke', e.server_type, u.steam_id, 0, 'pending', 0, e.expires_at, ${now}
       FROM inventory_entries e
       JOIN users u ON u.id = e.user_id
       WHERE e.status = 'used' AND e.expires_at IS NOT NULL
         AND EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = 'revoke')
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'revoke')
       ON CONFLICT DO NOTHING`),
  );
  return result.changes;
}

/**
 * Leases the deliveries due on this server's type whose player is online (or that may run
 * offline) and returns them with their rendered commands. One UPDATE … RETURNING, so two
 * servers polling at once can't both take the same row.
 */
export async function leaseDeliveries(deps: Deps, server: GameServer, online: string[]): Promise<ServedDelivery[]> {
  await ensureGrantDeliveries(deps, server.serverType);
  const now = deps.now().getTime();
  const [, leased] = await deps.db.batch([
    supersedeCoveredRevokes(now, server.id),
    statement(sql`UPDATE deliveries SET lease_until = ${now} + ${LEASE_MS}, leased_server_id = ${server.id}
       WHERE id IN (
         SELECT d.id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
         WHERE d.server_type = ${server.serverType} AND d.status = 'pending' AND d.not_before <= ${now}
           AND (d.requires_online = 0 OR d.steam_id IN (SELECT value FROM json_each(${JSON.stringify(online)})))
           AND (d.leased_server_id IS NULL
             OR d.lease_until IS NULL
             OR (d.leased_server_id = ${server.id} AND d.lease_until <= ${now})
             OR (d.lease_until + ${HANDOFF_MS} <= ${now} AND NOT EXISTS (
               SELECT 1 FROM server_heartbeats h JOIN servers s ON s.id = h.server_id
               WHERE h.server_id = d.leased_server_id AND s.server_type = d.server_type
                 AND h.received_at > ${now - LEASE_HOLDER_ALIVE_MS})))
           AND EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = d.kind)
           -- A grant only for an entry still waiting: one returned by its buyer is never handed out (decision 111).
           AND (d.kind <> 'grant' OR e.status = 'not_used')
           -- The rank lives in the Oxide of the server that granted it.
           AND (d.kind = 'grant' OR e.used_server_id = ${server.id})
           -- A grant of the rank that this server may have run but not yet acknowledged would be undone.
           AND (d.kind = 'grant' OR NOT EXISTS (
             SELECT 1 FROM deliveries g JOIN inventory_entries ge ON ge.id = g.inventory_entry_id
             WHERE g.kind = 'grant' AND g.status = 'pending' AND g.leased_server_id = ${server.id}
               AND ge.user_id = e.user_id AND ${sameRank("ge", "e")}))
         ORDER BY ${SERVED_ORDER}
         LIMIT ${MAX_DELIVERIES_PER_POLL})
       RETURNING id`),
  ]);
  const ids = ((leased?.rows ?? []) as { id: string }[]).map((row) => row.id);
  if (ids.length === 0) return [];

  const idsJson = JSON.stringify(ids);
  const [details, commands] = await deps.db.batch([
    statement(sql`SELECT d.id, d.kind, d.steam_id, d.requires_online, d.not_before, d.created_at, e.item_id, e.duration_days, e.is_permanent, u.nickname, i.name AS title
         FROM deliveries d
         JOIN inventory_entries e ON e.id = d.inventory_entry_id
         JOIN users u ON u.id = e.user_id
         JOIN items i ON i.id = e.item_id
         WHERE d.id IN (SELECT value FROM json_each(${idsJson}))
         ORDER BY ${SERVED_ORDER}`),
    statement(sql`SELECT c.item_id, c.phase, c.template FROM item_commands c
         WHERE c.item_id IN (SELECT e.item_id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
                             WHERE d.id IN (SELECT value FROM json_each(${idsJson})))
         ORDER BY c.sort_order, c.id`),
  ]);

  const templates = new Map<string, string[]>();
  for (const row of (commands?.rows ?? []) as { item_id: number; phase: string; template: string }[]) {
    const key = `${row.item_id}:${row.phase}`;
    templates.set(key, [...(templates.get(key) ?? []), row.template]);
  }
  return (
    (details?.rows ?? []) as {
      id: string;
      kind: "grant" | "revoke";
      steam_id: string;
      requires_online: number;
      item_id: number;
      duration_days: number | null;
      is_permanent: number;
      nickname: string;
      title: string;
    }[]
  ).map((row) => ({
    delivery_id: row.id,
    kind: row.kind,
    steam_id: row.steam_id,
    requires_online: row.requires_online === 1,
    title: row.title,
    duration_days: row.is_permanent ? null : row.duration_days,
    commands: (templates.get(`${row.item_id}:${row.kind}`) ?? []).map((template) =>
      renderCommand(template, {
        steamId: row.steam_id,
        nickname: row.nickname,
        days: row.duration_days,
        server: server.name,
      }),
    ),
  }));
}

export type DeliveryStatus = (typeof deliveries.$inferSelect)["status"];

/**
 * A pending revoke is `superseded` when another entry of the same rank, delivered on the same
 * server to the same player, ends later (or never): that entry's revoke takes the rank away
 * once, when no paid time is left. Ties go to the higher id, so exactly one revoke remains.
 */
function supersedeCoveredRevokes(now: number, serverId: number | null): Statement {
  return statement(sql`UPDATE deliveries SET status = 'superseded', lease_until = NULL, done_at = ${now}
     WHERE kind = 'revoke' AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})
       AND EXISTS (
         SELECT 1 FROM inventory_entries a JOIN inventory_entries b
           ON b.user_id = a.user_id AND b.server_type = a.server_type AND b.used_server_id = a.used_server_id
         WHERE a.id = deliveries.inventory_entry_id AND (${serverId} IS NULL OR a.used_server_id = ${serverId})
           AND b.id <> a.id AND b.status = 'used'
           AND (b.is_permanent = 1 OR b.expires_at > a.expires_at OR (b.expires_at = a.expires_at AND b.id > a.id))
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
           last_error = (SELECT CASE WHEN e.used_server_id IS NULL
                 THEN 'Неизвестно, какой сервер выдал привилегию; снимите её вручную'
                 ELSE 'Сервер #' || e.used_server_id || ', выдавший привилегию, удалён или сменил тип; снимите её вручную' END
               FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
       WHERE kind = 'revoke' AND status = 'pending' AND not_before <= ${now}
         AND (lease_until IS NULL OR lease_until <= ${now})
         AND NOT EXISTS (SELECT 1 FROM inventory_entries e JOIN servers s ON s.id = e.used_server_id
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
}

function failureDelay(attemptsBefore: number): number {
  return RETRY_DELAYS_MS[Math.min(attemptsBefore, RETRY_DELAYS_MS.length - 1)] ?? 60_000;
}

/**
 * Applies the plugin's results. The whole request is refused, with nothing else changed, when it
 * names an unknown delivery (404) or one that is not (or no longer) handed to this server (403);
 * a 403 marks those deliveries for the console, since this server may have run them after they
 * were handed to another one (decision 104). Repeating an acknowledgement changes nothing.
 */
export async function acknowledgeDeliveries(deps: Deps, server: GameServer, results: AckResult[]): Promise<AckOutcome> {
  const ids = [...new Set(results.map((result) => result.delivery_id))];
  const rows = await deps.db.run<DeliveryState>(
    statement(sql`SELECT id, kind, status, attempts, lease_until, leased_server_id, done_server_id
       FROM deliveries WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  const byId = new Map(rows.rows.map((row) => [row.id, row]));

  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) return { status: "unknown", ids: unknown };
  const forbidden = ids.filter((id) => {
    const row = byId.get(id);
    if (!row) return true;
    return row.status === "done" ? row.done_server_id !== server.id : row.leased_server_id !== server.id;
  });
  if (forbidden.length > 0) {
    await markRefusedAcks(deps, server, forbidden);
    return { status: "forbidden", ids: forbidden };
  }

  const now = deps.now().getTime();
  const statements: Statement[] = [];
  const outcomes: { delivery_id: string; status: AckStatus }[] = [];
  const seen = new Set<string>();
  let coversRanks = false;

  for (const result of results) {
    const row = byId.get(result.delivery_id);
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    if (row.status !== "pending" || (!result.ok && row.lease_until === null)) {
      // Already done or failed, or this failure was already counted: an acknowledgement repeated.
      outcomes.push({ delivery_id: row.id, status: "duplicate" });
      continue;
    }

    if (result.ok) {
      statements.push(
        statement(sql`UPDATE deliveries SET status = 'done', done_at = ${now}, done_server_id = ${server.id}, lease_until = NULL, last_error = NULL
             WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id}`),
      );
      if (row.kind === "grant") {
        const justDelivered = sql`EXISTS (SELECT 1 FROM deliveries WHERE id = ${row.id} AND status = 'done' AND done_server_id = ${server.id} AND done_at = ${now})`;
        statements.push(
          // Time on a rank stacks: it starts when the player's paid time on it on this server ends.
          statement(sql`UPDATE inventory_entries AS e
               SET status = 'used', used_at = ${now}, used_server_id = ${server.id}, last_error = NULL,
                   expires_at = CASE WHEN e.is_permanent = 0 AND e.duration_days IS NOT NULL THEN
                     max(${now}, coalesce((SELECT max(p.expires_at) FROM inventory_entries p
                       WHERE p.user_id = e.user_id AND p.server_type = e.server_type AND p.used_server_id = ${server.id}
                         AND p.status = 'used' AND p.expires_at > ${now} AND ${sameRank("p", "e")}), 0))
                     + e.duration_days * ${DAY_MS} END
               WHERE e.id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${row.id})
                 AND e.status = 'not_used' AND ${justDelivered}`),
          // Every running entry of the rank shows the rank's real end, and its revoke moves there.
          statement(sql`UPDATE inventory_entries AS p
               SET expires_at = (SELECT e.expires_at FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id WHERE d.id = ${row.id})
               WHERE p.status = 'used' AND p.expires_at > ${now} AND p.used_server_id = ${server.id}
                 AND ${justDelivered}
                 AND EXISTS (SELECT 1 FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
                   WHERE d.id = ${row.id} AND e.id <> p.id AND e.expires_at IS NOT NULL
                     AND e.user_id = p.user_id AND e.server_type = p.server_type AND ${sameRank("p", "e")})`),
          statement(sql`UPDATE deliveries
               SET not_before = (SELECT e.expires_at FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
               WHERE kind = 'revoke' AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})
                 AND not_before < (SELECT e.expires_at FROM inventory_entries e WHERE e.id = deliveries.inventory_entry_id)
                 AND inventory_entry_id IN (SELECT id FROM inventory_entries WHERE used_server_id = ${server.id}
                   AND user_id = (SELECT e.user_id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id WHERE d.id = ${row.id}))`),
          statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
               SELECT ${crypto.randomUUID()}, e.id, 'revoke', e.server_type, d.steam_id, 0, 'pending', 0, e.expires_at, ${now}
               FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
               WHERE d.id = ${row.id} AND e.expires_at IS NOT NULL
                 AND EXISTS (SELECT 1 FROM item_commands c WHERE c.item_id = e.item_id AND c.phase = 'revoke')
               ON CONFLICT DO NOTHING`),
        );
        coversRanks = true;
      }
      outcomes.push({ delivery_id: row.id, status: "done" });
      continue;
    }

    if (result.interrupted) {
      // Failed at once, whatever the attempts: an operator checks the game by hand and retries.
      statements.push(
        statement(sql`UPDATE deliveries
             SET attempts = attempts + 1, last_error = ${DELIVERY_INTERRUPTED}, lease_until = NULL, status = 'failed'
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

    const message = (result.message ?? "").trim().slice(0, 300) || "без описания";
    const finalFailure = row.attempts + 1 >= MAX_ATTEMPTS;
    statements.push(
      statement(sql`UPDATE deliveries
           SET attempts = attempts + 1, last_error = ${message}, lease_until = NULL,
               status = CASE WHEN attempts + 1 >= ${MAX_ATTEMPTS} THEN 'failed' ELSE 'pending' END,
               not_before = ${now} + ${failureDelay(row.attempts)}
           WHERE id = ${row.id} AND status = 'pending' AND leased_server_id = ${server.id} AND lease_until IS NOT NULL AND attempts = ${row.attempts}`),
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

  if (coversRanks) statements.push(supersedeCoveredRevokes(now, server.id));
  if (statements.length > 0) await deps.db.batch(statements);
  return { status: "ok", results: outcomes };
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
       ORDER BY e.id LIMIT 50`),
  );
  return rows.rows.map((row) => ({
    name: row.name,
    duration_days: row.is_permanent ? null : row.duration_days,
    failed: row.last_error !== null,
  }));
}
