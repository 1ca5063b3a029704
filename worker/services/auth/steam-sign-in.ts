// Sign-in with Steam from start to session: the redirect to the provider, the
// checked callback, the player's row, the session, the cookie.
import { lt, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { AUTH_ERROR_PARAM, type AuthErrorCode } from "#core/auth/errors.ts";
import { openidNonces, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { NONCE_MAX_AGE_MS, type OpenIdFailure, SteamOpenIdError } from "../../integrations/steam/openid.ts";
import { DEFAULT_AVATAR_URL, fallbackProfile } from "../../integrations/steam/profile.ts";
import { clearSignInStateCookie, sessionCookie } from "./cookies.ts";
import { createSession } from "./sessions.ts";
import { forgetExpiredSignInCodes, issueSignInCode } from "./sign-in-codes.ts";
import { signInProfile } from "./steam-profile-refresh.ts";
import { SteamStrategy } from "./steam-strategy.ts";

type SignInDeps = Pick<Deps, "db" | "config" | "now" | "fetch" | "waitUntil">;

export interface SignedIn {
  userId: number;
  sessionId: string;
  token: string;
  expiresAt: number;
  next: string;
}

/**
 * Creates the player on first sign-in (balance 0), refreshes nickname and avatar when Steam told us
 * them; Steam is asked at most once a day per player (steam-profile-refresh.ts).
 */
export async function upsertSteamUser(deps: Pick<Deps, "db" | "config" | "fetch" | "now">, steamId: string) {
  const profile = await signInProfile(deps, steamId);
  const initial = profile ?? fallbackProfile(steamId);
  const now = deps.now().getTime();
  const [row] = await deps.db.orm
    .insert(users)
    .values({ steamId, nickname: initial.nickname, avatarUrl: initial.avatarUrl, balance: 0 })
    .onConflictDoUpdate({
      target: users.steamId,
      set: profile
        ? { nickname: profile.nickname, avatarUrl: profile.avatarUrl, updatedAt: now }
        : {
            // Without Steam's answer keep what we know; a player with no avatar yet gets the default one.
            avatarUrl: sql`CASE WHEN ${users.avatarUrl} = '' THEN ${DEFAULT_AVATAR_URL} ELSE ${users.avatarUrl} END`,
            updatedAt: now,
          },
    })
    .returning({ id: users.id });
  if (!row) throw new Error("user upsert returned no row");
  return row.id;
}

export function createSteamAuthenticator(deps: SignInDeps): Authenticator<SignedIn> {
  const authenticator = new Authenticator<SignedIn>();
  authenticator.use(
    new SteamStrategy<SignedIn>({ deps }, async ({ steamId, next }) => {
      const userId = await upsertSteamUser(deps, steamId);
      const session = await createSession(deps, userId);
      return { userId, sessionId: session.id, token: session.token, expiresAt: session.expiresAt, next };
    }),
  );
  return authenticator;
}

/** Where the browser goes next, and the cookies it gets on the way. */
export interface SignInStep {
  location: string;
  cookies: string[];
}

/** `GET /api/auth/steam`: the provider's address, with the state cookie. */
export async function startSteamSignIn(deps: SignInDeps, request: Request): Promise<SignInStep> {
  const url = new URL(request.url);
  // A start request never carries an OpenID answer; drop any so it can't be mistaken for a callback.
  const start = new URL(request.url);
  start.search = "";
  const returnTo = url.searchParams.get("return_to");
  if (returnTo !== null) start.searchParams.set("return_to", returnTo);
  try {
    await createSteamAuthenticator(deps).authenticate("steam", new Request(start, { headers: request.headers }));
  } catch (thrown) {
    // remix-auth hands the redirect over as a thrown Response.
    if (thrown instanceof Response && thrown.headers.has("location")) {
      return { location: thrown.headers.get("location") ?? "", cookies: thrown.headers.getSetCookie() };
    }
    throw thrown;
  }
  throw new Error("the Steam strategy did not redirect");
}

function errorCode(reason: OpenIdFailure | "internal"): AuthErrorCode {
  switch (reason) {
    case "cancelled":
      return "cancelled";
    case "state":
    case "nonce_stale":
      return "expired";
    case "provider_unavailable":
      return "unavailable";
    default:
      return "failed";
  }
}

/**
 * `GET /api/auth/steam/callback`: on success the session cookie and `/auth-success?code=…&next=…`,
 * where the code is a one-time, one-minute stand-in for the token: the token itself never travels
 * in an address (server logs and history keep those). On any failure `/?auth_error=<code>`.
 */
export async function completeSteamSignIn(deps: SignInDeps, request: Request): Promise<SignInStep> {
  const clearState = clearSignInStateCookie(deps.config);
  deps.waitUntil(forgetOldNonces(deps));
  deps.waitUntil(forgetOldSignInCodes(deps));
  try {
    const signedIn = await createSteamAuthenticator(deps).authenticate("steam", request);
    const location = new URL("/auth-success", deps.config.publicUrl);
    location.searchParams.set("code", await issueSignInCode(deps, signedIn.sessionId));
    if (signedIn.next !== "/") location.searchParams.set("next", signedIn.next);
    const ttl = signedIn.expiresAt - deps.now().getTime();
    return {
      location: `${location.pathname}${location.search}`,
      cookies: [clearState, sessionCookie(deps.config, signedIn.token, ttl)],
    };
  } catch (error) {
    const reason = error instanceof SteamOpenIdError ? error.reason : "internal";
    console.warn(JSON.stringify({ event: "steam_signin_refused", reason, detail: String(error) }));
    const code = error instanceof Response ? "failed" : errorCode(reason);
    return { location: `/?${AUTH_ERROR_PARAM}=${code}`, cookies: [clearState] };
  }
}

/** Nonces older than any acceptable answer can't be replayed anyway (they are stale). */
async function forgetOldNonces(deps: Pick<Deps, "db" | "now">): Promise<void> {
  const cutoff = deps.now().getTime() - 3 * NONCE_MAX_AGE_MS;
  try {
    await deps.db.orm.delete(openidNonces).where(lt(openidNonces.seenAt, cutoff));
  } catch (error) {
    console.warn(JSON.stringify({ event: "openid_nonce_cleanup_failed", error: String(error) }));
  }
}

async function forgetOldSignInCodes(deps: Pick<Deps, "db" | "now">): Promise<void> {
  try {
    await forgetExpiredSignInCodes(deps);
  } catch (error) {
    console.warn(JSON.stringify({ event: "signin_code_cleanup_failed", error: String(error) }));
  }
}
