import { asc, eq } from "drizzle-orm";
import type { ServerAddress } from "#core/shop/types.ts";
import { servers } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { read } from "../../ports/database.ts";

/**
 * The site's servers of one type, in the list's order: where a player goes to receive what they bought
 * for it (the receipt and the Корзина link to each with `steam://connect/ip:port`).
 */
export async function serversOfType(deps: Pick<Deps, "db">, serverType: string): Promise<ServerAddress[]> {
  const rows = await deps.db.orm
    .select({ name: servers.name, ipPort: servers.ipPort })
    .from(servers)
    .where(eq(servers.serverType, serverType))
    .orderBy(asc(servers.sortOrder), asc(servers.id));
  return rows.map((row) => ({ name: row.name, ip_port: row.ipPort }));
}

export interface ServerRow {
  name: string;
  ipPort: string;
  serverType: string;
}

/** Every server, in the list's order: what `serversByType` groups. A fixed read, so it can ride in a session's round trip. */
export const allServersRead = () =>
  read<ServerRow>("SELECT name, ip_port AS ipPort, server_type AS serverType FROM servers ORDER BY sort_order, id");

/** The rows of `allServersRead` of the given types, by type. */
export function groupServersByType(
  rows: readonly ServerRow[],
  serverTypes: readonly string[],
): Record<string, ServerAddress[]> {
  const byType: Record<string, ServerAddress[]> = {};
  for (const row of rows) {
    if (!serverTypes.includes(row.serverType)) continue;
    byType[row.serverType] ??= [];
    byType[row.serverType]?.push({ name: row.name, ip_port: row.ipPort });
  }
  return byType;
}

/** The servers of several types at once (one query), by type. */
export async function serversByType(
  deps: Pick<Deps, "db">,
  serverTypes: readonly string[],
): Promise<Record<string, ServerAddress[]>> {
  if (serverTypes.length === 0) return {};
  const [rows] = await deps.db.read([allServersRead()] as const);
  return groupServersByType(rows, serverTypes);
}
