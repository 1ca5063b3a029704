import { sql } from "drizzle-orm";
import { GAME_ERRORS } from "#core/messages/game.ts";
import { POSITIVE_ID_PATTERN } from "#core/schemas/common.ts";
import { type Config, standInsEnabled } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { deriveServerKey, hashServerKey, hexToBytes, importSigningKey } from "./keys.ts";

// Every plugin request carries:
//   X-Server-Id   the server's id
//   X-Timestamp   unix seconds
//   X-Signature   hex HMAC-SHA256(sha256(key), `${timestamp}\n${METHOD}\n${target}\n${body}`)
// where the target is the request line's: the path and the query (`/api/game/queue?x=1`), so nothing
// can be appended to a signed request (issue 47, decision 142). Plugins send no query, so a target is
// their path, and older plugins, which signed the path alone, are verified as before.
// where the key is derived from GAME_KEY_SECRET, the id and the stored salt (keys.ts), or, for a
// server not yet rotated since decision 103, its SHA-256 is the stored key_hash.
// A request is accepted within ±5 minutes of our clock, and never again once it changed something:
// each server's requests that changed something are recorded in one row (game_request_marks, decision
// 126), and a request older than the newest recorded one by more than a few seconds, or recorded
// itself, is refused. A request that changes nothing (a poll with nothing due, a heartbeat not
// written) is answered without a write: on the free plan a row per request was most of the day's
// writes (issue 37).

export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** A request's X-Timestamp as the plugin writes it: unix seconds. */
export const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;

/** Whether a request signed at `timestamp` (unix seconds) is within the window of the site's clock. */
export function withinSignatureWindow(deps: Pick<Deps, "now">, timestamp: number): boolean {
  return Math.abs(Math.floor(deps.now().getTime() / 1000) - timestamp) <= SIGNATURE_WINDOW_SECONDS;
}
/**
 * How far a request may be older than the newest recorded one of its server and still be taken:
 * the plugin's poll, heartbeat and ack run on their own timers, so one signed a second before
 * another may arrive after it. Within it, a recorded request is known by its signature.
 */
export const REPLAY_SLACK_SECONDS = 5;
export const MAX_BODY_BYTES = 64 * 1024;

export interface GameServer {
  id: number;
  name: string;
  serverType: string;
  /** Acknowledgements accepted from it so far (decision 124). */
  ackSeq?: number;
  /** The site was restored from a backup and waits for this server to send again what it delivered since. */
  needsResync?: boolean;
}

/** The server's recorded requests: the newest timestamp and [seconds, signature] of the last few seconds. */
export interface RequestMarks {
  newest: number;
  recent: [number, string][];
  /** The row as stored, for the compare-and-set that records the next one; null when there is none. */
  stored: string | null;
}

/** The heartbeat stored for the server, as the heartbeat endpoint needs it to decide whether to write. */
export interface StoredHeartbeat {
  signedAt: number;
  receivedAt: number;
  hostname: string;
  maxPlayers: number;
  map: string | null;
  mapSize: number | null;
  mapSeed: number | null;
  wipedAt: number | null;
  /** Whether the plugin said its doorbell was connected (decision 146); null: it has none. */
  doorbell: boolean | null;
}

export interface VerifiedGameRequest {
  server: GameServer;
  body: string;
  signature: string;
  key: CryptoKey;
  /** SHA-256 hex of the server's key: what `key` was imported from (the doorbell signs its rings with it). */
  keyHash: string;
  /** X-Timestamp, unix seconds. */
  timestamp: number;
  marks: RequestMarks;
  heartbeat: StoredHeartbeat | null;
}

export class GameRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}

