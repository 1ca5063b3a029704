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
  const found = await lookUpSteamProfile(deps, key, steamId);
  return typeof found === "string" ? null : found;
}

/**
 * The profile of `steamId` with `key`; "not-found" when Steam answered and has no such account (a gift
 * to it is refused, issue 36), "unavailable" when Steam didn't answer usefully.
 */
export async function lookUpSteamProfile(
  deps: Pick<Deps, "config" | "fetch">,
  key: string,
  steamId: string,
): Promise<SteamProfile | "not-found" | "unavailable"> {
  const answer = await steamWebApiGet(
    deps,
    "ISteamUser/GetPlayerSummaries/v2/",
    { key, steamids: steamId },
    summariesSchema,
  );
  if (!answer) return "unavailable";
  const player = answer.response.players.find((entry) => entry.steamid === steamId);
  if (!player) return "not-found";
  const nickname = player.personaname.trim().slice(0, 64) || steamId;
  return { nickname, avatarUrl: player.avatarfull ?? player.avatarmedium ?? player.avatar ?? DEFAULT_AVATAR_URL };
}

/** The profile a player gets when Steam's Web API is not used. */
export function fallbackProfile(steamId: string): SteamProfile {
  return { nickname: steamId, avatarUrl: DEFAULT_AVATAR_URL };
}
