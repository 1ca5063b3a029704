// What a server card shows, derived from the API's server_type and status.

export interface ServerView {
  name: string;
  server_type: string;
  status: string;
  players: { current: number; max: number };
  ip_port: string;
}

const ICONS: Record<string, string> = {
  SOLO: "/images/server-solo.svg",
  VANILLA: "/images/server-vanilla.svg",
  MAX2: "/images/server-max2.svg",
  MAX3: "/images/server-max3.svg",
  NO_LIMIT: "/images/server-no-limit.svg",
};

/** The card icon; unknown types use the VANILLA icon. */
export function serverIcon(serverType: string): string {
  return ICONS[serverType] ?? "/images/server-vanilla.svg";
}

export function isOnline(status: string): boolean {
  return status === "online";
}

/**
 * The servers array of a `GET /api/server-status` answer. Anything that is not
 * an array of well-formed servers counts as "no servers" (an empty list).
 */
export function parseServerStatus(body: unknown): ServerView[] {
  const list = (body as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (server): server is ServerView =>
      typeof server === "object" &&
      server !== null &&
      typeof server.name === "string" &&
      typeof server.server_type === "string" &&
      typeof server.status === "string" &&
      typeof server.ip_port === "string" &&
      typeof server.players?.current === "number" &&
      typeof server.players?.max === "number",
  );
}
