// Steam Web API ISteamUser/GetPlayerSummaries: a player's public nickname and avatar.
import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { steamWebApiGet } from "./web-api.ts";

export const DEFAULT_AVATAR_URL = "/images/avatar-default.svg";

export interface SteamProfile {
  nickname: string;
  avatarUrl: string;
}

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), "http(s) only");

const summariesSchema = z.object({
  response: z.object({
    players: z.array(
      z.object({
        steamid: z.string(),
        personaname: z.string(),
        avatarfull: httpUrl.optional(),
        avatarmedium: httpUrl.optional(),
        avatar: httpUrl.optional(),
      }),
    ),
  }),
});

/**
 * The player's Steam nickname and avatar, or null when no key is configured or
 * Steam does not answer usefully (sign-in goes on with the SteamID as nickname).
 */
export async function fetchSteamProfile(
  deps: Pick<Deps, "config" | "fetch">,
  steamId: string,
): Promise<SteamProfile | null> {
  const key = deps.config.steamApiKey;
  if (!key) return null;
  const answer = await steamWebApiGet(
    deps,
    "ISteamUser/GetPlayerSummaries/v2/",
    { key, steamids: steamId },
    summariesSchema,
  );
  const player = answer?.response.players.find((entry) => entry.steamid === steamId);
  if (!player) return null;
  const nickname = player.personaname.trim().slice(0, 64) || steamId;
  return { nickname, avatarUrl: player.avatarfull ?? player.avatarmedium ?? player.avatar ?? DEFAULT_AVATAR_URL };
}

/** The profile a player gets when Steam's Web API is not used. */
export function fallbackProfile(steamId: string): SteamProfile {
  return { nickname: steamId, avatarUrl: DEFAULT_AVATAR_URL };
}
