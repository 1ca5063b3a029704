// The site's hot paths, as one busy day makes them again and again: the plugin's poll, lease, ack and
// heartbeat, a player's pages, a purchase, a top-up, a sign-in, and each minutely job. Each is run
// through the code that serves it (the Hono app for /api, the pages' own middleware and loaders in
// the order React Router runs them, the cron's own jobs), so what the database receives is what the
// site sends. The query-plan guard (tests/runtime/node/query-plans.test.ts) checks every statement
// these make; the rows bench (bench/rows/) counts the rows each reads and writes over a year of history.
//
// Nothing here imports "cloudflare:test": a caller hands in the platform (its recording database).

import { sql } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { createApp } from "#worker/app.ts";
import { runScheduled } from "#worker/cron/index.ts";
import type { Deps, Platform } from "#worker/deps.ts";
import { type Statement, statement } from "#worker/ports/database.ts";
import type { Doorbell } from "#worker/ports/doorbell.ts";
import { scheduleWipeSales } from "#worker/services/admin/wipe-sales.ts";
import { createSession } from "#worker/services/auth/sessions.ts";
import { deriveServerKey, generateKeySalt } from "#worker/services/game/keys.ts";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { runScheduledWipes } from "#worker/services/game/wipe-ends.ts";
import { sendDiscordNotifications } from "#worker/services/notifications/discord.ts";
import { recheckPendingPayments } from "#worker/services/payments/recheck.ts";
import { refreshServerStatus } from "#worker/services/server-status.ts";
import { wireDeps } from "#worker/wiring.ts";
import { DOORBELL_PATH, doorbellHeaders } from "./doorbell.ts";
import { signRequest } from "./plugin-simulator.ts";
import { routeChain } from "./route-chain.ts";

export const ORIGIN = "http://localhost:5173";
const HOUR_MS = 60 * 60 * 1000;
/** The type every hot path's server, item and player uses (the shop's first type). */
export const HOT_SERVER_TYPE = "SOLO";

export interface HotClock {
  now(): Date;
  advance(ms: number): void;
}

export interface HotSite {
  deps: Deps;
  /** The site's Hono app, in this process. */
  fetch(request: Request): Promise<Response>;
  clock: HotClock;
  /** What reached the doorbell: the upgrades the site verified, and the types rung (decision 146). */
  doorbell: { connects: number; rings: string[] };
}

/**
 * The doorbell as the hot paths see it: the runtime's side (a Durable Object, `ws`) costs the database
 * nothing, so it is counted here instead; a connect is answered 200, since a 101 needs a real socket.
 */
function countingDoorbell(seen: HotSite["doorbell"]): Doorbell {
  return {
    connect: async () => {
      seen.connects++;
      return new Response("connected");
    },
    ring: async (serverType) => {
      seen.rings.push(serverType);
    },
  };
}

