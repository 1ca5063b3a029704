// The running site the plugin scenarios talk to (tests/plugin/run.ts starts it on each runtime):
// its address, its database (the same file the site uses: local D1's SQLite file or the Node
// server's libSQL file), and the rows a scenario sets up the way the shop and the operators would.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { type Client, createClient } from "@libsql/client";
import { LOCAL_GAME_KEY_SECRET } from "../../worker/config.ts";
import { FINISHED, LEASE_NAME, minuteOf } from "../../worker/cron/lease.ts";
import { deriveServerKey, generateKeySalt } from "../../worker/services/game/keys.ts";
import { signInThroughStandIn } from "../server/sign-in.ts";

export const SITE_ORIGIN = process.env.PLUGIN_SITE_ORIGIN ?? "http://localhost:8788";
export const RUNTIME = process.env.PLUGIN_RUNTIME ?? "worker";

let client: Client | null = null;
export function db(): Client {
  if (!client) {
    const url = process.env.PLUGIN_DATABASE_URL;
    if (!url) throw new Error("PLUGIN_DATABASE_URL is not set: run the scenarios with tests/plugin/run.ts");
    client = createClient({ url, concurrency: 1 });
    // The site writes the same file: wait for its lock rather than fail (the chaos run writes a lot).
    void client.execute("PRAGMA busy_timeout = 10000");
  }
  return client;
}

export async function one<Row>(sql: string, ...args: (string | number | null)[]): Promise<Row> {
  const result = await db().execute({ sql, args });
  const row = result.rows[0];
  if (!row) throw new Error(`no row: ${sql}`);
  return row as unknown as Row;
}

export async function all<Row>(sql: string, ...args: (string | number | null)[]): Promise<Row[]> {
  return (await db().execute({ sql, args })).rows as unknown as Row[];
}

export { uniqueSteamId } from "../support/unique.ts";

/** A server type of the scenario's own, so no other scenario's deliveries reach its game server. */
export function scenarioType(): string {
  return `PLUGIN_${randomBytes(4).toString("hex").toUpperCase()}`;
}

/**
 * Registers a game server as `npm run servers -- add` does (a salt in the database, the key derived
 * from the site's GAME_KEY_SECRET, here the local one); answers its id and plugin key.
 */
export async function createGameServer(serverType: string): Promise<{ id: number; key: string }> {
  const salt = generateKeySalt();
  const octets = [...randomBytes(3)].join(".");
  const row = await one<{ id: number }>(
    "INSERT INTO servers (name, server_type, ip_port, key_salt, key_rotated_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    `Сервер ${serverType}`,
    serverType,
    `10.${octets}:28015`,
    salt,
    Date.now(),
  );
  const id = Number(row.id);
  return { id, key: await deriveServerKey(LOCAL_GAME_KEY_SECRET, id, salt) };
}

export interface ItemSpec {
  serverType: string;
  name: string;
  grant: string[];
  revoke?: string[];
  requiresOnline?: boolean;
  /** Days the item can be bought for; none: a one-off item. */
  durations?: number[];
  price?: number;
}

/** An item as the console's catalog form saves it (price in rubles). */
export async function createItem(spec: ItemSpec): Promise<number> {
  const category = await one<{ id: number }>(
    "INSERT INTO categories (name) VALUES (?) RETURNING id",
    `Категория ${spec.serverType}`,
  );
  const item = await one<{ id: number }>(
    `INSERT INTO items (name, price, img, server_type, category_id, is_one_time, requires_online)
     VALUES (?, ?, '/img/items/vip.png', ?, ?, ?, ?) RETURNING id`,
    spec.name,
    (spec.price ?? 50) * 100,
    spec.serverType,
    Number(category.id),
    spec.durations?.length ? 0 : 1,
    spec.requiresOnline === false ? 0 : 1,
  );
  const itemId = Number(item.id);
  for (const days of spec.durations ?? []) {
    await db().execute({ sql: "INSERT INTO item_durations (item_id, days) VALUES (?, ?)", args: [itemId, days] });
  }
  let order = 0;
  for (const [phase, templates] of [
    ["grant", spec.grant],
    ["revoke", spec.revoke ?? []],
  ] as const) {
    for (const template of templates) {
      await db().execute({
        sql: "INSERT INTO item_commands (item_id, phase, template, sort_order) VALUES (?, ?, ?, ?)",
        args: [itemId, phase, template, order++],
      });
    }
  }
  return itemId;
}

async function userId(steamId: string): Promise<number> {
  await db().execute({
    sql: "INSERT INTO users (steam_id, nickname, avatar_url) VALUES (?, ?, '') ON CONFLICT (steam_id) DO NOTHING",
    args: [steamId, "Игрок"],
  });
  return Number((await one<{ id: number }>("SELECT id FROM users WHERE steam_id = ?", steamId)).id);
}

