import { kopecksToRubles } from "#core/format/money.ts";
import { deliveryFailedText } from "#core/messages/inventory.ts";
import { type PageCursor, PROFILE_PAGE_SIZE, pageOf } from "#core/profile/page-cursor.ts";
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
 * The Корзина's SQL, `where` and `order` its own: `?1` names the player (an id, or the session's
 * player, decision 112), `?2` is the time now. Each entry says whether its owner may return it now
 * (decision 111): bought by them, waiting, inside its window, and never leased to a game server; the
 * return's own batch checks it again.
 */
function inventorySelect(where: string, order: string): string {
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
    ${where}
    ORDER BY ${order}`;
}

const JOINS = `JOIN items i ON i.id = e.item_id
    LEFT JOIN purchases p ON p.id = e.purchase_id`;

/** Every entry of the player, newest first, `?3` the status when filtered (the API's /inventory). */
function wholeInventorySql(player: string, filtered: boolean): string {
  return inventorySelect(
    `FROM inventory_entries e ${JOINS} WHERE e.user_id = ${player}${filtered ? " AND e.status = ?3" : ""}`,
    "e.created_at DESC, e.id DESC",
  );
}

// ---- The Корзина page a page at a time (decision 150) -----------------------------------------------
// First what waits and what runs, every one of them: the player's waiting entries, then the timed ones
// still running and the «до вайпа» ones not ended. Then the rest (delivered for good, ended, refunded,
// returned), newest first, PROFILE_PAGE_SIZE at a time from the `?before=` cursor. The parameters of
// both reads: ?1 the player, ?2 now, ?3 the status filter or NULL, ?4 and ?5 the cursor (created_at,
// id; past every row on the first page), ?6 1 on the first page. A view reads what the player has
// going on and a page of the rest, whatever their history (`inventory_user_ongoing`,
// `inventory_user_created`, named with INDEXED BY so a renamed index fails loudly).

/**
 * An entry shown first, of the table named `t`: waiting, or running (a timed one before its end, a
 * «до вайпа» one not ended). One rule for both reads: the first page's as three index walks, the rest's
 * as their OR, so no entry is on both or on neither.
 */
const shownFirstParts = (t: string) => [
  `${t}.status = 'not_used'`,
  `${t}.status = 'used' AND ${t}.expires_at > ?2`,
  `${t}.status = 'used' AND ${t}.expires_at IS NULL AND ${t}.duration_days = 0 AND ${t}.is_permanent = 0`,
];
const SHOWN_FIRST = `(${shownFirstParts("e")
  .map((part) => `(${part})`)
  .join(" OR ")})`;

/** `inventory_user_ongoing`'s own condition, as its WHERE says it, so SQLite may read through it. */
const ONGOING = `(o.status = 'not_used' OR (o.status = 'used' AND (o.expires_at IS NOT NULL OR o.duration_days = 0)))`;

function shownFirstSql(player: string): string {
  const ongoing = (condition: string) =>
    `SELECT o.id FROM inventory_entries o INDEXED BY inventory_user_ongoing
      WHERE o.user_id = ${player} AND ${ONGOING} AND ${condition}`;
  return inventorySelect(
    `FROM inventory_entries e ${JOINS}
    WHERE ?6 = 1 AND (?3 IS NULL OR e.status = ?3) AND e.id IN (
      ${shownFirstParts("o").map(ongoing).join("\n      UNION ALL ")})`,
    "e.status = 'not_used' DESC, e.created_at DESC, e.id DESC",
  );
}

function restPageSql(player: string): string {
  return inventorySelect(
    `FROM inventory_entries e INDEXED BY inventory_user_created ${JOINS}
    WHERE e.user_id = ${player} AND (?3 IS NULL OR e.status = ?3)
      -- Every waiting entry is shown first: «Ждут выдачи» has no rest to walk.
      AND (?3 IS NULL OR ?3 <> 'not_used')
      AND NOT IFNULL(${SHOWN_FIRST}, 0) AND (e.created_at, e.id) < (?4, ?5)`,
    `e.created_at DESC, e.id DESC LIMIT ${PROFILE_PAGE_SIZE + 1}`,
  );
}

const WHOLE = { all: wholeInventorySql("?1", false), filtered: wholeInventorySql("?1", true) };
const PAGE_BY_ID = { first: shownFirstSql("?1"), rest: restPageSql("?1") };
const PAGE_BY_SESSION = { first: shownFirstSql(SESSION_PLAYER_SQL), rest: restPageSql(SESSION_PLAYER_SQL) };

/** Past every row: the first page's cursor. */
const FIRST_PAGE: PageCursor = { createdAt: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };

function inventoryPageReads(
  sql: typeof PAGE_BY_ID,
  player: unknown,
  now: number,
  filter: InventoryFilter,
  cursor: PageCursor | null,
) {
  const at = cursor ?? FIRST_PAGE;
  const params = [player, now, filter === "all" ? null : filter, at.createdAt, at.id, cursor ? 0 : 1];
  // D1 wants as many bindings as the statement's highest parameter: the rest's is ?5.
  return [read<InventoryRow>(sql.first, params), read<InventoryRow>(sql.rest, params.slice(0, 5))] as const;
}

/** A page of the Корзина: what it shows, and where the next page starts (null on the last). */
export interface InventoryPage {
  items: InventoryItem[];
  next: PageCursor | null;
}

/** The Корзина page's rows as the page shows them: what is shown first, then a page of the rest. */
export function toInventoryPage(
  [first, rest]: readonly [readonly InventoryRow[], readonly InventoryRow[]],
  now: number,
): InventoryPage {
  const page = pageOf(rest);
  return { items: toInventoryItems([...first, ...page.rows], now), next: page.next };
}

/** A page of the session's player's Корзина, to ride in the session's round trip (`getSessionUserWith`). */
export function sessionInventoryPageReads(
  [sessionId, now]: SessionKey,
  filter: InventoryFilter,
  cursor: PageCursor | null,
) {
  return inventoryPageReads(PAGE_BY_SESSION, sessionId, now, filter, cursor);
}

/** A page of the player's own Корзина. */
export async function listInventoryPage(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  filter: InventoryFilter,
  cursor: PageCursor | null,
): Promise<InventoryPage> {
  const now = deps.now().getTime();
  return toInventoryPage(await deps.db.read(inventoryPageReads(PAGE_BY_ID, userId, now, filter, cursor)), now);
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

/** The player's own Корзина, newest first, optionally only unused or only used entries (the API's /inventory). */
export async function listInventory(
  deps: Pick<Deps, "db" | "now">,
  userId: number,
  filter: InventoryFilter = "all",
): Promise<InventoryItem[]> {
  const now = deps.now().getTime();
  const [rows] = await deps.db.read([
    filter === "all"
      ? read<InventoryRow>(WHOLE.all, [userId, now])
      : read<InventoryRow>(WHOLE.filtered, [userId, now, filter]),
  ] as const);
  return toInventoryItems(rows, now);
}
