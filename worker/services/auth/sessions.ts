import { parseCookie } from "cookie";
import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { jwtVerify, SignJWT } from "jose";
import type { SessionUser } from "#core/auth/session-user.ts";
import { sessions, users } from "#db/schema.ts";
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { isSafeMethod } from "../../http-methods.ts";
import { sessionCookieName } from "./cookie-names.ts";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOKEN_ISSUER = "rust-servers-site";

export type { SessionUser };

// Imported once per secret: given raw bytes, jose imports the HMAC key again on every signature and
// every check, which is most of a signed-in request's token work. Only the settled key is kept.
let imported: { text: string; key: CryptoKey } | null = null;

async function secretKey(deps: Pick<Deps, "config">): Promise<CryptoKey> {
  const text = deps.config.sessionSecret;
  if (imported?.text === text) return imported.key;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(text),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  imported = { text, key };
  return key;
}

/** Creates a session row and the signed token that names it (used as both the bearer token and the cookie value). */
export async function createSession(deps: Pick<Deps, "db" | "config" | "now">, userId: number) {
  const now = deps.now().getTime();
  const id = crypto.randomUUID();
  const expiresAt = now + SESSION_TTL_MS;
  await deps.db.orm.insert(sessions).values({ id, userId, createdAt: now, expiresAt });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(id)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(await secretKey(deps));
  return { id, token, expiresAt };
}

/** The session id a token names, or null when the token is forged, tampered with or expired. */
export async function verifySessionToken(deps: Pick<Deps, "config" | "now">, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await secretKey(deps), {
      issuer: TOKEN_ISSUER,
      algorithms: ["HS256"],
      currentDate: deps.now(),
    });
    return typeof payload.sub === "string" ? payload.sub : null;
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
  return parseCookie(request.headers.get("cookie") ?? "")[cookieName] || null;
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
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = lookUpSessionUser(deps, request);
    lookups.set(request, lookup);
  }
  return lookup;
}

function sessionUserQuery(deps: Pick<Deps, "db" | "now">, sessionId: string) {
  return deps.db.orm
    .select({
      id: users.id,
      steamId: users.steamId,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      balance: users.balance,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, deps.now().getTime())))
    .limit(1);
}

async function lookUpSessionUser(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
): Promise<SessionUser | null> {
  const token = readSessionToken(request, deps.config);
  if (!token) return null;
  const sessionId = await verifySessionToken(deps, token);
  if (!sessionId) return null;
  const [row] = await sessionUserQuery(deps, sessionId);
  return row ? { ...row, sessionId } : null;
}

/**
 * A page's own reads, sent in the same round trip as the session's (decision 112). `playerId` is
 * the session's player as SQL: NULL unless the session is live, so a read keyed by it returns
 * nothing for a revoked or expired session, and never another player's rows.
 */
export type SessionReads<T extends readonly BatchItem<"sqlite">[]> = (playerId: SQL) => T;

/**
 * `getSessionUser` with the page's reads in the same batch: one database round trip for both. The
 * player is shared with the request's other loaders as `getSessionUser` shares it. `reads` is null
 * when the request is signed out (nothing was read).
 */
export async function getSessionUserWith<T extends readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]>(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
  pageReads: SessionReads<T>,
): Promise<{ user: SessionUser | null; reads: { [K in keyof T]: Awaited<T[K]> } | null }> {
  const token = readSessionToken(request, deps.config);
  const sessionId = token ? await verifySessionToken(deps, token) : null;
  if (!sessionId) return { user: null, reads: null };
  const now = deps.now().getTime();
  const playerId = sql`(SELECT user_id FROM sessions WHERE id = ${sessionId} AND revoked_at IS NULL AND expires_at > ${now})`;
  const batch = deps.db.orm.batch([sessionUserQuery(deps, sessionId), ...pageReads(playerId)] as const);
  const lookup = batch.then(([rows]) => {
    const [row] = rows as Awaited<ReturnType<typeof sessionUserQuery>>;
    return row ? { ...row, sessionId } : null;
  });
  if (isSafeMethod(request.method)) lookups.set(request, lookup);
  const [results, user] = await Promise.all([batch, lookup]);
  if (!user) return { user: null, reads: null };
  return { user, reads: results.slice(1) as unknown as { [K in keyof T]: Awaited<T[K]> } };
}

/** The session the request's cookie (never a bearer token) names, with its token, while it is live. */
export async function cookieSession(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
): Promise<{ sessionId: string; token: string } | null> {
  const token = readSessionCookie(request, deps.config);
  if (!token) return null;
  const sessionId = await verifySessionToken(deps, token);
  if (!sessionId) return null;
  const [row] = await deps.db.orm
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, deps.now().getTime())))
    .limit(1);
  return row ? { sessionId, token } : null;
}

export async function revokeSession(deps: Pick<Deps, "db" | "now">, sessionId: string): Promise<void> {
  await deps.db.orm
    .update(sessions)
    .set({ revokedAt: deps.now().getTime() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
