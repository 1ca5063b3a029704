// What a server card shows of the plugin's heartbeat: the map (the wipe is core/wipe/schedule.ts's wipePhrase).

/** «Procedural Map · 4500»; the name or the size alone when only one is known; null when neither is. */
export function formatMap(map: { name: string | null; size: number | null } | null | undefined): string | null {
  if (!map) return null;
  const parts = [map.name?.trim() || null, map.size == null ? null : String(map.size)].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** Steam's own link: opens the game and joins the server (works without JavaScript). */
export function steamConnectUrl(ipPort: string): string {
  return `steam://connect/${ipPort}`;
}
