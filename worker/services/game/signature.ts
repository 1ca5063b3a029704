import { sql } from "drizzle-orm";
import { GAME_ERRORS } from "#core/messages/game.ts";
import { POSITIVE_ID_PATTERN } from "#core/schemas/common.ts";
import { type Config, standInsEnabled } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { derivedSigningKey, hexToBytes, importSigningKey } from "./keys.ts";

// Every plugin request carries:
//   X-Server-Id   the server's id
//   X-Timestamp   unix seconds
//   X-Signature   hex HMAC-SHA256(sha256(key), `${timestamp}\n${METHOD}\n${path}\n${body}`)
// where the key is derived from GAME_KEY_SECRET, the id and the stored salt (keys.ts), or, for a
// server not yet rotated since decision 103, its SHA-256 is the stored key_hash.
// A request is accepted within ±5 minutes of our clock and only once
// (game_request_nonces has the primary key (server_id, signature)).

export const SIGNATURE_WINDOW_SECONDS = 5 * 60;
/** Nonces older than the window can't be replayed anyway (the timestamp check refuses them). */
export const NONCE_RETENTION_MS = 2 * SIGNATURE_WINDOW_SECONDS * 1000;
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

export interface VerifiedGameRequest {
  server: GameServer;
  body: string;
  signature: string;
  key: CryptoKey;
}

export class GameRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}

export function canonicalRequest(timestamp: string, method: string, path: string, body: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${path}\n${body}`;
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

/**
 * Checks transport, headers, clock window, the HMAC (constant time, via WebCrypto's verify)
 * and replay, in that order. Only a correctly signed request may write a nonce row.
 */
export async function verifyGameRequest(deps: Deps, request: Request): Promise<VerifiedGameRequest> {
  const url = new URL(request.url);
  if (!isSecureTransport(url, deps.config)) throw new GameRequestError(403, GAME_ERRORS.httpsRequired);

  const serverIdHeader = request.headers.get("x-server-id") ?? "";
  const timestamp = request.headers.get("x-timestamp") ?? "";
  const signature = (request.headers.get("x-signature") ?? "").toLowerCase();
  if (
    !POSITIVE_ID_PATTERN.test(serverIdHeader) ||
    !/^[0-9]{1,12}$/.test(timestamp) ||
    !/^[0-9a-f]{64}$/.test(signature)
  ) {
    throw new GameRequestError(400, GAME_ERRORS.signatureHeadersMissing);
  }

  const body = await readBody(request);

  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) {
    throw new GameRequestError(401, GAME_ERRORS.timestampOutOfWindow);
  }

  const serverId = Number(serverIdHeader);
  const row = (
    await deps.db.run<{
      id: number;
      name: string;
      server_type: string;
      key_hash: string | null;
      key_salt: string | null;
      ack_seq: number;
      needs_resync: number;
    }>(
      statement(
        sql`SELECT id, name, server_type, key_hash, key_salt, ack_seq, needs_resync FROM servers WHERE id = ${serverId}`,
      ),
    )
  ).rows[0];
  const key = row ? await serverSigningKey(deps, row) : null;
  const signatureBytes = hexToBytes(signature);
  const canonical = new TextEncoder().encode(canonicalRequest(timestamp, request.method, url.pathname, body));
  // Unknown servers and wrong keys answer the same, so ids can't be probed.
  if (!row || !key || !signatureBytes || !(await crypto.subtle.verify("HMAC", key, signatureBytes, canonical))) {
    throw new GameRequestError(401, GAME_ERRORS.badSignature);
  }

  const inserted = await deps.db.run(
    statement(
      sql`INSERT INTO game_request_nonces (server_id, signature, seen_at) VALUES (${serverId}, ${signature}, ${deps.now().getTime()}) ON CONFLICT DO NOTHING`,
    ),
  );
  if (inserted.changes !== 1) throw new GameRequestError(409, GAME_ERRORS.replayed);

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
  };
}

/** A derived key when the server has a salt; otherwise its legacy stored hash (until rotated). */
function serverSigningKey(
  deps: Deps,
  row: { id: number; key_hash: string | null; key_salt: string | null },
): Promise<CryptoKey | null> {
  if (row.key_salt) return derivedSigningKey(deps.config.gameKeySecret, row.id, row.key_salt);
  if (row.key_hash) return importSigningKey(row.key_hash);
  return Promise.resolve(null);
}

/** Removes nonces that the clock window already refuses. */
export async function pruneRequestNonces(deps: Deps): Promise<number> {
  const result = await deps.db.run(
    statement(sql`DELETE FROM game_request_nonces WHERE seen_at < ${deps.now().getTime() - NONCE_RETENTION_MS}`),
  );
  return result.changes;
}