/** An entry in the player's Корзина, as a purchase or a promo code leaves it. */
export async function giveEntry(
  steamId: string,
  itemId: number,
  serverType: string,
  durationDays: number | null = null,
) {
  const row = await one<{ id: number }>(
    `INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status)
     VALUES (?, ?, ?, ?, ?, 'not_used') RETURNING id`,
    await userId(steamId),
    itemId,
    serverType,
    durationDays,
    durationDays === null ? 1 : 0,
  );
  return Number(row.id);
}

export interface EntryRow {
  status: string;
  used_server_id: number | null;
  expires_at: number | null;
  last_error: string | null;
}

export function entry(entryId: number): Promise<EntryRow> {
  return one<EntryRow>(
    "SELECT status, used_server_id, expires_at, last_error FROM inventory_entries WHERE id = ?",
    entryId,
  );
}

export interface DeliveryRow {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  done_server_id: number | null;
  home_server_id: number | null;
  saving_since: number | null;
  /** Each command's state as the site stores it (decision 124), in order. */
  states: string[];
}

export async function delivery(entryId: number, kind: "grant" | "revoke" = "grant"): Promise<DeliveryRow | null> {
  const row = (
    await all<Omit<DeliveryRow, "states"> & { progress: string | null }>(
      `SELECT id, kind, status, attempts, last_error, done_server_id, home_server_id, saving_since, progress
       FROM deliveries WHERE inventory_entry_id = ? AND kind = ?`,
      entryId,
      kind,
    )
  )[0];
  if (!row) return null;
  const { progress, ...rest } = row;
  const states = (JSON.parse(progress ?? "[]") as { state: string }[]).map((command) => command.state);
  return { ...rest, states };
}

/** The retry delay after a failure has passed (the site waits 1, 5, 15, 60 minutes). */
export async function retryIsDue(entryId: number): Promise<void> {
  await db().execute({ sql: "UPDATE deliveries SET not_before = 0 WHERE inventory_entry_id = ?", args: [entryId] });
}

/** The lease the site gave a server has run out (5 minutes), as after a server that never answered. */
export async function leaseLapsed(entryId: number): Promise<void> {
  await db().execute({
    sql: "UPDATE deliveries SET lease_until = ? WHERE inventory_entry_id = ? AND lease_until IS NOT NULL",
    args: [Date.now() - 1000, entryId],
  });
}

/** A timed entry's paid time has run out: it and its revoke are due now. */
export async function timeRunsOut(entryId: number): Promise<void> {
  const past = Date.now() - 1000;
  await db().execute({ sql: "UPDATE inventory_entries SET expires_at = ? WHERE id = ?", args: [past, entryId] });
  await db().execute({
    sql: "UPDATE deliveries SET not_before = ? WHERE inventory_entry_id = ? AND kind = 'revoke'",
    args: [past, entryId],
  });
}

// The operator console over HTTP, as the seed's admin (76561198000000001) uses it.

const ADMIN_STEAM_ID = "76561198000000001";
let adminSession: Promise<string> | null = null;

function admin(): Promise<string> {
  adminSession ??= signIn(ADMIN_STEAM_ID);
  return adminSession;
}

/** The visible text of a delivery's row on the console's «Доставки» page (any filter); "" when absent. */
export async function consoleRow(deliveryId: string, status = "problems"): Promise<string> {
  const response = await fetch(`${SITE_ORIGIN}/admin/deliveries?status=${status}`, {
    headers: { cookie: await admin() },
  });
  const html = await response.text();
  for (const row of html.split("<tr").slice(1)) {
    if (row.includes(`value="${deliveryId}"`) || row.includes(deliveryId)) {
      return row
        .replace(/<[^>]+>/g, " ")
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/\s+/g, " ")
        .trim();
    }
  }
  return "";
}

/** The operator presses «Повторить» on a delivery (a plain form post, as without JavaScript); answers the status. */
export async function pressRetry(deliveryId: string): Promise<number> {
  const response = await fetch(`${SITE_ORIGIN}/admin/deliveries`, {
    method: "POST",
    headers: { cookie: await admin(), origin: SITE_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "retry", deliveryId }),
    redirect: "manual",
  });
  return response.status;
}

/** The operator refunds a purchase from the player's console page; answers the status. */
export async function pressRefund(steamId: string, purchaseId: number, reason = "Игрок передумал"): Promise<number> {
  const response = await fetch(`${SITE_ORIGIN}/admin/players/${steamId}`, {
    method: "POST",
    headers: { cookie: await admin(), origin: SITE_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "refund", purchaseId: String(purchaseId), reason }),
    redirect: "manual",
  });
  return response.status;
}