/** The site over `platform`, with a clock the hot paths move (a plugin signs each request anew). */
export function hotSite(platform: Platform, start = Date.now()): HotSite {
  let now = start;
  const clock: HotClock = {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
  const doorbell: HotSite["doorbell"] = { connects: 0, rings: [] };
  const rung: Platform = { doorbell: countingDoorbell(doorbell), ...platform };
  const app = createApp({
    pageHandler: async () => new Response("pages are run by their loaders here", { status: 501 }),
    platform: () => rung,
    overrides: () => ({ now: clock.now }),
  });
  const fetch = async (request: Request) => app.fetch(request);
  const deps = wireDeps(rung, { overrides: { now: clock.now }, notify: fetch });
  return { deps, fetch, clock, doorbell };
}

export interface HotFixture {
  server: { id: number; key: string; name: string };
  player: { id: number; steamId: string; token: string };
  /** A kit with a grant command, for sale on HOT_SERVER_TYPE. */
  itemId: number;
  /** A timed rank with grant and revoke commands. */
  rankId: number;
}

const one = async <Row>(deps: Deps, query: Statement) => {
  const row = (await deps.db.run<Row>(query)).rows[0];
  if (!row) throw new Error(`no row from ${query.sql}`);
  return row;
};

/** A game server with a derived key, a player with a session and money, and two items for sale. */
export async function createHotFixture(site: HotSite, steamId = "76561198700000001"): Promise<HotFixture> {
  const { deps } = site;
  const now = deps.now().getTime();
  const salt = generateKeySalt();
  const server = await one<{ id: number }>(
    deps,
    statement(sql`INSERT INTO servers (name, server_type, ip_port, key_salt, key_rotated_at)
      VALUES ('Горячий сервер', ${HOT_SERVER_TYPE}, ${`10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}:28015`}, ${salt}, ${now})
      RETURNING id`),
  );
  const key = await deriveServerKey(deps.config.gameKeySecret, server.id, salt);
  const category = await one<{ id: number }>(
    deps,
    statement(sql`INSERT INTO categories (name) VALUES ('Горячая категория') RETURNING id`),
  );
  const item = await one<{ id: number }>(
    deps,
    statement(sql`INSERT INTO items (name, price, img, server_type, category_id, is_one_time, requires_online)
      VALUES ('Набор', 4900, '/images/items/kit.png', ${HOT_SERVER_TYPE}, ${category.id}, 0, 1) RETURNING id`),
  );
  const rank = await one<{ id: number }>(
    deps,
    statement(sql`INSERT INTO items (name, price, img, server_type, category_id, is_one_time, requires_online)
      VALUES ('VIP', 30000, '/images/items/vip.png', ${HOT_SERVER_TYPE}, ${category.id}, 0, 1) RETURNING id`),
  );
  await deps.db.batch([
    statement(
      sql`INSERT INTO item_commands (item_id, phase, template) VALUES (${item.id}, 'grant', 'inventory.giveto {steamid} wood 1000')`,
    ),
    statement(
      sql`INSERT INTO item_commands (item_id, phase, template) VALUES (${rank.id}, 'grant', 'oxide.usergroup add {steamid} vip')`,
    ),
    statement(
      sql`INSERT INTO item_commands (item_id, phase, template) VALUES (${rank.id}, 'revoke', 'oxide.usergroup remove {steamid} vip')`,
    ),
    statement(sql`INSERT INTO item_durations (item_id, days) VALUES (${rank.id}, 30)`),
  ]);
  const user = await one<{ id: number }>(
    deps,
    statement(sql`INSERT INTO users (steam_id, nickname, avatar_url, balance) VALUES (${steamId}, 'Завсегдатай', '', 0)
      ON CONFLICT (steam_id) DO UPDATE SET nickname = excluded.nickname RETURNING id`),
  );
  const money = 100_000_000;
  await deps.db.batch([
    statement(
      sql`INSERT INTO ledger (user_id, amount, kind, note) VALUES (${user.id}, ${money}, 'adjustment', 'bench')`,
    ),
    statement(sql`UPDATE users SET balance = balance + ${money} WHERE id = ${user.id}`),
  ]);
  const session = await createSession(deps, user.id);
  return {
    server: { id: server.id, key, name: "Горячий сервер" },
    player: { id: user.id, steamId, token: session.token },
    itemId: item.id,
    rankId: rank.id,
  };
}

// ---- The plugin -----------------------------------------------------------

