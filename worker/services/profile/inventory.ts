import { kopecksToRubles } from "#core/format/money.ts";
import { deliveryFailedText } from "#core/messages/inventory.ts";
import type { InventoryFilter, InventoryItem } from "#core/profile/types.ts";
import { isUntilWipe } from "#core/shop/until-wipe.ts";
import { earliestNextWipe, scheduleFromColumns } from "#core/wipe/schedule.ts";
import type { Deps } from "../../deps.ts";
import { read } from "../../ports/database.ts";
import { SESSION_PLAYER_SQL, type SessionKey } from "../auth/sessions.ts";
import { isoOrNull } from "./time.ts";

/** A row of the Корзина's read, as SQLite gives it. */
interface InventoryRow {
  id: number;
  itemName: string;
  itemImage: string;
  serverType: string;
  durationDays: number | null;
  /** 0 or 1. */
  isPermanent: number;
  /** 0 or 1. */
  isOneTime: number;
  status: InventoryItem["status"];
  createdAt: number;
  usedAt: number | null;
  expiresAt: number | null;
  lastError: string | null;
  purchaseId: number | null;
  price: number | null;
  returnUntil: number | null;
  /** 1 when its owner may return it now, else 0 or NULL. */
  returnable: number | null;
  /** 1 when part of it is in the game already (decision 124). */
  delivering: number | null;
  giftFrom: string | null;
  /** JSON [hours, until] of the fair-play window the entry waits out, or NULL (decision 129). */
  fairPlay: string | null;
  /**
   * A «до вайпа» entry not ended yet (decision 130): JSON of the wipe schedules that end it, the
   * delivering server's, or while it waits its type's servers' ([kind, weekday, minute, weeks, from]).
   */
  wipeSchedules: string | null;
}

/**
 * The Корзина's SQL: `?1` names the player (an id, or the session's player, decision 112), `?2` is
 * the time now, `?3` the status when filtered. Each entry says whether its owner may return it now
 * (decision 111): bought by them, waiting, inside its window, and never leased to a game server; the
 * return's own batch checks it again.
 */
function inventorySql(player: string, filtered: boolean): string {
  return `SELECT e.id AS id, i.name AS itemName, i.img AS itemImage, e.server_type AS serverType,
      e.duration_days AS durationDays, e.is_permanent AS isPermanent, i.is_one_time AS isOneTime, e.status AS status,
      e.created_at AS createdAt, e.used_at AS usedAt, e.expires_at AS expiresAt, e.last_error AS lastError,
      e.purchase_id AS purchaseId, p.price AS price, e.return_until AS returnUntil,
      (e.status = 'not_used' AND p.user_id = e.user_id AND p.status = 'completed' AND e.return_until > ?2
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
          AND (d.leased_server_id IS NOT NULL OR d.status <> 'pending'))) AS returnable,
      -- Asked only of a gift: a lookup on every entry was a row read per entry on every view (decision 126).
      CASE WHEN p.gift_to_user_id IS NOT NULL THEN (SELECT b.nickname FROM users b WHERE b.id = p.user_id) END AS giftFrom,
      (e.status = 'not_used' AND EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant'
        AND d.status = 'pending' AND (d.saving_since IS NOT NULL OR d.progress LIKE '%"saved"%'))) AS delivering,
      -- Asked only of a waiting entry: the fair-play window its type's servers hold it in (decision 129).
      CASE WHEN e.status = 'not_used' THEN (SELECT json_array(fw.hours, fs.last_wipe_at + fw.hours * 3600000)
        FROM fair_play_windows fw JOIN servers fs ON fs.server_type = fw.server_type
        WHERE fw.server_type = e.server_type AND (fw.item_id = e.item_id OR fw.category_id = i.category_id)
          AND fs.last_wipe_at <= ?2 AND fs.last_wipe_at + fw.hours * 3600000 > ?2
        ORDER BY fs.last_wipe_at + fw.hours * 3600000 LIMIT 1) END AS fairPlay,
      -- Asked only of a running or waiting «до вайпа» entry: the schedules of the servers whose wipe ends it.
      CASE WHEN e.duration_days = 0 AND e.expires_at IS NULL AND e.status IN ('used', 'not_used') THEN
        (SELECT json_group_array(json_array(s.wipe_kind, s.wipe_weekday, s.wipe_minute, s.wipe_every_weeks, s.wipe_from))
          FROM servers s WHERE (e.status = 'used' AND s.id = e.used_server_id)
            OR (e.status = 'not_used' AND s.server_type = e.server_type)) END AS wipeSchedules
    FROM inventory_entries e
    JOIN items i ON i.id = e.item_id
    LEFT JOIN purchases p ON p.id = e.purchase_id
    WHERE e.user_id = ${player}${filtered ? " AND e.status = ?3" : ""}
    ORDER BY e.created_at DESC, e.id DESC`;
}

