// Steam Web API ISteamUser/ResolveVanityURL: a custom profile address (steamcommunity.com/id/<name>)
// to its SteamID64.
import { z } from "zod";
import type { Deps } from "../../deps.ts";

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
  const url = new URL(`${deps.config.steamWebApiBase}/ISteamUser/ResolveVanityURL/v1/`);
  url.searchParams.set("key", key);
  url.searchParams.set("vanityurl", vanity);
  try {
    const response = await deps.fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return "unavailable";
    }
    const parsed = answerSchema.safeParse(await response.json());
    if (!parsed.success) return "unavailable";
    // 1: found; 42: no match.
    return parsed.data.response.success === 1 ? (parsed.data.response.steamid ?? null) : null;
  } catch {
    return "unavailable";
  }
}