/** A request signed as the plugin signs it, at the site's clock (a second later than the last). */
export async function pluginRequest(site: HotSite, fixture: HotFixture, path: string, body: unknown) {
  site.clock.advance(1000);
  const text = JSON.stringify(body);
  const signed = await signRequest(fixture.server.key, path, text, Math.floor(site.clock.now().getTime() / 1000));
  const response = await site.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-server-id": String(fixture.server.id),
        "x-timestamp": String(signed.timestamp),
        "x-signature": signed.signature,
      },
      body: text,
    }),
  );
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Who is on the game server as the plugin reports it: the fixture's player and 49 others who never
 * bought anything (most players on a server don't), so a poll asks about 50 players.
 */
export const onlineWith = (fixture: HotFixture) => [
  fixture.player.steamId,
  ...Array.from({ length: 49 }, (_, index) => `765611988${String(index).padStart(8, "0")}`),
];

interface Leased {
  delivery_id: string;
  lease: number;
  commands: string[];
}

const poll = async (site: HotSite, fixture: HotFixture, online: string[]) =>
  ((await pluginRequest(site, fixture, "/api/game/queue", { online, site_seq: 0 })).deliveries as Leased[]) ?? [];

/**
 * Plugin 3's report (decision 124): each command given ("g") after it ran, then saved ("s") once the
 * world was saved, when the delivery is done. A server saves every 10 minutes, so the saved reports
 * of the deliveries given in between go in one request.
 */
const ack = (site: HotSite, fixture: HotFixture, leased: Leased[], state: "g" | "s") =>
  pluginRequest(site, fixture, "/api/game/ack", {
    results: leased.map((delivery) => ({
      delivery_id: delivery.delivery_id,
      ok: state === "s",
      progress: state.repeat(delivery.commands.length),
      lease: delivery.lease,
    })),
  });

/** `doorbell`: the flag a plugin with the doorbell sends (decision 146); absent, as from plugins before it. */
const heartbeat = (site: HotSite, fixture: HotFixture, online: string[], doorbell?: boolean) =>
  pluginRequest(site, fixture, "/api/game/heartbeat", {
    hostname: "Горячий сервер",
    players: online.length,
    max_players: 200,
    queue: 0,
    map: "Procedural Map",
    online,
    ...(doorbell === undefined ? {} : { doorbell }),
  });

/** Polls and acknowledges until nothing is due for the fixture's player, as the plugin would. */
export async function deliverEverything(site: HotSite, fixture: HotFixture): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const leased = await poll(site, fixture, onlineWith(fixture));
    if (leased.length === 0) return;
    await ack(site, fixture, leased, "s");
  }
  throw new Error("deliveries kept coming");
}

// ---- Players ----------------------------------------------------------------

async function buy(site: HotSite, fixture: HotFixture, itemId = fixture.itemId, serverType = HOT_SERVER_TYPE) {
  const response = await site.fetch(
    new Request(`${ORIGIN}/api/purchase/items/${itemId}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${fixture.player.token}` },
      body: JSON.stringify(
        itemId === fixture.rankId ? { server_type: serverType, duration: 30 } : { server_type: serverType },
      ),
    }),
  );
  if (response.status !== 201) throw new Error(`purchase answered ${response.status}: ${await response.text()}`);
}

/** A page's run: the middleware and loaders it went through (its route chain), and what the loaders answered. */
export interface PageRun {
  pathname: string;
  ran: unknown[];
  loaderData: unknown[];
}

/**
 * A page as React Router serves it: the route chain app/routes.ts gives its address (root, every
 * layout, the page), each route's middleware in order, then every matched loader at once. Answers
 * what the loaders answered; a thrown redirect fails.
 */
async function page(site: HotSite, fixture: HotFixture | null, path: string): Promise<PageRun> {
  const headers = new Headers(fixture ? { cookie: `__session=${fixture.player.token}` } : {});
  const request = new Request(`${ORIGIN}${path}`, { headers });
  const url = new URL(request.url);
  const { middleware, loaders, params, pattern } = routeChain(url.pathname);
  const context: RouterContextProvider = createRouterContext(site.deps);
  const args = { request, context, params, url, pattern };
  let loaderData: unknown[] = [];
  const chain = async (index: number): Promise<Response> => {
    const run = middleware[index] as ((a: unknown, next: () => Promise<Response>) => Promise<unknown>) | undefined;
    if (!run) {
      loaderData = await Promise.all(loaders.map((loader) => (loader as (a: unknown) => unknown)(args)));
      return new Response(null);
    }
    return (await run(args, () => chain(index + 1))) as Response;
  };
  await chain(0);
  return { pathname: url.pathname, ran: [...middleware, ...loaders], loaderData };
}

/**
 * The address of «Показать ещё» under the first page of the Корзина or /purchases; a player with less
 * than a page gets a cursor past their rows, which reads the same statements.
 */
async function nextPageOf(site: HotSite, fixture: HotFixture, path: "/profile" | "/purchases"): Promise<string> {
  const { loaderData } = await page(site, fixture, path);
  const tab = loaderData.at(-1);
  return (tab as { more: string | null }).more ?? `${path}?before=${site.clock.now().getTime()}-999999999`;
}

// ---- The hot paths ------------------------------------------------------------

