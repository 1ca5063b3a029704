import { type SQL, sql } from "drizzle-orm";
import { rawSql } from "../../ports/database.ts";

// When a game server counts as alive (decision 151, amending 126 and 147): the one rule the server list,
// the console's «Серверы», the lease's hand-off (lease-rule.ts) and the console's deliveries read.

/** A server is alive while its plugin's last heartbeat is this recent: three of its ordinary 60 s beats. */
export const ALIVE_AFTER_HEARTBEAT_MS = 3 * 60 * 1000;
/**
 * …or this recent when that heartbeat said its doorbell was connected: three of the 180 s beats a
 * plugin sends while connected. The plugin beats at once when its doorbell drops (doorbell = 0 again),
 * and the site marks the flag 0 when it sees the socket close (markDoorbellClosed).
 */
export const ALIVE_AFTER_DOORBELL_HEARTBEAT_MS = 9 * 60 * 1000;

/** What a heartbeat row tells of liveness: when it came, and whether its doorbell was connected (1, 0 or null). */
export interface HeartbeatSeen {
  receivedAt: number | null;
  doorbell: number | boolean | null;
}

/** How long the server counts as alive after this heartbeat. */
export function aliveForMs(doorbell: HeartbeatSeen["doorbell"]): number {
  return doorbell === 1 || doorbell === true ? ALIVE_AFTER_DOORBELL_HEARTBEAT_MS : ALIVE_AFTER_HEARTBEAT_MS;
}

/** Whether a server whose last heartbeat is `beat` (null: none) is alive at `now`. */
export function heartbeatAlive(beat: HeartbeatSeen | null | undefined, now: number): boolean {
  return beat?.receivedAt != null && now - beat.receivedAt < aliveForMs(beat.doorbell);
}

/** The same rule in SQL over a `server_heartbeats` row aliased `alias`. */
export function heartbeatAliveSql(alias: string, now: number): SQL {
  const h = rawSql(alias);
  return sql`(${h}.received_at > ${now - ALIVE_AFTER_HEARTBEAT_MS}
    OR (${h}.doorbell = 1 AND ${h}.received_at > ${now - ALIVE_AFTER_DOORBELL_HEARTBEAT_MS}))`;
}
