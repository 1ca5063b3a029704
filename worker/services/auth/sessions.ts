import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { LRUCache } from "lru-cache";
import type { SessionUser } from "#core/auth/session-user.ts";
import { oncePer } from "#core/once-per.ts";
import { requestCookies } from "#core/request-cookies.ts";
import { sessions } from "#db/schema.ts";
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { isSafeMethod } from "../../http-methods.ts";
import { type Read, type RowsOf, rawSql, read, statement } from "../../ports/database.ts";
import { sessionCookieName } from "./cookie-names.ts";
import { SESSION_TTL_MS, sessionKey, signSessionToken, TOKEN_ISSUER } from "./session-token.ts";

export type { SessionUser };
export { SESSION_TTL_MS };

// Imported once per secret: given raw bytes, jose imports the HMAC key again on every signature and
// every check, which is most of a signed-in request's token work. Only the settled key is kept.
let imported: { text: string; key: CryptoKey } | null = null;

async function secretKey(deps: Pick<Deps, "config">): Promise<CryptoKey> {
  const text = deps.config.sessionSecret;
  if (imported?.text === text) return imported.key;
  const key = await sessionKey(text);
  imported = { text, key };
  return key;
}

/** Creates a session row and the signed token that names it (used as both the bearer token and the cookie value). */
export async function createSession(deps: Pick<Deps, "db" | "config" | "now">, userId: number) {
  const now = deps.now().getTime();
  const id = crypto.randomUUID();
  const expiresAt = now + SESSION_TTL_MS;
  await deps.db.orm.insert(sessions).values({ id, userId, createdAt: now, expiresAt });
  const token = await signSessionToken(await secretKey(deps), id, now, expiresAt);
  return { id, token, expiresAt };
}

// Tokens already verified with the current secret: what they name and when they expire. A signed-in
// player sends the same token with every page, and its check (decoding, parsing, the HMAC) was a
// twentieth of a signed-in page's CPU. Only good signatures are kept; expiry is checked on every use,
// and revocation lives in the sessions table, which every lookup reads anyway.
const verified = new LRUCache<string, { sessionId: string; exp: number; secret: string }>({ max: 2_000 });

/** The session id a token names, or null when the token is forged, tampered with or expired. */
export async function verifySessionToken(deps: Pick<Deps, "config" | "now">, token: string): Promise<string | null> {
  const now = deps.now();
  const known = verified.get(token);
  // As jose decides: expired once `exp` is not after the current whole second.
  if (known && known.secret === deps.config.sessionSecret && known.exp > Math.floor(now.getTime() / 1000)) {
    return known.sessionId;
  }
  try {
    const { payload } = await jwtVerify(token, await secretKey(deps), {
      issuer: TOKEN_ISSUER,
      algorithms: ["HS256"],
      currentDate: now,
    });
    if (typeof payload.sub !== "string") return null;
    if (typeof payload.exp === "number") {
      verified.set(token, { sessionId: payload.sub, exp: payload.exp, secret: deps.config.sessionSecret });
    }
    return payload.sub;
  } catch {
    return null;
  }
}

/** The bearer token, else the session cookie, of a request. */
export function readSessionToken(request: Request, config: Pick<Config, "publicUrl">): string | null {
  const authorization = request.headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) return bearer;
  return readSessionCookie(request, config);
}

/** The session cookie's value, under the name this site gives it. */
export function readSessionCookie(request: Request, config: Pick<Config, "publicUrl">): string | null {
  return readCookie(request, sessionCookieName(config));
}

/** A cookie's value from a request, or null. */
export function readCookie(request: Request, cookieName: string): string | null {
  return requestCookies(request)[cookieName] || null;
}

// The loaders of one page run side by side and most want the player. On a GET nothing changes
// the player mid-request, so they share one lookup: one D1 round trip per page, not one per
// loader. A POST looks up afresh, since its action may change the balance its page then shows.
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in player behind a request, or null. Revoked and expired sessions count as signed out. */
export function getSessionUser(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
): Promise<SessionUser | null> {
  if (!isSafeMethod(request.method)) return lookUpSessionUser(deps, request);
  return oncePer(lookups, request, (asked) => lookUpSessionUser(deps, asked));
}

/**
 * SQL naming the session's player inside a read that rides in the session's round trip: NULL unless
 * the session is live, so a read keyed by it returns nothing for a revoked or expired session, and
 * never another player's rows. Its parameters are the read's first two, `?1` the session's id and
 * `?2` the time now: a read built on it binds `SessionKey` first.
 */