export interface HotPath {
  name: string;
  /** A request the site answers, or one run of a minutely job. */
  kind: "request" | "job";
  /** Sets up one run; not measured. */
  prepare?(site: HotSite, fixture: HotFixture): Promise<unknown>;
  run(site: HotSite, fixture: HotFixture, prepared: unknown): Promise<unknown>;
}

export const hotPaths: HotPath[] = [
  {
    // First: the Steam stand-in signs its answer with the real clock, which the paths below leave behind.
    name: "sign-in through Steam",
    kind: "request",
    run: (site, fixture) => signIn(site, fixture.player.steamId),
  },
  {
    name: "plugin poll, nothing due",
    kind: "request",
    prepare: (site, fixture) => deliverEverything(site, fixture),
    run: async (site, fixture) => {
      const leased = await poll(site, fixture, onlineWith(fixture));
      if (leased.length !== 0) throw new Error("a poll with nothing due leased something");
    },
  },
  {
    // Written: a minute since the last one written (decision 126).
    name: "plugin heartbeat, written",
    kind: "request",
    prepare: async (site) => site.clock.advance(61_000),
    run: (site, fixture) => heartbeat(site, fixture, onlineWith(fixture)),
  },
  {
    // The beat in between: 30 s after one written, nothing about the server changed.
    name: "plugin heartbeat, not written",
    kind: "request",
    prepare: async (site, fixture) => {
      site.clock.advance(61_000);
      await heartbeat(site, fixture, onlineWith(fixture));
      site.clock.advance(29_000);
    },
    run: (site, fixture) => heartbeat(site, fixture, onlineWith(fixture)),
  },
  {
    name: "plugin poll, one delivery due",
    kind: "request",
    prepare: async (site, fixture) => {
      await deliverEverything(site, fixture);
      await buy(site, fixture);
    },
    run: async (site, fixture) => {
      const leased = await poll(site, fixture, onlineWith(fixture));
      if (leased.length !== 1) throw new Error(`the poll leased ${leased.length}, not 1`);
    },
  },
  {
    // Run and reported given; the world not yet saved.
    name: "plugin ack, a kit given",
    kind: "request",
    prepare: async (site, fixture) => {
      await deliverEverything(site, fixture);
      await buy(site, fixture);
      const leased = await poll(site, fixture, onlineWith(fixture));
      if (leased.length !== 1) throw new Error(`the poll leased ${leased.length}, not 1`);
      return leased;
    },
    run: (site, fixture, leased) => ack(site, fixture, leased as Leased[], "g"),
  },
  {
    // After the save: done, the Корзина entry used.
    name: "plugin ack, a kit saved",
    kind: "request",
    prepare: async (site, fixture) => {
      await deliverEverything(site, fixture);
      await buy(site, fixture);
      const leased = await poll(site, fixture, onlineWith(fixture));
      if (leased.length !== 1) throw new Error(`the poll leased ${leased.length}, not 1`);
      await ack(site, fixture, leased, "g");
      return leased;
    },
    run: (site, fixture, leased) => ack(site, fixture, leased as Leased[], "s"),
  },
  {
    // A timed rank saved: its time stacks on the player's running one and its revoke is written.
    name: "plugin ack, a rank saved",
    kind: "request",
    prepare: async (site, fixture) => {
      await deliverEverything(site, fixture);
      await buy(site, fixture, fixture.rankId);
      const leased = await poll(site, fixture, onlineWith(fixture));
      if (leased.length !== 1) throw new Error(`the poll leased ${leased.length}, not 1`);
      await ack(site, fixture, leased, "g");
      return leased;
    },
    run: (site, fixture, leased) => ack(site, fixture, leased as Leased[], "s"),
  },
  {
    name: "plugin /store (what waits for a player)",
    kind: "request",
    run: (site, fixture) => pluginRequest(site, fixture, "/api/game/pending", { steam_id: fixture.player.steamId }),
  },
  {
    name: "purchase",
    kind: "request",
    run: (site, fixture) => buy(site, fixture),
  },
  {
    name: "top-up: create",
    kind: "request",
    run: async (site, fixture) => {
      const response = await site.fetch(
        new Request(`${ORIGIN}/api/payment/create`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${fixture.player.token}` },
          body: JSON.stringify({ amount: 150, email: "player@example.com" }),
        }),
      );
      if (response.status !== 200) throw new Error(`top-up answered ${response.status}: ${await response.text()}`);
      return response.json();
    },
  },
  {
    name: "top-up: provider's notification",
    kind: "request",
    prepare: async (site, fixture) => {
      site.clock.advance(2 * 60_000); // a player tops up at most so often
      const response = await site.fetch(
        new Request(`${ORIGIN}/api/payment/create`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${fixture.player.token}` },
          body: JSON.stringify({ amount: 150, email: "player@example.com" }),
        }),
      );
      if (response.status !== 200) throw new Error(`top-up answered ${response.status}`);
      return ((await response.json()) as { payment_url: string }).payment_url;
    },
    // The stand-in's checkout page notifies the site as the provider would; its own state is in KV.
    run: async (site, _fixture, checkoutUrl) => {
      const paid = await site.fetch(
        new Request(checkoutUrl as string, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ action: "pay" }).toString(),
        }),
      );
      if (paid.status !== 303) throw new Error(`the stand-in answered ${paid.status}`);
    },
  },
  {
    name: "page /profile (Корзина)",
    kind: "request",
    run: (site, fixture) => page(site, fixture, "/profile"),
  },
  {
    name: "page /purchases",
    kind: "request",
    run: (site, fixture) => page(site, fixture, "/purchases"),
  },
  {
    // «Показать ещё» (decision 150): the page after the first, from its own link.
    name: "page /profile?before= (the Корзина's next page)",
    kind: "request",
    prepare: (site, fixture) => nextPageOf(site, fixture, "/profile"),
    run: (site, fixture, path) => page(site, fixture, path as string),
  },
  {
    name: "page /purchases?before= (the next page)",
    kind: "request",
    prepare: (site, fixture) => nextPageOf(site, fixture, "/purchases"),
    run: (site, fixture, path) => page(site, fixture, path as string),
  },
  {
    name: "page /deposits",
    kind: "request",
    run: (site, fixture) => page(site, fixture, "/deposits"),
  },
  {
    name: "page /statement",
    kind: "request",
    run: (site, fixture) => page(site, fixture, "/statement"),
  },
  {
    name: "page /shop (signed in)",
    kind: "request",
    run: (site, fixture) => page(site, fixture, `/shop?server_type=${HOT_SERVER_TYPE}`),
  },
  {
    name: "page /shop/items/:id (signed in)",
    kind: "request",
    run: (site, fixture) => page(site, fixture, `/shop/items/${fixture.itemId}?server_type=${HOT_SERVER_TYPE}`),
  },
  {
    name: "page /balance (signed in)",
    kind: "request",
    run: (site, fixture) => page(site, fixture, "/balance"),
  },
  {
    name: "page / (home)",
    kind: "request",
    run: (site) => page(site, null, "/"),
  },
  {
    name: "minutely: deliveries' upkeep",
    kind: "job",
    // Any minute but an hour's first.
    prepare: async (site) => {
      if (site.clock.now().getTime() % HOUR_MS < 60_000) site.clock.advance(60_000);
    },
    run: (site) => runGameMaintenance(site.deps),
  },
  {
    name: "hourly: deliveries' backstop",
    kind: "job",
    // The first minute of an hour, when the upkeep also looks for entries missing a delivery.
    prepare: async (site) => {
      const now = site.clock.now().getTime();
      site.clock.advance(HOUR_MS - (now % HOUR_MS));
    },
    run: (site) => runGameMaintenance(site.deps),
  },
  {
    name: "minutely: the wipe's jobs",
    kind: "job",
    // The cron's two wipe jobs: wipe sales, and a scheduled wipe recorded with the «до вайпа» entries it ends (decisions 128–130).
    run: async (site) => {
      await scheduleWipeSales(site.deps);
      await runScheduledWipes(site.deps);
    },
  },
  {
    name: "minutely: pending payments",
    kind: "job",
    run: (site) => recheckPendingPayments(site.deps),
  },
  {
    name: "minutely: Discord outbox",
    kind: "job",
    run: (site) => sendDiscordNotifications(site.deps),
  },
  {
    name: "minutely: server list",
    kind: "job",
    // Every game server's plugin beating, as on the busy day (the history's servers have no plugin here).
    prepare: (site) =>
      site.deps.db.run(
        statement(sql`INSERT INTO server_heartbeats (server_id, hostname, players, max_players, online_steam_ids, received_at)
          SELECT id, name, 50, 200, '[]', ${site.clock.now().getTime() - 20_000} FROM servers WHERE true
          ON CONFLICT (server_id) DO UPDATE SET received_at = excluded.received_at`),
      ),
    run: (site) => refreshServerStatus(site.deps),
  },
];

