// What a server card shows, derived from the API's server_type and status.

import { parseWipeSchedule, type WipeSchedule } from "#core/wipe/schedule.ts";

export interface ServerView {
  name: string;
  server_type: string;
  status: string;
  players: { current: number; max: number };
  ip_port: string;
  /** From the plugin's heartbeat; absent or null when the plugin didn't say. */
  map?: { name: string | null; size: number | null } | null;
  /** The last wipe, ms. */
  wiped_at?: number | null;
  /** The wipe schedule (decision 128); absent from documents written before it. */
  wipe?: WipeSchedule | null;
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
  return list.filter(isServerView).map((server) => ({
    ...server,
    map: isMap(server.map) ? server.map : null,
    wiped_at: typeof server.wiped_at === "number" ? server.wiped_at : null,
    wipe: parseWipeSchedule(server.wipe),
  }));
}

function isMap(value: unknown): value is { name: string | null; size: number | null } {
  if (typeof value !== "object" || value === null) return false;
  const { name, size } = value as { name?: unknown; size?: unknown };
  return (name === null || typeof name === "string") && (size === null || typeof size === "number");
}

function isServerView(value: unknown): value is ServerView {
  if (typeof value !== "object" || value === null) return false;
  const server = value as Partial<Record<keyof ServerView, unknown>> & {
    players?: { current?: unknown; max?: unknown } | null;
  };
  return (
    typeof server.name === "string" &&
    typeof server.server_type === "string" &&
    typeof server.status === "string" &&
    typeof server.ip_port === "string" &&
    typeof server.players?.current === "number" &&
    typeof server.players?.max === "number"
  );
}
