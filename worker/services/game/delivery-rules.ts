import { sql } from "drizzle-orm";
import type { deliveries } from "#db/schema.ts";
import { rawSql } from "../../ports/database.ts";
import { renderCommand } from "./commands.ts";
import { heartbeatAliveSql } from "./liveness.ts";

// Pull-based delivery, each command exactly once (decisions 061, 104, 124).
//
// A `deliveries` row is one unit of work for the plugin: grant an inventory entry, or revoke
// it when its time is up. Rows are created lazily and idempotently (UNIQUE(entry, kind)), with
// ids derived from the entry (delivery-id.ts), so the shop and promo codes only ever write
// inventory entries. Its commands are fixed at the first lease; the plugins report each command's
// progress (progress.ts) and the row is `done` once every command is saved in the game's world.

/** A served delivery is reserved for the server that took it this long. */
export const LEASE_MS = 5 * 60 * 1000;
/** Delay before the next try after the 1st, 2nd, 3rd, 4th failure. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const;
/** The failure that makes a delivery `failed` and shows its reason in the Корзина. */
export const MAX_ATTEMPTS = 5;
export const MAX_DELIVERIES_PER_POLL = 20;
export const DAY_MS = 24 * 60 * 60 * 1000;
// The plugin runs an answer in order: an overdue revoke before a new grant of the same rank,
// so the grant is what stays.
export const SERVED_ORDER = rawSql("CASE d.kind WHEN 'grant' THEN 1 ELSE 0 END, d.not_before, d.created_at");

/**
 * Whether inventory entries `a` and `b` (SQL aliases) hold the same rank: the same item, or
 * items whose revoke templates are the same set, since revoking either takes the same thing
 * away (docs/decisions/063-timed-ranks-stack.md).
 */
export function sameRank(a: string, b: string) {
  const revokesOf = (entry: string, alias: string) =>
    `SELECT 1 FROM item_commands ${alias} WHERE ${alias}.item_id = ${entry}.item_id AND ${alias}.phase = 'revoke'`;
  const allIn = (from: string, to: string) =>
    `NOT EXISTS (${revokesOf(from, "rk_from")} AND NOT EXISTS (${revokesOf(to, "rk_to")} AND rk_to.template = rk_from.template))`;
  return rawSql(
    `(${a}.item_id = ${b}.item_id OR (EXISTS (${revokesOf(a, "rk_any")}) AND ${allIn(a, b)} AND ${allIn(b, a)}))`,
  );
}

/**
 * Whether server `serverId` (SQL) is alive (liveness.ts) and of type `serverType` (SQL). A delivery stays
 * with its home, and with the holder of a lease it never reported, while that server is alive; a
 * reported one moves on when its home is not (decision 124).
 */
export function alive(serverId: string, serverType: string, now: number) {
  return sql`EXISTS (SELECT 1 FROM server_heartbeats h JOIN servers s ON s.id = h.server_id
    WHERE h.server_id = ${rawSql(serverId)} AND s.server_type = ${rawSql(serverType)}
      AND ${heartbeatAliveSql("h", now)})`;
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
