import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { lastServerQueueText, SERVER_TEXT } from "#core/messages/admin.ts";
import { isIpPort, SERVER_TYPES } from "#core/shop/server-types.ts";
import { scheduleFromColumns, scheduleToColumns, type WipeSchedule } from "#core/wipe/schedule.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, read, statement } from "../../ports/database.ts";
import { deriveServerKey, generateKeySalt } from "../game/keys.ts";
import { heartbeatAlive } from "../game/liveness.ts";
import { followServerChanges } from "../server-status.ts";
import { batchChangingCatalog } from "../shop/catalog-snapshot.ts";
import { auditStatement } from "./audit.ts";
import type { AdminResult } from "./balance.ts";
import type { Operator } from "./roles.ts";

export const serverFormSchema = z.object({
  name: z.string().trim().min(1, SERVER_TEXT.name).max(100, SERVER_TEXT.name),
  serverType: z.enum(SERVER_TYPES),
  ipPort: z.string().trim().refine(isIpPort, SERVER_TEXT.ipPort),
});

interface ServerListRow {
  id: number;
  name: string;
  serverType: string;
  ipPort: string;
  hasKey: number;
  legacyKey: number;
  keyRotatedAt: number | null;
  heartbeatAt: number | null;
  /** Whether its doorbell was connected at the heartbeat (decision 146); null: its plugin has none. */
  doorbell: number | null;
  players: number | null;
  maxPlayers: number | null;
  pending: number;
  wipeKind: string;
  wipeWeekday: number | null;
  wipeMinute: number | null;
  wipeEveryWeeks: number | null;
  wipeFrom: string | null;
  lastWipeAt: number | null;
  /** The wipe fair-play windows count from (servers.last_wipe_at, decision 129). */
  countedWipeAt: number | null;
}

const SERVERS_READ = `SELECT s.id, s.name, s.server_type AS serverType, s.ip_port AS ipPort,
    s.key_hash IS NOT NULL OR s.key_salt IS NOT NULL AS hasKey,
    s.key_salt IS NULL AND s.key_hash IS NOT NULL AS legacyKey,
    s.key_rotated_at AS keyRotatedAt, h.received_at AS heartbeatAt, h.doorbell, h.players, h.max_players AS maxPlayers,
    (SELECT COUNT(*) FROM deliveries d WHERE d.server_type = s.server_type AND d.status = 'pending') AS pending,
    s.wipe_kind AS wipeKind, s.wipe_weekday AS wipeWeekday, s.wipe_minute AS wipeMinute,
    s.wipe_every_weeks AS wipeEveryWeeks, s.wipe_from AS wipeFrom,
    (SELECT MAX(w.wiped_at) FROM server_wipes w WHERE w.server_id = s.id) AS lastWipeAt,
    s.last_wipe_at AS countedWipeAt
  FROM servers s LEFT JOIN server_heartbeats h ON h.server_id = s.id
  ORDER BY s.sort_order, s.id`;

/**
 * Server types that are not sold because no server of theirs exists (decision 122): those with
 * listed items or grants queued, and how many Корзина entries wait for them (as `waitingOn` counts).
 */
const UNSERVED_READ = `SELECT t.server_type AS serverType,
    (SELECT COUNT(*) FROM inventory_entries e WHERE e.server_type = t.server_type AND e.status = 'not_used'
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
        AND d.status <> 'pending')) AS waiting
  FROM (SELECT server_type FROM items WHERE is_available = 1
    UNION SELECT server_type FROM deliveries WHERE kind = 'grant' AND status = 'pending') t
  WHERE NOT EXISTS (SELECT 1 FROM servers s WHERE s.server_type = t.server_type)
  ORDER BY t.server_type`;

/**
 * Servers with their last plugin heartbeat and the deliveries waiting for their type; and the types
 * left without a server, which the shop doesn't sell until one is added. One round trip.
 */
