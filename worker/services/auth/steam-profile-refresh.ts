import type { Deps } from "../../deps.ts";
import { fetchSteamProfile, type SteamProfile } from "../../integrations/steam/profile.ts";
import { type Bucket, takeSteamCalls } from "../steam/call-budget.ts";

// Sign-in reads the player's Steam name and avatar with the site's one Web API key, whose daily quota
// the server list and gift lookups share. Looping sign-ins must not spend it (issue 47, decision 141):
// a player's profile is asked at most once a day, and sign-ins together at most 1 000 times an hour;
// otherwise the player's row keeps the profile it has, which is the cache.

const HOUR = 60 * 60_000;

export const SIGN_IN_PROFILE_LIMITS = {
  profile: { calls: 1, windowMs: 24 * HOUR },
  "sign-in": { calls: 1_000, windowMs: HOUR },
} as const;

/** The player's Steam profile to store at sign-in, or null to keep what the site has (no key, a budget spent, Steam silent). */
export async function signInProfile(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now">,
  steamId: string,
): Promise<SteamProfile | null> {
  if (!deps.config.steamApiKey) return null;
  const buckets: Bucket[] = [
    { scope: "profile", subject: steamId, ...SIGN_IN_PROFILE_LIMITS.profile },
    { scope: "sign-in", subject: "", ...SIGN_IN_PROFILE_LIMITS["sign-in"] },
  ];
  if (await takeSteamCalls(deps, buckets)) return null;
  return fetchSteamProfile(deps, steamId);
}
