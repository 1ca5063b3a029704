// A fair-play window as the console reads it (issue 46 item 10): whether it holds now on its type's
// servers, until when, and the wipe it counts from. The same rule as worker/services/game/fair-play.ts
// (windowOpenSql): a server of the type wiped (servers.last_wipe_at) less than `hours` ago; the
// latest such wipe decides, as openWindowFor orders them.

const HOUR_MS = 60 * 60 * 1000;

export type FairPlayState =
  | { kind: "no-wipe" }
  | { kind: "holds"; from: number; until: number }
  | { kind: "ended"; from: number; until: number };

export function fairPlayState(
  window: { serverType: string; hours: number },
  servers: readonly { serverType: string; countedWipeAt: number | null }[],
  now: number,
): FairPlayState {
  const wipes = servers
    .filter((server) => server.serverType === window.serverType && server.countedWipeAt !== null)
    .map((server) => server.countedWipeAt as number)
    .filter((at) => at <= now);
  if (wipes.length === 0) return { kind: "no-wipe" };
  const from = Math.max(...wipes);
  const until = from + window.hours * HOUR_MS;
  return { kind: until > now ? "holds" : "ended", from, until };
}