export const SESSION_PLAYER_SQL = statement(sessionPlayerSql(rawSql("?1"), rawSql("?2"))).sql;

/**
 * What a live session is, the one place it is said: the player of the session `sessionId`, NULL
 * unless it was neither revoked nor expired by `now` (epoch ms). For a statement of drizzle's `sql`;
 * `SESSION_PLAYER_SQL` is this with the parameters of a read.
 */
export function sessionPlayerSql(sessionId: string | SQL, now: number | SQL): SQL {
  return sql`(SELECT user_id FROM sessions WHERE id = ${sessionId} AND revoked_at IS NULL AND expires_at > ${now})`;
}

/** The parameters `SESSION_PLAYER_SQL` names: the session's id and the time now (epoch ms). */
export type SessionKey = readonly [sessionId: string, now: number];

type SessionUserRow = Omit<SessionUser, "sessionId">;

// The player, if the session is live: the one place that says what a live session is stays SESSION_PLAYER_SQL.
const SESSION_USER_SQL = `SELECT id, steam_id AS steamId, nickname, avatar_url AS avatarUrl, balance
  FROM users WHERE id = ${SESSION_PLAYER_SQL}`;

const sessionUserRead = (key: SessionKey) => read<SessionUserRow>(SESSION_USER_SQL, key);

const sessionUserOf = (row: SessionUserRow | undefined, [sessionId]: SessionKey): SessionUser | null =>
  row ? { ...row, sessionId } : null;

/** The key of the session a well-signed, unexpired token names; whether it is still live is for the read to say. */
async function sessionKeyOf(deps: Pick<Deps, "config" | "now">, token: string | null): Promise<SessionKey | null> {
  const sessionId = token ? await verifySessionToken(deps, token) : null;
  return sessionId ? [sessionId, deps.now().getTime()] : null;
}

async function lookUpSessionUser(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
): Promise<SessionUser | null> {
  const key = await sessionKeyOf(deps, readSessionToken(request, deps.config));
  if (!key) return null;
  const [[row]] = await deps.db.read([sessionUserRead(key)] as const);
  return sessionUserOf(row, key);
}

/**
 * `getSessionUser` with the page's reads in the same batch: one database round trip for both
 * (decision 112). Each page read names the player with `SESSION_PLAYER_SQL` and binds the key it is
 * given first. The player is shared with the request's other loaders as `getSessionUser` shares it.
 * `reads` is null when the request is signed out (nothing was read).
 */
export async function getSessionUserWith<T extends readonly [Read<unknown>, ...Read<unknown>[]]>(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
  pageReads: (key: SessionKey) => T,
): Promise<{ user: SessionUser | null; reads: RowsOf<T> | null }> {
  const key = await sessionKeyOf(deps, readSessionToken(request, deps.config));
  if (!key) return { user: null, reads: null };
  const batch = deps.db.read([sessionUserRead(key), ...pageReads(key)] as const);
  const lookup = batch.then(([[row]]) => sessionUserOf(row, key));
  if (isSafeMethod(request.method)) lookups.set(request, lookup);
  const [[, ...reads], user] = await Promise.all([batch, lookup]);
  if (!user) return { user: null, reads: null };
  return { user, reads: reads as unknown as RowsOf<T> };
}

/** The session the request's cookie (never a bearer token) names, with its token, while it is live. */
export async function cookieSession(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
): Promise<{ sessionId: string; token: string } | null> {
  const token = readSessionCookie(request, deps.config);
  const key = await sessionKeyOf(deps, token);
  if (!token || !key) return null;
  const [[row]] = await deps.db.read([liveSessionRead(key)] as const);
  return row?.live ? { sessionId: key[0], token } : null;
}

/** The player of the session `sessionId` while it is live, or null. */
export async function livePlayerId(deps: Pick<Deps, "db" | "now">, sessionId: string): Promise<number | null> {
  const key: SessionKey = [sessionId, deps.now().getTime()];
  const [[row]] = await deps.db.read([
    read<{ userId: number | null }>(`SELECT ${SESSION_PLAYER_SQL} AS userId`, key),
  ] as const);
  return row?.userId ?? null;
}

const liveSessionRead = (key: SessionKey) =>
  read<{ live: number }>(`SELECT ${SESSION_PLAYER_SQL} IS NOT NULL AS live`, key);

export async function revokeSession(deps: Pick<Deps, "db" | "now">, sessionId: string): Promise<void> {
  await deps.db.orm
    .update(sessions)
    .set({ revokedAt: deps.now().getTime() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
