import type { Deps } from "../../deps.ts";

// How often one player may ask Steam who a friend is (a gift's recipient lookup). Steam's Web API
// key has one daily quota for the whole site, so one player clicking «Проверить» in a loop must not
// spend it. A soft limit: the store's counter is read and written without a lock, so a burst of
// parallel lookups may pass a few more than the limit; what it stops is a steady loop.

export const GIFT_LOOKUP_WINDOW_MS = 10 * 60 * 1000;
export const GIFT_LOOKUPS_PER_WINDOW = 30;

/**
 * Counts one lookup for the player in the current window; answers null when it may go ahead, or
 * when the window ends (ms epoch) when the player has used it up.
 */
export async function takeGiftLookup(deps: Pick<Deps, "kv" | "now">, steamId: string): Promise<number | null> {
  const now = deps.now().getTime();
  const window = Math.floor(now / GIFT_LOOKUP_WINDOW_MS);
  const key = `gift-lookups:${steamId}:${window}`;
  const used = Number(await deps.kv.get(key)) || 0;
  if (used >= GIFT_LOOKUPS_PER_WINDOW) return (window + 1) * GIFT_LOOKUP_WINDOW_MS;
  await deps.kv.put(key, String(used + 1), { expirationTtlSeconds: GIFT_LOOKUP_WINDOW_MS / 1000 });
  return null;
}