// ---- The doorbell, and the jobs that grow with the servers ------------------------------------------
// Last, so what they leave behind (a grant waiting for a player elsewhere, a due revoke, twenty more
// servers) reaches no path above. The day's model (bench/rows/run.ts, decision 152) prices with them.

/** The fixture's server's players without the fixture's player: a server of the type they aren't on. */
const elsewhere = (fixture: HotFixture) => onlineWith(fixture).slice(1);

let revokesComeDue = 0;
/**
 * A rank of another player on the fixture's server that ended half a minute ago: its revoke comes due
 * in this minute, so the upkeep rings its type. The one a run before left is taken as served (the
 * plugins' next poll would have), so the upkeep's due revokes stay what a day has.
 */
async function revokeComeDue(site: HotSite, fixture: HotFixture): Promise<void> {
  const now = site.clock.now().getTime();
  const n = ++revokesComeDue;
  const steamId = `765611986${String(n).padStart(8, "0")}`;
  await site.deps.db.run(
    statement(sql`UPDATE deliveries SET status = 'done', done_at = ${now}
      WHERE id LIKE '00000000-0000-4000-a000-%' AND status = 'pending'`),
  );
  const user = await one<{ id: number }>(
    site.deps,
    statement(
      sql`INSERT INTO users (steam_id, nickname, avatar_url, balance) VALUES (${steamId}, 'Бывший VIP', '', 0) RETURNING id`,
    ),
  );
  const entry = await one<{ id: number }>(
    site.deps,
    statement(sql`INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status, used_at, used_server_id, expires_at, created_at)
      VALUES (${user.id}, ${fixture.rankId}, ${HOT_SERVER_TYPE}, 30, 0, 'used', ${now - 30 * 24 * HOUR_MS}, ${fixture.server.id}, ${now - 30_000}, ${now - 30 * 24 * HOUR_MS})
      RETURNING id`),
  );
  await site.deps.db.run(
    statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, not_before, created_at)
      VALUES (${`00000000-0000-4000-a000-${String(n).padStart(12, "0")}`}, ${entry.id}, 'revoke', ${HOT_SERVER_TYPE}, ${steamId}, 0, 'pending', ${now - 30_000}, ${now - 30 * 24 * HOUR_MS})`),
  );
}

/** The seed's five types (db/seed/servers.ts): the twenty servers added here are spread over them. */
const SEED_TYPES = ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"];
/** The history's ten servers and twenty more, each beating as on the busy day; added once. */
const thirtyServers = (site: HotSite) =>
  site.deps.db.run(
    statement(sql`INSERT OR IGNORE INTO servers (id, name, server_type, ip_port, key_salt, key_rotated_at)
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)
      SELECT 3000001 + i, 'Ещё сервер ' || (i + 1), json_extract(${JSON.stringify(SEED_TYPES)}, '$[' || (i % 5) || ']'),
        '10.7.0.' || (i + 1) || ':28015', 'salt' || i, ${site.clock.now().getTime()} FROM n`),
  );

const upkeepWithARing: HotPath = {
  name: "minutely: deliveries' upkeep, a revoke come due (rings)",
  kind: "job",
  prepare: async (site, fixture) => {
    if (site.clock.now().getTime() % HOUR_MS < 60_000) site.clock.advance(60_000);
    await revokeComeDue(site, fixture);
    return site.doorbell.rings.length;
  },
  run: async (site, _fixture, ringsBefore) => {
    const report = await runGameMaintenance(site.deps);
    if (report.typesRung !== 1 || site.doorbell.rings.length !== (ringsBefore as number) + 1) {
      throw new Error(`the upkeep rang ${report.typesRung} types for a revoke come due`);
    }
  },
};

/** A job with twenty more servers than the history's ten (the busy day at 30 game servers). */
function withThirtyServers(path: HotPath): HotPath {
  return {
    ...path,
    name: `${path.name} (30 servers)`,
    prepare: async (site, fixture) => {
      await thirtyServers(site);
      return path.prepare?.(site, fixture);
    },
  };
}

const pathNamed = (name: string) => {
  const path = hotPaths.find((candidate) => candidate.name === name);
  if (!path) throw new Error(`no hot path ${name}`);
  return path;
};

hotPaths.push(
  {
    // A server of the type rung for a grant whose player is on another: the first server to poll queued
    // it (the setup here), this one finds nothing for the players it has.
    name: "plugin poll, rung for a player elsewhere",
    kind: "request",
    prepare: async (site, fixture) => {
      await deliverEverything(site, fixture);
      await buy(site, fixture);
      await poll(site, fixture, elsewhere(fixture));
    },
    run: async (site, fixture) => {
      const leased = await poll(site, fixture, elsewhere(fixture));
      if (leased.length !== 0) throw new Error("a server without the player leased the player's grant");
    },
  },
  {
    // The signed upgrade (decision 146): verified as a poll is, recorded, then handed to the runtime's doorbell.
    name: "plugin doorbell connect",
    kind: "request",
    run: async (site, fixture) => {
      site.clock.advance(1000);
      const before = site.doorbell.connects;
      const timestamp = Math.floor(site.clock.now().getTime() / 1000);
      const headers = await doorbellHeaders(fixture.server.id, fixture.server.key, timestamp);
      const response = await site.fetch(
        new Request(`${ORIGIN}${DOORBELL_PATH}`, { headers: { ...headers, upgrade: "websocket" } }),
      );
      if (response.status !== 200 || site.doorbell.connects !== before + 1) {
        throw new Error(`the doorbell's upgrade answered ${response.status}: ${await response.text()}`);
      }
    },
  },
  {
    // With the doorbell connected the plugin beats every 180 s: every beat is written (decision 152).
    name: "plugin heartbeat with the doorbell, written",
    kind: "request",
    prepare: async (site) => site.clock.advance(180_000),
    run: (site, fixture) => heartbeat(site, fixture, onlineWith(fixture), true),
  },
  upkeepWithARing,
  ...[
    pathNamed("minutely: deliveries' upkeep"),
    upkeepWithARing,
    pathNamed("minutely: the wipe's jobs"),
    pathNamed("minutely: server list"),
  ].map(withThirtyServers),
);

