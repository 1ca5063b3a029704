// Steam Web API ISteamUser/ResolveVanityURL: a custom profile address (steamcommunity.com/id/<name>)
// to its SteamID64.
import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { steamWebApiGet } from "./web-api.ts";

const answerSchema = z.object({
  response: z.object({
    success: z.number(),
    steamid: z
      .string()
      .regex(/^\d{17}$/)
      .optional(),
  }),
});

/** The SteamID64 behind `vanity`; null when Steam knows no such name; "unavailable" when it didn't answer usefully. */
export async function resolveVanity(
  deps: Pick<Deps, "config" | "fetch">,
  key: string,
  vanity: string,
): Promise<string | null | "unavailable"> {
  const answer = await steamWebApiGet(
    deps,
    "ISteamUser/ResolveVanityURL/v1/",
    { key, vanityurl: vanity },
    answerSchema,
  );
  if (!answer) return "unavailable";
  // 1: found; 42: no match.
  return answer.response.success === 1 ? (answer.response.steamid ?? null) : null;
}
