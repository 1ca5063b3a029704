// A remix-auth v4 strategy for Steam OpenID 2.0 that uses `deps.fetch` only
// (no Node `http`), so it runs on Workers. `@ianlucas/remix-auth-steam` was
// not used: it pins Steam's endpoint and the global fetch, skips the replay
// check, and declares React Router 7 (see docs/decisions/020).
import { Strategy } from "remix-auth/strategy";
import type { Deps } from "../../deps.ts";
import { SteamOpenIdError, steamLoginUrl, verifySteamAssertion } from "../../integrations/steam/openid.ts";
import { signInStateCookieName } from "./cookie-names.ts";
import { CALLBACK_PATH, signInStateCookie } from "./cookies.ts";
import { safeReturnPath } from "./return-path.ts";
import { readCookie } from "./sessions.ts";

export interface SteamVerifyParams {
  steamId: string;
  /** Where the player asked to go after signing in (a safe relative path). */
  next: string;
  request: Request;
}

export interface SteamStrategyOptions {
  deps: Pick<Deps, "db" | "config" | "now" | "fetch">;
}

export function steamCallbackUrl(deps: Pick<Deps, "config">): string {
  return `${deps.config.publicUrl}${CALLBACK_PATH}`;
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

export class SteamStrategy<User> extends Strategy<User, SteamVerifyParams> {
  name = "steam";

  constructor(
    private readonly options: SteamStrategyOptions,
    verify: Strategy.VerifyFunction<User, SteamVerifyParams>,
  ) {
    super(verify);
  }

  /**
   * Without an OpenID answer in the URL: throws a redirect to the provider
   * (remix-auth's convention) carrying a fresh state cookie. With one: checks
   * the state cookie, validates the assertion, and hands the SteamID to verify.
   */
  async authenticate(request: Request): Promise<User> {
    const { deps } = this.options;
    const url = new URL(request.url);
    const mode = url.searchParams.get("openid.mode");
    if (mode === null) throw this.redirectToProvider(url.searchParams.get("return_to"));
    if (mode === "cancel") throw new SteamOpenIdError("cancelled");

    const state = readCookie(request, signInStateCookieName(deps.config));
    const claimedReturnTo = url.searchParams.get("openid.return_to") ?? "";
    let claimedState: string | null = null;
    try {
      claimedState = new URL(claimedReturnTo).searchParams.get("state");
    } catch {
      // a malformed return_to fails the assertion check below
    }
    if (!state || !claimedState || !timingSafeEqualText(state, claimedState)) {
      throw new SteamOpenIdError("state");
    }

    const { steamId, returnTo } = await verifySteamAssertion(deps, url.searchParams, steamCallbackUrl(deps));
    const next = safeReturnPath(new URL(returnTo).searchParams.get("next"));
    return this.verify({ steamId, next, request });
  }

  private redirectToProvider(requestedNext: string | null): Response {
    const { config } = this.options.deps;
    const state = randomState();
    const returnTo = new URL(steamCallbackUrl(this.options.deps));
    returnTo.searchParams.set("state", state);
    returnTo.searchParams.set("next", safeReturnPath(requestedNext));
    const location = steamLoginUrl(config.steamOpenIdEndpoint, returnTo.toString(), `${config.publicUrl}/`);
    return new Response(null, {
      status: 302,
      headers: { location, "set-cookie": signInStateCookie(config, state), "cache-control": "no-store" },
    });
  }
}
