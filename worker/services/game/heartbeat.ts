import type { Deps } from "../../deps.ts";
import type { GameServer } from "./signature.ts";

export interface Heartbeat {
  hostname: string;
  players: number;
  max_players: number;
  queue: number;
  map: string | null;
  online: string[];
}

/** The plugin's own report; the status cron merges it with Steam's list (freshest sighting wins). */
export async function recordHeartbeat(deps: Deps, server: GameServer, beat: Heartbeat): Promise<void> {
  await deps.d1
    .prepare(
      `INSERT INTO server_heartbeats (server_id, hostname, players, max_players, queue, map, online_steam_ids, received_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT (server_id) DO UPDATE SET
         hostname = excluded.hostname, players = excluded.players, max_players = excluded.max_players,
         queue = excluded.queue, map = excluded.map, online_steam_ids = excluded.online_steam_ids,
         received_at = excluded.received_at`,
    )
    .bind(
      server.id,
      beat.hostname,
      beat.players,
      beat.max_players,
      beat.queue,
      beat.map,
      JSON.stringify(beat.online),
      deps.now().getTime(),
    )
    .run();
}
