// The one-time code the Steam callback hands /auth-success instead of the session token:
// random, valid for a minute, kept only as a hash, bound to the session it names, usable once.
import { and, eq, gt, lt } from "drizzle-orm";
import { signInCodes } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { cookieSession } from "./sessions.ts";

export const SIGN_IN_CODE_TTL_MS = 60 * 1000;

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function hashOf(code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  return base64Url(new Uint8Array(digest));
}

/** A new code for `sessionId`; only its hash is stored. */
export async function issueSignInCode(deps: Pick<Deps, "db" | "now">, sessionId: string): Promise<string> {
  const code = base64Url(crypto.getRandomValues(new Uint8Array(32)));
  await deps.db.orm.insert(signInCodes).values({
    codeHash: await hashOf(code),
    sessionId,
    expiresAt: deps.now().getTime() + SIGN_IN_CODE_TTL_MS,
  });
  return code;
}

function matching(codeHash: string, sessionId: string, now: number) {
  return and(eq(signInCodes.codeHash, codeHash), eq(signInCodes.sessionId, sessionId), gt(signInCodes.expiresAt, now));
}

/** Whether `code` is unused, unexpired and names `sessionId` (without using it up). */
export async function signInCodeIsLive(
  deps: Pick<Deps, "db" | "now">,
  code: string,
  sessionId: string,
): Promise<boolean> {
  const [row] = await deps.db.orm
    .select({ sessionId: signInCodes.sessionId })
    .from(signInCodes)
    .where(matching(await hashOf(code), sessionId, deps.now().getTime()))
    .limit(1);
  return row !== undefined;
}

/**
 * Uses `code` up for `sessionId`: true at most once per code, and only before it expires. One
 * DELETE decides, so two tabs racing with the same code can't both win.
 */
export async function consumeSignInCode(
  deps: Pick<Deps, "db" | "now">,
  code: string,
  sessionId: string,
): Promise<boolean> {
  const deleted = await deps.db.orm
    .delete(signInCodes)
    .where(matching(await hashOf(code), sessionId, deps.now().getTime()))
    .returning({ sessionId: signInCodes.sessionId });
  return deleted.length === 1;
}

/** Codes past their minute can never be used; their rows go. */
export async function forgetExpiredSignInCodes(deps: Pick<Deps, "db" | "now">): Promise<void> {
  await deps.db.orm.delete(signInCodes).where(lt(signInCodes.expiresAt, deps.now().getTime()));
}

type CodeDeps = Pick<Deps, "db" | "config" | "now">;

/**
 * Whether `/auth-success?code=…` in this browser can still be traded: the code is live and names
 * the session this browser's cookie holds. A code pushed through a link to someone else is not.
 */
export async function signInCodeIsLiveHere(deps: CodeDeps, request: Request, code: string): Promise<boolean> {
  const session = await cookieSession(deps, request);
  return session !== null && (await signInCodeIsLive(deps, code, session.sessionId));
}

/**
 * `POST /api/auth/exchange`: the bearer token of the session that both the code and the request's
 * cookie name, once; null for a wrong, used or expired code, or a browser without that session.
 */
export async function exchangeSignInCode(deps: CodeDeps, request: Request, code: string): Promise<string | null> {
  const session = await cookieSession(deps, request);
  if (!session) return null;
  return (await consumeSignInCode(deps, code, session.sessionId)) ? session.token : null;
}