export async function listServers(deps: Pick<Deps, "db" | "now">) {
  const now = deps.now().getTime();
  const [rows, unserved] = await deps.db.read([
    read<ServerListRow>(SERVERS_READ),
    read<{ serverType: string; waiting: number }>(UNSERVED_READ),
  ] as const);
  return {
    servers: rows.map(({ wipeKind, wipeWeekday, wipeMinute, wipeEveryWeeks, wipeFrom, ...row }) => ({
      ...row,
      wipe: scheduleFromColumns({ wipeKind, wipeWeekday, wipeMinute, wipeEveryWeeks, wipeFrom }),
      hasKey: Boolean(row.hasKey),
      // A key from before decision 103 (its stored hash can sign): replace it.
      legacyKey: Boolean(row.legacyKey),
      doorbell: row.doorbell === null ? null : Boolean(row.doorbell),
      online: heartbeatAlive({ receivedAt: row.heartbeatAt, doorbell: row.doorbell }, now),
    })),
    unserved,
  };
}

export type KeyResult = { ok: true; serverId: number; key: string } | Extract<AdminResult, { ok: false }>;

/**
 * Registers a server with a new plugin key, returned once. The database keeps only the salt: the
 * key is derived from GAME_KEY_SECRET, the id and the salt (decision 103).
 */
export async function addServer(
  deps: Pick<Deps, "db" | "now" | "config">,
  operator: Operator,
  input: z.infer<typeof serverFormSchema>,
): Promise<KeyResult> {
  const now = deps.now().getTime();
  const salt = generateKeySalt();
  try {
    // A new server's type may be sold again: the catalog's revision moves (decision 122).
    const results = await batchChangingCatalog(deps.db, [
      statement(sql`INSERT INTO servers (name, server_type, ip_port, sort_order, key_salt, key_rotated_at)
        VALUES (${input.name}, ${input.serverType}, ${input.ipPort},
          (SELECT COALESCE(MAX(sort_order), -1) + 1 FROM servers), ${salt}, ${now})`),
      auditStatement({
        operator,
        action: "server.add",
        targetType: "server",
        targetId: sql`(SELECT id FROM servers WHERE ip_port = ${input.ipPort})`,
        before: null,
        after: { ...input },
        now,
      }),
      statement(sql`SELECT id FROM servers WHERE ip_port = ${input.ipPort}`),
    ]);
    const id = (results[2]?.rows[0] as { id: number } | undefined)?.id ?? 0;
    return { ok: true, serverId: id, key: await deriveServerKey(deps.config.gameKeySecret, id, salt) };
  } catch (error) {
    if (constraintViolation(error)?.kind === "UNIQUE") return { ok: false, status: 409, error: SERVER_TEXT.duplicate };
    throw error;
  }
}

/** A new key for a server (a new salt; a legacy stored hash is dropped); the old one stops working at once. */
export async function rotateServerKey(
  deps: Pick<Deps, "db" | "now" | "config">,
  operator: Operator,
  serverId: number,
): Promise<KeyResult> {
  const now = deps.now().getTime();
  const salt = generateKeySalt();
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.rotate_key",
        targetType: "server",
        targetId: serverId,
        before: sql`(SELECT json_object('key_rotated_at', key_rotated_at) FROM servers WHERE id = ${serverId})`,
        after: { key_rotated_at: now },
        now,
      },
      sql`EXISTS (SELECT 1 FROM servers WHERE id = ${serverId})`,
    ),
    statement(
      sql`UPDATE servers SET key_hash = NULL, key_salt = ${salt}, key_rotated_at = ${now} WHERE id = ${serverId}`,
    ),
  ]);
  if (audit?.changes !== 1) return { ok: false, status: 404, error: SERVER_TEXT.notFound };
  return { ok: true, serverId, key: await deriveServerKey(deps.config.gameKeySecret, serverId, salt) };
}

