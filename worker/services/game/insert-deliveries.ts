// Queues deliveries with decision 124's ids, idempotently: the grants a poll finds new, the revokes an
// acknowledgement, the daily backstop or a wipe (wipe-ends.ts) owes.
import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import { deliveryIdFor } from "./delivery-id.ts";

export interface NewDelivery {
  entryId: number;
  entryCreatedAt: number;
  serverType: string;
  steamId: string;
  requiresOnline: number;
  notBefore: number;
}

/** Deliveries of `kind` for entries that lack one (UNIQUE(entry, kind)), with decision 124's ids; `also` rides in the batch. */
export async function insertDeliveries(
  deps: Pick<Deps, "db" | "now">,
  kind: "grant" | "revoke",
  rows: NewDelivery[],
  also: Statement[] = [],
): Promise<number> {
  if (rows.length === 0 && also.length === 0) return 0;
  const now = deps.now().getTime();
  const statements = await Promise.all(
    rows.map(async (row) =>
      statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
         VALUES (${await deliveryIdFor(kind, row.entryId, row.entryCreatedAt)}, ${row.entryId}, ${kind}, ${row.serverType},
           ${row.steamId}, ${row.requiresOnline}, 'pending', 0, ${row.notBefore}, ${now})
         ON CONFLICT DO NOTHING`),
    ),
  );
  const results = await deps.db.batch([...statements, ...also]);
  return results.slice(0, statements.length).reduce((sum, result) => sum + result.changes, 0);
}
