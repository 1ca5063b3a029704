import type { Deps } from "../../deps.ts";
import { clearSessionCookie } from "./cookies.ts";
import { readSessionCookie, revokeSession, verifySessionToken } from "./sessions.ts";

/**
 * Ends the caller's session — the one its bearer token names and the one its
 * cookie names (after a normal sign-in they are the same row, so both die
 * together) — and answers the `Set-Cookie` that removes the cookie. Signing
 * out without a session is not an error.
 */
export async function logout(deps: Pick<Deps, "db" | "config" | "now">, request: Request): Promise<string> {
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
  const tokens = new Set([bearer, readSessionCookie(request, deps.config)].filter((token) => token !== null));
  for (const token of tokens) {
    const sessionId = await verifySessionToken(deps, token);
    if (sessionId) await revokeSession(deps, sessionId);
  }
  return clearSessionCookie(deps.config);
}