const BY_ID = { all: inventorySql("?1", false), filtered: inventorySql("?1", true) };
const BY_SESSION = { all: inventorySql(SESSION_PLAYER_SQL, false), filtered: inventorySql(SESSION_PLAYER_SQL, true) };

function inventoryRead(sql: typeof BY_ID, player: unknown, now: number, filter: InventoryFilter) {
  return filter === "all"
    ? read<InventoryRow>(sql.all, [player, now])
    : read<InventoryRow>(sql.filtered, [player, now, filter]);
}

/** The Корзина of the session's player, to ride in the session's round trip (`getSessionUserWith`). */
export function sessionInventoryRead([sessionId, now]: SessionKey, filter: InventoryFilter = "all") {
  return inventoryRead(BY_SESSION, sessionId, now, filter);
}

/** The rows of the Корзина's read as the API and the page show them, at `now` (ms). */
export function toInventoryItems(rows: readonly InventoryRow[], now: number): InventoryItem[] {
  return rows.map((row) => ({
    id: row.id,
    item_name: row.itemName,
    item_image: row.itemImage,
    server_type: row.serverType,
    duration: row.isPermanent ? null : row.durationDays,
    is_permanent: Boolean(row.isPermanent),
    is_one_time: Boolean(row.isOneTime),
    status: row.status,
    created_at: isoOrNull(row.createdAt),
    used_at: isoOrNull(row.usedAt),
    expires_at: isoOrNull(row.expiresAt),
    // The player's words, never the operators' note (issue 36).
    last_error: row.lastError === null ? null : deliveryFailedText(row.lastError),
    purchase_id: row.purchaseId,
    price: row.price === null ? null : kopecksToRubles(row.price),
    return_until: row.returnable ? isoOrNull(row.returnUntil) : null,
    returnable: Boolean(row.returnable),
    gift_from: row.giftFrom,
    delivering: Boolean(row.delivering),
    fair_play: fairPlayOf(row.fairPlay),
    until_wipe: isUntilWipe(row.durationDays) && !row.isPermanent,
    wipe_at: nextWipeOf(row.wipeSchedules, now),
  }));
}

/** The earliest next wipe of the servers a «до вайпа» entry waits for; null when none has a schedule. */
function nextWipeOf(json: string | null, now: number): string | null {
  if (json === null) return null;
  const first = earliestNextWipe(
    JSON.parse(json) as [string, number, number, number, string][],
    ([wipeKind, wipeWeekday, wipeMinute, wipeEveryWeeks, wipeFrom]) =>
      scheduleFromColumns({ wipeKind, wipeWeekday, wipeMinute, wipeEveryWeeks, wipeFrom }),
    now,
  );
  return first === null ? null : new Date(first.at).toISOString();
}

function fairPlayOf(json: string | null): InventoryItem["fair_play"] {
  if (json === null) return null;
  const [hours, until] = JSON.parse(json) as [number, number];
  return { hours, until: new Date(until).toISOString() };
}

/** The player's own Корзина, newest first, optionally only unused or only used entries. */
export async function listInventory(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  filter: InventoryFilter = "all",
): Promise<InventoryItem[]> {
  const [rows] = await deps.db.read([inventoryRead(BY_ID, userId, deps.now().getTime(), filter)] as const);
  return toInventoryItems(rows, deps.now().getTime());
}
