// A busy project's day priced against the free plan's daily limits (issue 37, decision 126; with the
// doorbell, issue 48, decision 152): the hot paths' measured rows (bench/rows/run.ts) × how often the
// day makes each, for a number of game servers and the plugins' cadence with the doorbell and without.
//
// 2 000 players, 20 000 page views, 1 000 purchases, 200 top-ups, the minutely jobs. `requests`: Worker
// invocations each makes (a cron run is one). Durable Object requests as Cloudflare bills them
// (https://developers.cloudflare.com/durable-objects/platform/pricing/): every RPC call on a stub is
// one (a ring: `worker/adapters/cloudflare-doorbell.ts`), so is the upgrade handed to the object, and
// incoming WebSocket messages count 20 to 1 (outgoing ones, the rings' frames, nothing).

export const DAY_S = 86_400;
/** The seed's server types (db/seed/servers.ts): the servers are spread evenly over them. */
export const SERVER_TYPES = 5;

/** The plugin's cadence with the doorbell connected (decision 148, amended by the liveness work). */
export const DOORBELL_POLL_S = 180;
export const DOORBELL_HEARTBEAT_S = 180;
/** The plugin's `ping` (doorbell protocol): answered by setWebSocketAutoResponse without waking the object. */
const PING_S = 45;
/**
 * Connects a server makes a day, an upper bound: a socket dropped and opened again every hour (a Rust
 * server restarts daily; Cloudflare closes sockets on a deploy or when it moves the object). Each is
 * followed by one poll (the plugin's DoorbellOpened: rings sent while no socket was open are lost).
 */
export const CONNECTS_PER_SERVER = 24;
/**
 * What rings: a purchase rings its type (worker/services/shop/purchase.ts, one `ringDoorbell` with one
 * type), and the minutely upkeep rings the types a revoke came due in (worker/services/game/due-rings.ts:
 * at most one ring a type a minute, so at most one per revoke). Gifts, promo codes, an operator's retry
 * and a return ring the same way; the busy day has none of them.
 */
function dayCounts(busy: number) {
  // A grant per purchase (800 kits, 200 ranks) and a revoke for each of 200 ranks ending.
  const kits = 800 * busy;
  const ranks = 200 * busy;
  const revokes = 200 * busy;
  const deliveries = kits + ranks + revokes;
  // Each delivery made due rang its type once; the upkeep's rings at most one a revoke.
  return { kits, ranks, purchases: kits + ranks, revokes, deliveries, rings: deliveries };
}
/** A Durable Object's memory, for GB-s: 128 MB (https://developers.cloudflare.com/durable-objects/platform/pricing/). */
const DO_GB = 0.128;
/**
 * Seconds a ring, a connect or a socket's close keeps the object billable, an upper bound: the handlers
 * run for milliseconds (an HMAC per socket), and an object idle and able to hibernate is not billed.
 */
const DO_SECONDS_PER_EVENT = 1;

/** The free plan's daily limits (Workers, D1, Durable Objects). */
export const FREE = {
  rowsRead: 5_000_000,
  rowsWritten: 100_000,
  requests: 100_000,
  doRequests: 100_000,
  doGbSeconds: 13_000,
};

export interface Cadence {
  servers: number;
  /** The day's players, views, purchases and top-ups times this (1: the busy day; 1.5: half again as busy). */
  busy?: number;
  /** Whether the plugins' doorbell is connected (then `poll` is the safety poll). */
  doorbell: boolean;
  poll: number;
  heartbeat: number;
}

export interface DayEntry {
  path: string;
  perDay: number;
  requests: number;
}

/**
 * The jobs that read a row or more per server were run with the history's 10 servers and with 30
 * (tests/support/hot-paths.ts, "… (30 servers)"): between and beyond, their rows are drawn on that line.
 */
export const THIRTY_SERVERS = " (30 servers)";
export function rowsAtServers(at10: number, at30: number | undefined, servers: number): number {
  return at30 === undefined ? at10 : at10 + ((at30 - at10) * (servers - 10)) / 20;
}