export function canonicalRequest(timestamp: string, method: string, target: string, body: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${target}\n${body}`;
}

/** What a signature covers of the address: the path and the query, as in the request line. */
export function requestTarget(url: URL): string {
  return `${url.pathname}${url.search}`;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Plain HTTP is refused except on the developer's own machine. The URL is already the public one
 * (worker/public-origin.ts): behind a TLS proxy it says https, and a site on a real host never
 * takes a loopback name for a sign of safety.
 */
export function isSecureTransport(url: URL, config: Config): boolean {
  return url.protocol === "https:" || (standInsEnabled(config) && LOCAL_HOSTS.has(url.hostname));
}

async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new GameRequestError(413, GAME_ERRORS.tooLarge);
  const body = await request.text();
  if (new TextEncoder().encode(body).length > MAX_BODY_BYTES) {
    throw new GameRequestError(413, GAME_ERRORS.tooLarge);
  }
  return body;
}

interface ServerRow {
  id: number;
  name: string;
  server_type: string;
  key_hash: string | null;
  key_salt: string | null;
  ack_seq: number;
  needs_resync: number;
  marks: string | null;
  hb_signed_at: number | null;
  hb_received_at: number | null;
  hb_hostname: string | null;
  hb_max_players: number | null;
  hb_map: string | null;
  hb_map_size: number | null;
  hb_map_seed: number | null;
  hb_wiped_at: number | null;
  hb_doorbell: number | null;
}

// The server, its recorded requests and its heartbeat: one read of three rows.
const serverRead = (serverId: number) =>
  statement(sql`SELECT s.id, s.name, s.server_type, s.key_hash, s.key_salt, s.ack_seq, s.needs_resync, m.recent AS marks,
      h.signed_at AS hb_signed_at, h.received_at AS hb_received_at, h.hostname AS hb_hostname,
      h.max_players AS hb_max_players, h.map AS hb_map, h.map_size AS hb_map_size, h.map_seed AS hb_map_seed,
      h.wiped_at AS hb_wiped_at, h.doorbell AS hb_doorbell
    FROM servers s
    LEFT JOIN game_request_marks m ON m.server_id = s.id
    LEFT JOIN server_heartbeats h ON h.server_id = s.id
    WHERE s.id = ${serverId}`);

function parseMarks(stored: string | null): RequestMarks {
  let recent: [number, string][] = [];
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : [];
    if (Array.isArray(parsed)) {
      recent = parsed.filter(
        (pair): pair is [number, string] =>
          Array.isArray(pair) && typeof pair[0] === "number" && typeof pair[1] === "string",
      );
    }
  } catch {
    recent = [];
  }
  return { newest: Math.max(0, ...recent.map(([second]) => second)), recent, stored };
}

/**
 * Whether a request signed at `timestamp` may still be taken: not older than the newest one its
 * server had recorded (or heartbeat written) by more than the slack, and not recorded itself.
 */
export function isFresh(marks: RequestMarks, heartbeatSignedAt: number, timestamp: number, signature: string): boolean {
  const newest = Math.max(marks.newest, heartbeatSignedAt);
  if (timestamp < newest - REPLAY_SLACK_SECONDS) return false;
  return !marks.recent.some(([second, seen]) => second === timestamp && seen === signature);
}

/** The marks after recording one more request: the newest second and those within the slack of it. */
export function withRecorded(marks: RequestMarks, timestamp: number, signature: string): [number, string][] {
  const newest = Math.max(marks.newest, timestamp);
  return [...marks.recent, [timestamp, signature] as [number, string]].filter(
    ([second]) => second >= newest - REPLAY_SLACK_SECONDS,
  );
}

/**
 * Checks transport, headers, clock window, the HMAC (constant time, via WebCrypto's verify) and
 * whether the request is fresh (not a replay of one its server had recorded), in that order.
 * Nothing is written here: a handler records the request when it is about to change something
 * (recordGameRequest), or writes a heartbeat only with a later timestamp.
 */
export async function verifyGameRequest(deps: Deps, request: Request): Promise<VerifiedGameRequest> {
  const url = new URL(request.url);
  if (!isSecureTransport(url, deps.config)) throw new GameRequestError(403, GAME_ERRORS.httpsRequired);

  const serverIdHeader = request.headers.get("x-server-id") ?? "";
  const timestampHeader = request.headers.get("x-timestamp") ?? "";
  const signature = (request.headers.get("x-signature") ?? "").toLowerCase();
  if (
    !POSITIVE_ID_PATTERN.test(serverIdHeader) ||
    !TIMESTAMP_PATTERN.test(timestampHeader) ||
    !/^[0-9a-f]{64}$/.test(signature)
  ) {
    throw new GameRequestError(400, GAME_ERRORS.signatureHeadersMissing);
  }

  const body = await readBody(request);

  const timestamp = Number(timestampHeader);
  if (!withinSignatureWindow(deps, timestamp)) {
    throw new GameRequestError(401, GAME_ERRORS.timestampOutOfWindow);
  }

  const serverId = Number(serverIdHeader);
  const row = (await deps.db.run<ServerRow>(serverRead(serverId))).rows[0];
  const keyHash = row ? await serverKeyHash(deps, row) : null;
  const key = keyHash ? await importSigningKey(keyHash) : null;
  const signatureBytes = hexToBytes(signature);
  const canonical = new TextEncoder().encode(
    canonicalRequest(timestampHeader, request.method, requestTarget(url), body),
  );
  // Unknown servers and wrong keys answer the same, so ids can't be probed.
  if (
    !row ||
    !key ||
    !keyHash ||
    !signatureBytes ||
    !(await crypto.subtle.verify("HMAC", key, signatureBytes, canonical))
  ) {
    throw new GameRequestError(401, GAME_ERRORS.badSignature);
  }

  const marks = parseMarks(row.marks);
  const heartbeat: StoredHeartbeat | null =
    row.hb_received_at === null
      ? null
      : {
          signedAt: row.hb_signed_at ?? 0,
          receivedAt: row.hb_received_at,
          hostname: row.hb_hostname ?? "",
          maxPlayers: row.hb_max_players ?? 0,
          map: row.hb_map,
          mapSize: row.hb_map_size,
          mapSeed: row.hb_map_seed,
          wipedAt: row.hb_wiped_at,
          doorbell: row.hb_doorbell === null ? null : Boolean(row.hb_doorbell),
        };
  if (!isFresh(marks, heartbeat?.signedAt ?? 0, timestamp, signature)) {
    throw new GameRequestError(409, GAME_ERRORS.replayed);
  }

  return {
    server: {
      id: row.id,
      name: row.name,
      serverType: row.server_type,
      ackSeq: Number(row.ack_seq ?? 0),
      needsResync: Boolean(row.needs_resync),
    },
    body,
    signature,
    key,
    keyHash,
    timestamp,
    marks,
    heartbeat,
  };
}

/** Attempts at recording before giving up on a server whose other requests keep recording meanwhile. */
const RECORD_ATTEMPTS = 5;

/**
 * Records a verified request before it changes anything: one row per server, updated only if no
 * other request of the server was recorded since it was read (compare and set), so two copies of a
 * request racing each other can't both pass. Refuses (409) a request that meanwhile became stale or
 * was recorded by its copy.
 */
export async function recordGameRequest(deps: Deps, game: VerifiedGameRequest): Promise<void> {
  let marks = game.marks;
  for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
    const recent = JSON.stringify(withRecorded(marks, game.timestamp, game.signature));
    const newest = Math.max(marks.newest, game.timestamp);
    const written = await deps.db.run(
      marks.stored === null
        ? statement(sql`INSERT INTO game_request_marks (server_id, newest, recent) VALUES (${game.server.id}, ${newest}, ${recent})
            ON CONFLICT (server_id) DO NOTHING`)
        : statement(sql`UPDATE game_request_marks SET newest = ${newest}, recent = ${recent}
            WHERE server_id = ${game.server.id} AND recent = ${marks.stored}`),
    );
    if (written.changes === 1) return;
    const again = await deps.db.run<{ recent: string }>(
      statement(sql`SELECT recent FROM game_request_marks WHERE server_id = ${game.server.id}`),
    );
    marks = parseMarks(again.rows[0]?.recent ?? null);
    if (!isFresh(marks, game.heartbeat?.signedAt ?? 0, game.timestamp, game.signature)) {
      throw new GameRequestError(409, GAME_ERRORS.replayed);
    }
  }
  throw new GameRequestError(409, GAME_ERRORS.replayed);
}

/** The hash of a derived key when the server has a salt; otherwise its legacy stored hash (until rotated). */
async function serverKeyHash(
  deps: Deps,
  row: { id: number; key_hash: string | null; key_salt: string | null },
): Promise<string | null> {
  if (row.key_salt) return hashServerKey(await deriveServerKey(deps.config.gameKeySecret, row.id, row.key_salt));
  return row.key_hash;
}
