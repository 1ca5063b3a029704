import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Database, statement } from "../../ports/database.ts";
import type { GameServer, StoredHeartbeat } from "./signature.ts";
import { endWipedEntries } from "./wipe-ends.ts";

/** Two reports of a wipe this close are one wipe (a save time the plugin clamps to its clock, a restart). */
const SAME_WIPE_MS = 10 * 60 * 1000;

export interface Heartbeat {
  hostname: string;
  players: number;
  max_players: number;
  queue: number;
  map: string | null;
  /** The map's size and seed, and the last wipe (Rust's save creation time, ms): null from older plugins. */
  mapSize: number | null;
  mapSeed: number | null;
  wipedAt: number | null;
  /** Whether its doorbell is connected now (decision 146): null from plugins without one. */
  doorbell: boolean | null;
  online: string[];
}

/**
 * A heartbeat like the stored one is written again only once the stored one is this old (decision 126):
 * a plugin beating every 30 s has every other beat written, one beating every 60 s every beat; a row
 * written on every beat was most of an idle server's writes. Whoever reads a heartbeat allows it three
 * minutes, nine when its doorbell was connected (liveness.ts); the player counts reach the page at most
 * every 110 s anyway (decision 001).
 */
export const HEARTBEAT_REWRITE_AFTER_MS = 50 * 1000;

export type HeartbeatOutcome = "written" | "unchanged" | "stale";

/** Whether a heartbeat tells something the stored one doesn't (besides counts the page shows late anyway). */
function sameServer(stored: StoredHeartbeat, beat: Heartbeat): boolean {
  return (
    stored.hostname === beat.hostname &&
    stored.maxPlayers === beat.max_players &&
    stored.map === beat.map &&
    stored.mapSize === beat.mapSize &&
    stored.mapSeed === beat.mapSeed &&
    stored.wipedAt === beat.wipedAt &&
    stored.doorbell === beat.doorbell
  );
}

/**
 * The plugin's own report; the status cron merges it with Steam's list (freshest sighting wins).
 * Written when it is the first, or the server changed (name, map, size, wipe), or the stored one is
 * HEARTBEAT_REWRITE_AFTER_MS old; otherwise it changes nothing and nothing is written ("unchanged"). A heartbeat is
 * written only with a later timestamp than the stored one's, so a replay, or an older heartbeat
 * overtaken on the way, changes nothing ("stale").
 */
export async function recordHeartbeat(
  deps: Deps,
  server: GameServer,
  beat: Heartbeat,
  signedAt: number,
  stored: StoredHeartbeat | null,
): Promise<HeartbeatOutcome> {
  const now = deps.now().getTime();
  if (stored && signedAt <= stored.signedAt) return "stale";
  if (stored && sameServer(stored, beat) && now - stored.receivedAt < HEARTBEAT_REWRITE_AFTER_MS) return "unchanged";
  const written = await deps.db.run(
    statement(sql`INSERT INTO server_heartbeats (server_id, hostname, players, max_players, queue, map, map_size, map_seed, wiped_at, online_steam_ids, received_at, signed_at, doorbell)
       VALUES (${server.id}, ${beat.hostname}, ${beat.players}, ${beat.max_players}, ${beat.queue}, ${beat.map}, ${beat.mapSize}, ${beat.mapSeed}, ${beat.wipedAt}, ${JSON.stringify(beat.online)}, ${now}, ${signedAt},
         ${beat.doorbell === null ? null : beat.doorbell ? 1 : 0})
       ON CONFLICT (server_id) DO UPDATE SET
         hostname = excluded.hostname, players = excluded.players, max_players = excluded.max_players,
         queue = excluded.queue, map = excluded.map, map_size = excluded.map_size, map_seed = excluded.map_seed,
         wiped_at = excluded.wiped_at, online_steam_ids = excluded.online_steam_ids,
         received_at = excluded.received_at, signed_at = excluded.signed_at, doorbell = excluded.doorbell
       WHERE excluded.signed_at > server_heartbeats.signed_at`),
  );
  if (written.changes !== 1) return "stale";
  if (beat.wipedAt !== null && stored?.wipedAt !== beat.wipedAt) await recordWipe(deps, server, beat.wipedAt, now);
  return "written";
}

/**
 * The site saw a server's doorbell socket close, neither replaced by the server's newer socket nor at the
 * site's own stop: its last heartbeat no longer says «connected», so a server that died is gone 3 minutes
 * after that heartbeat, not 9 (liveness.ts, decision 151). A heartbeat received after the close is the
 * plugin's own word and stays. One conditional write per close.
 */
export async function markDoorbellClosed(db: Database, serverId: number, closedAt: number): Promise<void> {
  await db.run(
    statement(sql`UPDATE server_heartbeats SET doorbell = 0
      WHERE server_id = ${serverId} AND doorbell = 1 AND received_at <= ${closedAt}`),
  );
}

/**
 * A new map (decision 128): recorded once; a report within ten minutes of a recorded wipe is that wipe.
 * It becomes the server's last wipe when later than the one known (decision 129's fair-play window),
 * which ends the «до вайпа» entries delivered there before it (decision 130).
 */
async function recordWipe(deps: Deps, server: GameServer, wipedAt: number, now: number): Promise<void> {
  await deps.db.batch([
    statement(sql`INSERT INTO server_wipes (server_id, wiped_at, seen_at)
      SELECT ${server.id}, ${wipedAt}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM server_wipes
        WHERE server_id = ${server.id} AND wiped_at BETWEEN ${wipedAt - SAME_WIPE_MS} AND ${wipedAt + SAME_WIPE_MS})`),
    statement(sql`UPDATE servers SET last_wipe_at = ${wipedAt}
      WHERE id = ${server.id} AND (last_wipe_at IS NULL OR last_wipe_at < ${wipedAt})`),
  ]);
  await endWipedEntries(deps, server.id);
}
