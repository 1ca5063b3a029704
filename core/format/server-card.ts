import { SERVER_CARD_TEXT } from "../messages/server-status.ts";

// What a server card shows of the plugin's heartbeat: the map and the last wipe.

const DAY_MS = 24 * 60 * 60 * 1000;

/** «Procedural Map · 4500»; the name or the size alone when only one is known; null when neither is. */
export function formatMap(map: { name: string | null; size: number | null } | null | undefined): string | null {
  if (!map) return null;
  const parts = [map.name?.trim() || null, map.size == null ? null : String(map.size)].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

const relative = new Intl.RelativeTimeFormat("ru", { numeric: "always" });

/** «вайп сегодня» under a day ago, otherwise «вайп 2 дня назад» (whole days); null when unknown. */
export function formatWipe(wipedAt: number | null | undefined, now: number): string | null {
  if (wipedAt == null) return null;
  const days = Math.floor((now - wipedAt) / DAY_MS);
  if (days < 1) return SERVER_CARD_TEXT.wipeToday;
  return SERVER_CARD_TEXT.wipe(relative.format(-days, "day"));
}

/** Steam's own link: opens the game and joins the server (works without JavaScript). */
export function steamConnectUrl(ipPort: string): string {
  return `steam://connect/${ipPort}`;
}