/** Every minutely job together, as the cron runs them (for the guard: nothing of the cron is left out). */
export const wholeCron = (site: HotSite) => runScheduled("* * * * *", site.deps);

/**
 * A whole Steam sign-in through the local stand-in: the start, the stand-in's approve form, the
 * callback (which makes the session), and the code's exchange. The stand-in's own pages are not the
 * site's work, but they touch no database.
 */
async function signIn(site: HotSite, steamId: string): Promise<void> {
  const get = (url: string, init: RequestInit = {}) => site.fetch(new Request(url, { redirect: "manual", ...init }));
  const start = await get(`${ORIGIN}/api/auth/steam`);
  const state = /__steam_signin=([^;]+)/.exec(start.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const providerPage = new URL(start.headers.get("location") ?? "");
  const approved = await get(new URL("approve", providerPage).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      return_to: providerPage.searchParams.get("openid.return_to") ?? "",
      realm: providerPage.searchParams.get("openid.realm") ?? "",
      steamid: steamId,
    }),
  });
  const callback = await get(approved.headers.get("location") ?? "", {
    headers: { cookie: `__steam_signin=${state}` },
  });
  const code = new URL(callback.headers.get("location") ?? "", ORIGIN).searchParams.get("code");
  const cookie = /__session=([^;]+)/.exec(callback.headers.getSetCookie().join("\n"))?.[1];
  if (!code || !cookie) throw new Error(`sign-in ended at ${callback.status} ${callback.headers.get("location")}`);
  const exchanged = await get(`${ORIGIN}/api/auth/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `__session=${cookie}` },
    body: JSON.stringify({ code }),
  });
  if (exchanged.status !== 200) throw new Error(`the code exchange answered ${exchanged.status}`);
}
