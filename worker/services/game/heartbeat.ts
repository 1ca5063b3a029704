import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import type { GameServer } from "./signature.ts";

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
  online: string[];
}

/** The plugin's own report; the status cron merges it with Steam's list (freshest sighting wins). */
export async function recordHeartbeat(deps: Deps, server: GameServer, beat: Heartbeat): Promise<void> {
  const now = deps.now().getTime();
  await deps.db.batch([
    // A new map (decision 128): recorded once; a report within ten minutes of a recorded wipe is that wipe.
    statement(sql`INSERT INTO server_wipes (server_id, wiped_at, seen_at)
      SELECT ${server.id}, ${beat.wipedAt}, ${now}
      WHERE ${beat.wipedAt} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM server_wipes
        WHERE server_id = ${server.id} AND wiped_at BETWEEN ${(beat.wipedAt ?? 0) - SAME_WIPE_MS} AND ${(beat.wipedAt ?? 0) + SAME_WIPE_MS})`),
    statement(sql`INSERT INTO server_heartbeats (server_id, hostname, players, max_players, queue, map, map_size, map_seed, wiped_at, online_steam_ids, received_at)
       VALUES (${server.id}, ${beat.hostname}, ${beat.players}, ${beat.max_players}, ${beat.queue}, ${beat.map}, ${beat.mapSize}, ${beat.mapSeed}, ${beat.wipedAt}, ${JSON.stringify(beat.online)}, ${now})
       ON CONFLICT (server_id) DO UPDATE SET
         hostname = excluded.hostname, players = excluded.players, max_players = excluded.max_players,
         queue = excluded.queue, map = excluded.map, map_size = excluded.map_size, map_seed = excluded.map_seed,
         wiped_at = excluded.wiped_at, online_steam_ids = excluded.online_steam_ids,
         received_at = excluded.received_at`),
  ]);
}
