import { type SQL, sql } from "drizzle-orm";
import type { ShopWindow } from "#core/wipe/fair-play.ts";
import { lastWipe, scheduleFromColumns, type WipeColumns } from "#core/wipe/schedule.ts";
import type { Deps } from "../../deps.ts";
import { read, statement } from "../../ports/database.ts";

// The fair-play window (decision 129): a category or an item of a server type is not delivered on a
// server, and optionally not sold, for some hours after that server's last wipe (servers.last_wipe_at).

const HOUR_MS = 60 * 60 * 1000;

/**
 * A window `fw` (fair_play_windows) open now on server `fs` (servers) for the item `itemId` of
 * category `categoryId` (SQL): the server is of the window's type and wiped less than its hours ago.
 */
export function windowOpenSql(itemId: SQL, categoryId: SQL, now: number | SQL): SQL {
  return sql`fs.server_type = fw.server_type AND (fw.item_id = ${itemId} OR fw.category_id = ${categoryId})
    AND fs.last_wipe_at <= ${now} AND fs.last_wipe_at + fw.hours * ${HOUR_MS} > ${now}`;
}

/**
 * A grant of entry `e` (delivery `d`) waits on `serverId` while a window is open there for its item
 * (the lease's rule, shared with the poll's check through `leasable`).
 */
export function grantWaitsSql(serverId: number, now: number): SQL {
  return sql`EXISTS (SELECT 1 FROM servers fs JOIN fair_play_windows fw ON fw.server_type = fs.server_type
    WHERE fs.id = ${serverId} AND ${windowOpenSql(sql`e.item_id`, sql`(SELECT fi.category_id FROM items fi WHERE fi.id = e.item_id)`, now)})`;
}

/** The purchase of item `i` is closed: a window that closes purchases is open on a server of its type. */
export function purchaseClosedSql(now: number | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM fair_play_windows fw JOIN servers fs ON fs.server_type = fw.server_type
    WHERE fw.server_type = i.server_type AND fw.purchases_open = 0 AND ${windowOpenSql(sql`i.id`, sql`i.category_id`, now)})`;
}

/**
 * The window open now for an item on its type's servers: its hours, its latest end (when buying opens
 * again) and what it holds back (the item, or its category, by name); null when none.
 */
export async function openWindowFor(
  deps: Pick<Deps, "db" | "now">,
  itemId: number,
  options: { purchasesClosedOnly: boolean },
): Promise<OpenWindow | null> {
  const now = deps.now().getTime();
  // The same "window open on this server" as the purchase guard and the lease (windowOpenSql).
  const query = statement(sql`SELECT fw.hours AS hours, fs.last_wipe_at + fw.hours * ${HOUR_MS} AS until,
      CASE WHEN fw.item_id IS NOT NULL THEN 'item' ELSE 'category' END AS kind,
      CASE WHEN fw.item_id IS NOT NULL THEN i.name ELSE (SELECT c.name FROM categories c WHERE c.id = fw.category_id) END AS name
    FROM items i JOIN fair_play_windows fw ON fw.server_type = i.server_type
      JOIN servers fs ON fs.server_type = fw.server_type
    WHERE i.id = ${itemId} AND (${options.purchasesClosedOnly ? 1 : 0} = 0 OR fw.purchases_open = 0)
      AND ${windowOpenSql(sql`i.id`, sql`i.category_id`, now)}
    ORDER BY until DESC LIMIT 1`);
  const [rows] = await deps.db.read([read<OpenWindow>(query.sql, query.params)] as const);
  return rows[0] ?? null;
}

/** A window open now, as a player is told of it (issue 46). */
export interface OpenWindow {
  hours: number;
  /** When it ends: its latest end among the type's servers for a purchase's refusal. */
  until: number;
  /** What it holds back: an item, or a category of items. */
  kind: "item" | "category";
  name: string;
}

/**
 * Every window open now on a server of `serverType`, one row a window: the cards and the item page
 * say what is closed, and a receipt that the delivery waits, before any click (issue 46).
 */
export async function openWindowsOfType(deps: Pick<Deps, "db" | "now">, serverType: string): Promise<ShopWindow[]> {
  const now = deps.now().getTime();
  // A category's window names its items of the type, so a card (which carries no category id) finds it.
  const query = statement(sql`SELECT CASE WHEN fw.item_id IS NOT NULL THEN json_array(fw.item_id)
        ELSE (SELECT json_group_array(ci.id) FROM items ci WHERE ci.category_id = fw.category_id AND ci.server_type = fw.server_type)
        END AS itemIds, fw.hours AS hours,
      fw.purchases_open AS purchasesOpen,
      MAX(fs.last_wipe_at + fw.hours * ${HOUR_MS}) AS until, MIN(fs.last_wipe_at + fw.hours * ${HOUR_MS}) AS firstUntil,
      CASE WHEN fw.item_id IS NOT NULL THEN 'item' ELSE 'category' END AS kind,
      COALESCE((SELECT i.name FROM items i WHERE i.id = fw.item_id), (SELECT c.name FROM categories c WHERE c.id = fw.category_id), '') AS name
    FROM fair_play_windows fw JOIN servers fs ON fs.server_type = fw.server_type
    WHERE fw.server_type = ${serverType} AND fs.last_wipe_at <= ${now} AND fs.last_wipe_at + fw.hours * ${HOUR_MS} > ${now}
    GROUP BY fw.id`);
  const [rows] = await deps.db.read([
    read<Omit<ShopWindow, "itemIds"> & { itemIds: string }>(query.sql, query.params),
  ] as const);
  return rows.map((row) => ({
    ...row,
    itemIds: JSON.parse(row.itemIds) as number[],
    purchasesOpen: Boolean(row.purchasesOpen),
  }));
}

/**
 * The minutely cron's part (decision 129): a scheduled wipe that has passed becomes the server's last
 * wipe when it is later than the one known, whether or not the server is up to report its new map.
 * A slot that had passed when the schedule was saved doesn't count (decision 130): setting a schedule
 * on Friday with Thursday's slot makes up no wipe. Writes only in the minute after a wipe.
 */
export async function recordScheduledWipes(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const now = deps.now().getTime();
  const [servers] = await deps.db.read([
    read<WipeColumns & { id: number; lastWipeAt: number | null; setAt: number | null }>(
      `SELECT id, last_wipe_at AS lastWipeAt, wipe_schedule_set_at AS setAt, wipe_kind AS wipeKind, wipe_weekday AS wipeWeekday,
         wipe_minute AS wipeMinute, wipe_every_weeks AS wipeEveryWeeks, wipe_from AS wipeFrom
       FROM servers WHERE wipe_kind <> 'none'`,
    ),
  ] as const);
  const updates = servers.flatMap((server) => {
    const wipe = lastWipe(scheduleFromColumns(server), now);
    if (!wipe || (server.lastWipeAt !== null && server.lastWipeAt >= wipe.at)) return [];
    if (server.setAt !== null && wipe.at <= server.setAt) return [];
    return [
      statement(sql`UPDATE servers SET last_wipe_at = ${wipe.at}
        WHERE id = ${server.id} AND (last_wipe_at IS NULL OR last_wipe_at < ${wipe.at})`),
    ];
  });
  if (updates.length > 0) await deps.db.batch(updates);
  return updates.length;
}
