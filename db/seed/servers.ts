import { scheduleToColumns, type WipeSchedule } from "../../core/wipe/schedule.ts";
import { upsert } from "./sql.ts";

// Each seeded server announces its wipes (decision 128), so the local site's cards and /wipes show them:
// weekly, fortnightly from a date, and the forced wipe only. Times are Moscow time, minutes after midnight.
export const seedServers = [
  {
    id: 1,
    name: "Свобода #1 | SOLO | Только соло",
    server_type: "SOLO",
    ip_port: "185.189.255.10:28015",
    wipe: { kind: "weekly", weekday: 5, minute: 18 * 60 },
  },
  {
    id: 2,
    name: "Свобода #2 | VANILLA | Ванилла, вайп по четвергам",
    server_type: "VANILLA",
    ip_port: "185.189.255.11:28015",
    wipe: { kind: "weekly", weekday: 4, minute: 14 * 60 },
  },
  {
    id: 3,
    name: "Свобода #3 | MAX 2 | Макс. 2 в команде",
    server_type: "MAX2",
    ip_port: "185.189.255.12:28015",
    wipe: { kind: "every_weeks", weeks: 2, from: "2026-11-19", minute: 16 * 60 },
  },
  {
    id: 4,
    name: "Свобода #4 | MAX 3 | Макс. 3 в команде",
    server_type: "MAX3",
    ip_port: "185.189.255.13:28015",
    wipe: { kind: "every_weeks", weeks: 2, from: "2026-11-23", minute: 18 * 60 },
  },
  {
    id: 5,
    name: "Свобода #5 | NO LIMIT | x5 лут, без лимита команд",
    server_type: "NO_LIMIT",
    ip_port: "185.189.255.14:28015",
    wipe: { kind: "forced" },
  },
] as const satisfies readonly ({ wipe: WipeSchedule } & Record<string, unknown>)[];

/**
 * A wipe the VANILLA server's plugin reported 3 hours before the seed ran (a new map off its schedule):
 * the local site shows a last wipe («вайп был 3 ч назад», /wipes' «Последний вайп») and a fair-play
 * window can be open on it, whatever the day. VANILLA: no other browser test reads that server's wipe.
 */
export const seedReportedWipe = { serverId: 2, serverType: "VANILLA", hoursAgo: 3 } as const;

export function serversSeedSql(now = Date.now()): string[] {
  const wipedAt = now - seedReportedWipe.hoursAgo * 60 * 60 * 1000;
  const rows = seedServers.map(({ wipe, ...server }, index) => {
    const columns = scheduleToColumns(wipe);
    return upsert("servers", {
      ...server,
      sort_order: index,
      wipe_kind: columns.wipeKind,
      wipe_weekday: columns.wipeWeekday,
      wipe_minute: columns.wipeMinute,
      wipe_every_weeks: columns.wipeEveryWeeks,
      wipe_from: columns.wipeFrom,
      // As the heartbeat's recordWipe keeps it (decision 129): the last wipe fair-play counts from.
      last_wipe_at: server.id === seedReportedWipe.serverId ? wipedAt : null,
    });
  });
  // The plugin's report itself, as recordWipe records a new map (the console's «последний по плагину»).
  const report = upsert("server_wipes", { server_id: seedReportedWipe.serverId, wiped_at: wipedAt, seen_at: wipedAt });
  return [...rows, report];
}
