import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { SERVER_TEXT } from "#core/messages/admin.ts";
import { isIpPort, SERVER_TYPES } from "#core/shop/server-types.ts";
import { serverHeartbeats, servers } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { constraintViolation, statement } from "../../ports/database.ts";
import { deriveServerKey, generateKeySalt } from "../game/keys.ts";
import { OFFLINE_AFTER_MS } from "../server-status.ts";
import { auditStatement } from "./audit.ts";
import type { AdminResult } from "./balance.ts";
import type { Operator } from "./roles.ts";

export const serverFormSchema = z.object({
  name: z.string().trim().min(1, SERVER_TEXT.name).max(100, SERVER_TEXT.name),
  serverType: z.enum(SERVER_TYPES),
  ipPort: z.string().trim().refine(isIpPort, SERVER_TEXT.ipPort),
});

/** Servers with their last plugin heartbeat and the deliveries waiting for their type. */
export async function listServers(deps: Pick<Deps, "db" | "now">) {
  const now = deps.now().getTime();
  const rows = await deps.db.orm
    .select({
      id: servers.id,
      name: servers.name,
      serverType: servers.serverType,
      ipPort: servers.ipPort,
      hasKey: sql<number>`${servers.keyHash} IS NOT NULL OR ${servers.keySalt} IS NOT NULL`,
      // A key from before decision 103 (its stored hash can sign): replace it.
      legacyKey: sql<number>`${servers.keySalt} IS NULL AND ${servers.keyHash} IS NOT NULL`,
      keyRotatedAt: servers.keyRotatedAt,
      heartbeatAt: serverHeartbeats.receivedAt,
      players: serverHeartbeats.players,
      maxPlayers: serverHeartbeats.maxPlayers,
      pending: sql<number>`(SELECT COUNT(*) FROM deliveries d WHERE d.server_type = ${servers.serverType} AND d.status = 'pending')`,
    })
    .from(servers)
    .leftJoin(serverHeartbeats, eq(serverHeartbeats.serverId, servers.id))
    .orderBy(asc(servers.sortOrder), asc(servers.id));
  return rows.map((row) => ({
    ...row,
    hasKey: Boolean(row.hasKey),
    legacyKey: Boolean(row.legacyKey),
    online: row.heartbeatAt != null && now - row.heartbeatAt < OFFLINE_AFTER_MS,
  }));
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
    const results = await deps.db.batch([
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

export type RemoveResult =
  | { ok: true; serverId: number; strandedRevokes: number }
  | Extract<AdminResult, { ok: false }>;

/**
 * Removes a server, its heartbeat and its key, with a journal row, all in one batch. Refused while
 * the server holds leased deliveries (it may be running them; its acknowledgement must find it).
 * Ranks it granted live in its Oxide and can't be revoked elsewhere: their pending revokes become
 * `stranded` now, naming the server, for an operator to take the ranks away by hand when they end
 * (deliveries page). The entries keep their history but no longer point at the removed server.
 */
export async function removeServer(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  serverId: number,
): Promise<RemoveResult> {
  const now = deps.now().getTime();
  const leased = sql`EXISTS (SELECT 1 FROM deliveries WHERE leased_server_id = ${serverId} AND status = 'pending' AND lease_until > ${now})`;
  const removable = sql`EXISTS (SELECT 1 FROM servers WHERE id = ${serverId}) AND NOT ${leased}`;
  const grantedThere = sql`SELECT id FROM inventory_entries WHERE used_server_id = ${serverId}`;
  const [audit, stranded] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.remove",
        targetType: "server",
        targetId: serverId,
        before: sql`(SELECT json_object('name', name, 'server_type', server_type, 'ip_port', ip_port,
          'pending_revokes', (SELECT COUNT(*) FROM deliveries WHERE kind = 'revoke' AND status = 'pending'
            AND inventory_entry_id IN (${grantedThere})))
          FROM servers WHERE id = ${serverId})`,
        after: null,
        now,
      },
      removable,
    ),
    statement(sql`UPDATE deliveries SET status = 'stranded', lease_until = NULL,
        last_error = (SELECT 'Сервер #' || s.id || ' «' || s.name || '», выдавший привилегию, удалён; снимите её вручную по окончании срока'
          FROM servers s WHERE s.id = ${serverId})
      WHERE kind = 'revoke' AND status = 'pending' AND inventory_entry_id IN (${grantedThere}) AND ${removable}`),
    statement(
      sql`UPDATE inventory_entries SET used_server_id = NULL WHERE used_server_id = ${serverId} AND ${removable}`,
    ),
    statement(sql`DELETE FROM game_request_nonces WHERE server_id = ${serverId} AND ${removable}`),
    statement(sql`DELETE FROM servers WHERE id = ${serverId} AND NOT ${leased}`),
  ]);
  if (audit?.changes === 1) return { ok: true, serverId, strandedRevokes: stranded?.changes ?? 0 };
  const exists = await deps.db.run(statement(sql`SELECT 1 FROM servers WHERE id = ${serverId}`));
  if (exists.rows.length === 0) return { ok: false, status: 404, error: SERVER_TEXT.notFound };
  return { ok: false, status: 409, error: SERVER_TEXT.busy };
}