/**
 * The operator sets a server's wipe schedule in the console's «Серверы» form (a plain form post):
 * `weekday` 1 Monday … 7 Sunday and `time` "HH:MM", Moscow time. Answers the status.
 */
export async function setWipeSchedule(
  serverId: number,
  schedule: { wipeKind: "weekly"; weekday: number; time: string } | { wipeKind: "none" | "forced" },
): Promise<number> {
  const fields: Record<string, string> = { intent: "wipe", serverId: String(serverId), wipeKind: schedule.wipeKind };
  if (schedule.wipeKind === "weekly") Object.assign(fields, { weekday: String(schedule.weekday), time: schedule.time });
  const response = await fetch(`${SITE_ORIGIN}/admin/servers`, {
    method: "POST",
    headers: { cookie: await admin(), origin: SITE_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return response.status;
}

/**
 * Resolves once a run of the site's minutely cron for the minute `at` falls in, or a later one, is
 * over, so each job has had its chance at that minute: a scenario may then assert that one did nothing.
 * On the Worker the test runs the cron once after `at`, as Cloudflare would (tests/e2e/site.ts
 * fireCron), and workerd answers once the run and its waitUntil are done. The Node server runs its own
 * every minute (worker/node/schedule.ts) and marks the minute's lease row finished when its jobs are
 * (worker/cron/lease.ts): that row is the sign.
 */
export async function cronHasRun(at: number): Promise<void> {
  const wait = at + 1000 - Date.now();
  if (wait > 0) await new Promise((done) => setTimeout(done, wait));
  if (RUNTIME === "worker") {
    const response = await fetch(`${SITE_ORIGIN}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
    if (!response.ok) throw new Error(`the cron answered ${response.status}`);
    return;
  }
  const minute = minuteOf(at);
  const deadline = Date.now() + 2 * 60_000;
  for (;;) {
    const [lease] = await all<{ slot: number; holder: string }>(
      "SELECT slot, holder FROM job_leases WHERE name = ?",
      LEASE_NAME,
    );
    const slot = Number(lease?.slot ?? -1);
    if (slot > minute || (slot === minute && lease?.holder === FINISHED)) return;
    if (Date.now() > deadline) throw new Error(`the Node cron never finished the run of minute ${minute}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

// Buying over HTTP, as the shop's script does, with the session a browser gets from the Steam
// stand-in (tests/server/sign-in.ts).

/** Kills the site (SIGKILL) and starts it again over the same data (tests/plugin/run.ts); resolves once it serves. */
export async function restartSite(): Promise<void> {
  const control = process.env.PLUGIN_SITE_CONTROL;
  if (!control) throw new Error("PLUGIN_SITE_CONTROL is not set: run the scenarios with tests/plugin/run.ts");
  const response = await fetch(`${control}/restart`, { method: "POST" });
  if (!response.ok) throw new Error(`the site did not restart: ${await response.text()}`);
}

/** Signs in through the local Steam stand-in; answers the session cookie (`__session=…`). */
export function signIn(steamId: string): Promise<string> {
  return signInThroughStandIn(SITE_ORIGIN, steamId);
}

/** Credits the player as an operator's adjustment does: the ledger row and the balance together. */
export async function credit(steamId: string, rubles: number): Promise<void> {
  const id = await userId(steamId);
  await db().batch(
    [
      {
        sql: "INSERT INTO ledger (user_id, amount, kind, note) VALUES (?, ?, 'adjustment', 'сценарий плагина')",
        args: [id, rubles * 100],
      },
      { sql: "UPDATE users SET balance = balance + ? WHERE id = ?", args: [rubles * 100, id] },
    ],
    "write",
  );
}

export async function buy(session: string, itemId: number, serverType: string, duration: number | null = null) {
  const response = await fetch(`${SITE_ORIGIN}/api/purchase/items/${itemId}`, {
    method: "POST",
    headers: { cookie: session, origin: SITE_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ server_type: serverType, duration, idempotency_key: randomUUID() }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * What sits between the game server and the site: passes requests on, and can play the site
 * being down, answer in place of it, or hold a request until told.
 */
export class SiteProxy {
  private server: Server;
  mode: "up" | "down" = "up";
  /** Rewrites an answer's body on its way back (path, body) → body. */
  rewrite: ((path: string, body: string) => string) | null = null;
  /** Called for each request that reaches the site, with its path and the game server it says it is. */
  onRequest: ((path: string, serverId: number) => void) | null = null;
  /** Answers in place of the site when it returns an answer (path, request body). */
  respond: ((path: string, body: string) => { status: number; body: string } | null) | null = null;
  /** Requests to these paths get no answer (until the game server gives up or dies). */
  readonly hold = new Set<string>();
  /** Requests to these paths wait until their promise settles, then go on to the site. */
  readonly delay = new Map<string, Promise<void>>();
  port = 0;
  /**
   * A proxy that doesn't pass WebSocket upgrades (nginx without `proxy_set_header Upgrade`): it drops the
   * hop-by-hop Upgrade and Connection headers and passes a plain GET, so the site answers 426.
   */
  refuseUpgrades = false;
  /** The next upgrades are answered with these statuses in place of the site, one each (Caddy's 502 while the site restarts). */
  readonly upgradeAnswers: number[] = [];
  /** The doorbell sockets passed through (decision 148), the newest of each game server by its id. */
  private readonly doorbells = new Map<number, Socket>();

  constructor() {
    this.server = createServer((request, response) => {
      // A request cut while the site dies (the chaos run) ends here, never as an unhandled rejection.
      this.handle(request, response).catch(() => request.socket.destroy());
    });
    this.server.on("upgrade", (request: IncomingMessage, socket: Socket, head: Buffer) =>
      this.upgrade(request, socket, head),
    );
  }

  /** A WebSocket upgrade goes to the site byte for byte, as Caddy passes one on, and stays piped both ways. */
  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    if (this.mode === "down") {
      socket.destroy();
      return;
    }
    const serverId = Number(request.headers["x-server-id"]);
    this.onRequest?.(request.url ?? "/", serverId);
    if (this.refuseUpgrades) {
      this.plainGet(request, socket);
      return;
    }
    const status = this.upgradeAnswers.shift();
    if (status !== undefined) {
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const site = new URL(SITE_ORIGIN);
    const upstream = connect(Number(site.port || 80), site.hostname);
    upstream.on("error", () => socket.destroy());
    upstream.on("close", () => socket.destroy());
    socket.on("close", () => upstream.destroy());
    const lines = [`${request.method} ${request.url} HTTP/1.1`];
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
      const name = request.rawHeaders[i] as string;
      lines.push(`${name}: ${name.toLowerCase() === "host" ? site.host : request.rawHeaders[i + 1]}`);
    }
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    this.doorbells.set(serverId, socket);
  }

  private plainGet(request: IncomingMessage, socket: Socket): void {
    const headers: Record<string, string> = {};
    for (const name of ["x-server-id", "x-timestamp", "x-signature"]) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    fetch(`${SITE_ORIGIN}${request.url ?? "/"}`, { headers })
      .then(async (answer) => {
        const body = await answer.text();
        socket.end(
          `HTTP/1.1 ${answer.status} ${answer.statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      })
      .catch(() => socket.destroy());
  }

  /**
   * Writes a text frame into the game server's doorbell socket as if the site had sent it (a site's frames
   * are unmasked): a ring forged on the way. Answers whether that server's socket is open.
   */
  forgeFrame(serverId: number, text: string): boolean {
    const socket = this.doorbells.get(serverId);
    const payload = Buffer.from(text);
    if (!socket || socket.destroyed || payload.length > 125) return false;
    socket.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
    return true;
  }

  /** Cuts the game server's doorbell socket on the way, as a broken network does. Answers whether one was open. */
  cutDoorbell(serverId: number): boolean {
    const socket = this.doorbells.get(serverId);
    if (!socket || socket.destroyed) return false;
    socket.destroy();
    return true;
  }

  async start(): Promise<string> {
    await new Promise<void>((done) => this.server.listen(0, "127.0.0.1", () => done()));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.doorbells.values()) socket.destroy();
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? "/";
    if (this.mode === "down") {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.onRequest?.(path, Number(request.headers["x-server-id"]));
    if (this.hold.has(path)) return; // never answered
    await this.delay.get(path);
    const own = this.respond?.(path, Buffer.concat(chunks).toString("utf8"));
    if (own) {
      response.writeHead(own.status, { "content-type": "application/json" });
      response.end(own.body);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "x-server-id", "x-timestamp", "x-signature"]) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    let upstream: Response;
    let body: string;
    try {
      const sent = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.concat(chunks);
      upstream = await fetch(`${SITE_ORIGIN}${path}`, { method: request.method, headers, body: sent });
      body = await upstream.text();
    } catch {
      // The site is down (the chaos run kills it): the game server sees the connection fail.
      request.socket.destroy();
      return;
    }
    if (this.rewrite) body = this.rewrite(path, body);
    response.writeHead(upstream.status, { "content-type": "application/json" });
    response.end(body);
  }
}