/**
 * Sets a server's wipe schedule (decision 128), journaled with the schedule before and after in the
 * same batch. The status cron carries it to the server list within two minutes (decision 001).
 */
export async function setWipeSchedule(
  deps: Pick<Deps, "db" | "now" | "kv">,
  operator: Operator,
  serverId: number,
  schedule: WipeSchedule,
): Promise<{ ok: true; serverId: number } | Extract<AdminResult, { ok: false }>> {
  const now = deps.now().getTime();
  const columns = scheduleToColumns(schedule);
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.wipe_schedule",
        targetType: "server",
        targetId: serverId,
        before: sql`(SELECT json_object('kind', wipe_kind, 'weekday', wipe_weekday, 'minute', wipe_minute,
          'weeks', wipe_every_weeks, 'from', wipe_from) FROM servers WHERE id = ${serverId})`,
        after: { ...schedule },
        now,
      },
      sql`EXISTS (SELECT 1 FROM servers WHERE id = ${serverId})`,
    ),
    statement(sql`UPDATE servers SET wipe_kind = ${columns.wipeKind}, wipe_weekday = ${columns.wipeWeekday},
        wipe_minute = ${columns.wipeMinute}, wipe_every_weeks = ${columns.wipeEveryWeeks}, wipe_from = ${columns.wipeFrom},
        -- Its wipes count from now on: a slot already past when it was set is no wipe that happened (decision 130).
        wipe_schedule_set_at = ${now}
      WHERE id = ${serverId}`),
  ]);
  if (audit?.changes !== 1) return { ok: false, status: 404, error: SERVER_TEXT.notFound };
  await followInStatus(deps);
  return { ok: true, serverId };
}

/** The pages that read the status document show the change now; a failure leaves it to the cron. */
async function followInStatus(deps: Pick<Deps, "db" | "kv">): Promise<void> {
  await followServerChanges(deps).catch((error: unknown) => {
    console.error(JSON.stringify({ event: "server_status_follow_failed", error: String(error) }));
  });
}

/**
 * `FROM … WHERE …` of the Корзина entries waiting for a server of type `serverType`: not delivered,
 * their grant pending or not queued yet (the cron queues grants once a minute), so a purchase made a
 * moment ago counts. Entries whose grant failed or was cancelled wait for an operator, not a server.
 */
function waitingOn(serverType: SQL) {
  return sql`FROM inventory_entries e WHERE e.server_type = ${serverType} AND e.status = 'not_used'
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
      AND d.status <> 'pending')`;
}

export type RemoveResult =
  | {
      ok: true;
      serverId: number;
      strandedRevokes: number;
      /** It was the last server of its type: that type is no longer sold, its queue waits (decision 122). */
      lastOfType: { serverType: string; waiting: number } | null;
    }
  | {
      ok: false;
      status: 409;
      error: string;
      /** The last server of a type with grants waiting: removed only when asked again with `confirmQueued`. */
      queued: { serverId: number; serverType: string; waiting: number };
    }
  | Extract<AdminResult, { ok: false }>;

/**
 * Removes a server, its heartbeat and its key, with a journal row, all in one batch. Refused while
 * the server holds leased deliveries (it may be running them; its acknowledgement must find it).
 * Ranks it granted live in its Oxide and can't be revoked elsewhere: their pending revokes become
 * `stranded` now, naming the server, for an operator to take the ranks away by hand when they end
 * (deliveries page). The entries keep their history but no longer point at the removed server.
 * The last server of a type whose grants are waiting is removed only with `confirmQueued`: the
 * first answer says how many wait (decision 122). Its type then stops selling; the queue stays
 * and is delivered once a server of the type is added again.
 */