export function busyDay({ servers, doorbell, poll, heartbeat, busy = 1 }: Cadence): DayEntry[] {
  const { kits, ranks, purchases, revokes, deliveries, rings } = dayCounts(busy);
  // Minutely upkeep runs that find a revoke come due and ring (at most one per revoke).
  const ringingUpkeeps = revokes;
  const timerPolls = (DAY_S / poll) * servers;
  const heartbeats = (DAY_S / heartbeat) * servers;
  // A heartbeat is written when the stored one is 50 s old (HEARTBEAT_REWRITE_AFTER_MS).
  const written = heartbeats / Math.ceil(50 / heartbeat);
  const perType = servers / SERVER_TYPES;
  const connects = doorbell ? CONNECTS_PER_SERVER * servers : 0;
  // With the doorbell a ring brings every connected server of the type to poll: the one the delivery is
  // for leases it, the others find nothing for their players. Without it the timer's polls lease.
  const polls: DayEntry[] = doorbell
    ? [
        { path: "plugin poll, nothing due", perDay: timerPolls + connects, requests: 1 },
        { path: "plugin poll, one delivery due", perDay: deliveries, requests: 1 },
        { path: "plugin poll, rung for a player elsewhere", perDay: rings * Math.max(0, perType - 1), requests: 1 },
        { path: "plugin doorbell connect", perDay: connects, requests: 1 },
      ]
    : [
        { path: "plugin poll, nothing due", perDay: timerPolls - deliveries, requests: 1 },
        { path: "plugin poll, one delivery due", perDay: deliveries, requests: 1 },
      ];
  const beats: DayEntry[] = doorbell
    ? [{ path: "plugin heartbeat with the doorbell, written", perDay: heartbeats, requests: 1 }]
    : [
        { path: "plugin heartbeat, written", perDay: written, requests: 1 },
        { path: "plugin heartbeat, not written", perDay: heartbeats - written, requests: 1 },
      ];
  return [
    ...polls,
    // Plugin 3 reports each delivery twice (decision 124): given after it ran, saved after the world's
    // next save. A request each here, an upper bound: the saved reports of the deliveries a server gave
    // between two saves (every 10 minutes) go in one request. A revoke's reports cost about a kit's
    // (no rank to stack, no revoke to write).
    { path: "plugin ack, a kit given", perDay: deliveries, requests: 1 },
    { path: "plugin ack, a kit saved", perDay: kits + revokes, requests: 1 },
    { path: "plugin ack, a rank saved", perDay: ranks, requests: 1 },
    ...beats,
    { path: "plugin /store (what waits for a player)", perDay: 200 * busy, requests: 1 },
    { path: "page / (home)", perDay: 4_000 * busy, requests: 1 },
    { path: "page /shop (signed in)", perDay: 7_000 * busy, requests: 1 },
    { path: "page /shop/items/:id (signed in)", perDay: 4_500 * busy, requests: 1 },
    { path: "page /profile (Корзина)", perDay: 2_000 * busy, requests: 1 },
    { path: "page /purchases", perDay: 800 * busy, requests: 1 },
    { path: "page /statement", perDay: 400 * busy, requests: 1 },
    { path: "page /deposits", perDay: 300 * busy, requests: 1 },
    { path: "page /balance (signed in)", perDay: 1_000 * busy, requests: 1 },
    { path: "purchase", perDay: purchases, requests: 1 },
    { path: "top-up: create", perDay: 200 * busy, requests: 1 },
    // The provider's notification, and the player's way back through /api/payment/return.
    { path: "top-up: provider's notification", perDay: 200 * busy, requests: 2 },
    // A session lasts 30 days: a quarter of the day's players sign in (the start, the callback, and
    // /auth-success trading the code).
    { path: "sign-in through Steam", perDay: 500 * busy, requests: 3 },
    // The upkeep reads the revokes come due in the minute to ring their types, with the doorbell or without.
    { path: "minutely: deliveries' upkeep", perDay: 1_440 - 24 - ringingUpkeeps, requests: 1 },
    { path: "minutely: deliveries' upkeep, a revoke come due (rings)", perDay: ringingUpkeeps, requests: 1 },
    { path: "hourly: deliveries' backstop", perDay: 24, requests: 1 },
    { path: "minutely: the wipe's jobs", perDay: 1_440, requests: 0 },
    { path: "minutely: pending payments", perDay: 1_440, requests: 0 },
    { path: "minutely: Discord outbox", perDay: 1_440, requests: 0 },
    { path: "minutely: server list", perDay: 1_440, requests: 0 },
  ];
}

/** The home page asks /api/server-status every 30 s while open (decision 011): a minute open on average. */
export const serverStatusRefreshes = ({ busy = 1 }: Cadence) => 4_000 * 2 * busy;

/** The Durable Objects' day: requests (rings, connects and closes, pings at 20:1) and GB-s, upper bounds. */
export function doorbellObjects({ servers, doorbell, busy = 1 }: Cadence) {
  if (!doorbell) return { rings: 0, connects: 0, pings: 0, requests: 0, gbSeconds: 0 };
  const { rings } = dayCounts(busy);
  // The upgrade handed to the object, and the close event of the socket it replaces (webSocketClose).
  const connects = 2 * CONNECTS_PER_SERVER * servers;
  // Counted although the auto-response is, by Cloudflare's pricing notes, not charged at all.
  const pings = ((DAY_S / PING_S) * servers) / 20;
  return {
    rings,
    connects,
    pings,
    requests: rings + connects + pings,
    gbSeconds: (rings + connects) * DO_SECONDS_PER_EVENT * DO_GB,
  };
}