export async function removeServer(
  deps: Pick<Deps, "db" | "now" | "kv">,
  operator: Operator,
  serverId: number,
  options: { confirmQueued?: boolean } = {},
): Promise<RemoveResult> {
  const now = deps.now().getTime();
  const leased = sql`EXISTS (SELECT 1 FROM deliveries WHERE leased_server_id = ${serverId} AND status = 'pending' AND lease_until > ${now})`;
  const typeOf = sql`(SELECT server_type FROM servers WHERE id = ${serverId})`;
  const lastOfType = sql`NOT EXISTS (SELECT 1 FROM servers o WHERE o.server_type = ${typeOf} AND o.id <> ${serverId})`;
  const grantsWaiting = waitingOn(typeOf);
  const queueAllowed = options.confirmQueued ? sql`1` : sql`NOT (${lastOfType} AND EXISTS (SELECT 1 ${grantsWaiting}))`;
  const removable = sql`EXISTS (SELECT 1 FROM servers WHERE id = ${serverId}) AND NOT ${leased} AND ${queueAllowed}`;
  const grantedThere = sql`SELECT id FROM inventory_entries WHERE used_server_id = ${serverId}`;
  // The revokes that would run there: its entries' own, and the twins of grants split onto it (decision 132).
  const revokesThere = sql`((kind = 'revoke' AND inventory_entry_id IN (${grantedThere})) OR revoke_server_id = ${serverId})`;
  // The last server of a type takes the type off sale: the catalog's revision moves (decision 122).
  const [state, audit, stranded] = await batchChangingCatalog(deps.db, [
    // What the answer says, read before anything changes: the server's type, whether it is busy,
    // whether it is the last of its type, and how many grants wait for that type.
    statement(sql`SELECT server_type AS serverType, ${leased} AS busy, ${lastOfType} AS last,
        (SELECT COUNT(*) ${grantsWaiting}) AS waiting
      FROM servers WHERE id = ${serverId}`),
    auditStatement(
      {
        operator,
        action: "server.remove",
        targetType: "server",
        targetId: serverId,
        before: sql`(SELECT json_object('name', name, 'server_type', server_type, 'ip_port', ip_port,
          'pending_revokes', (SELECT COUNT(*) FROM deliveries WHERE status = 'pending' AND ${revokesThere}),
          'last_of_type', json(CASE WHEN ${lastOfType} THEN 'true' ELSE 'false' END),
          'grants_waiting', (SELECT COUNT(*) ${grantsWaiting}))
          FROM servers WHERE id = ${serverId})`,
        after: null,
        now,
      },
      removable,
    ),
    statement(sql`UPDATE deliveries SET status = 'stranded', lease_until = NULL,
        last_error = (SELECT 'Сервер #' || s.id || ' «' || s.name || '», выдавший привилегию, удалён; снимите её вручную по окончании срока'
          FROM servers s WHERE s.id = ${serverId})
      WHERE status = 'pending' AND ${revokesThere} AND ${removable}`),
    statement(
      sql`UPDATE inventory_entries SET used_server_id = NULL WHERE used_server_id = ${serverId} AND ${removable}`,
    ),
    statement(sql`DELETE FROM game_request_marks WHERE server_id = ${serverId} AND ${removable}`),
    statement(sql`DELETE FROM servers WHERE id = ${serverId} AND ${removable}`),
  ]);
  const [server] = (state?.rows ?? []) as { serverType: string; busy: number; last: number; waiting: number }[];
  if (!server) return { ok: false, status: 404, error: SERVER_TEXT.notFound };
  const waiting = Number(server.waiting);
  if (audit?.changes === 1) {
    await followInStatus(deps);
    return {
      ok: true,
      serverId,
      strandedRevokes: stranded?.changes ?? 0,
      lastOfType: server.last ? { serverType: server.serverType, waiting } : null,
    };
  }
  if (!server.busy && server.last && waiting > 0 && !options.confirmQueued) {
    return {
      ok: false,
      status: 409,
      error: lastServerQueueText(server.serverType, waiting),
      queued: { serverId, serverType: server.serverType, waiting },
    };
  }
  return { ok: false, status: 409, error: SERVER_TEXT.busy };
}
