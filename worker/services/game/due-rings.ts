import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { read, statement } from "../../ports/database.ts";
import { ringDoorbell } from "./doorbell.ts";

// What became due with time rather than with a write, found by the minutely job so the doorbell
// (decision 146) rings for it too: a revoke whose rank ended, and grants a fair-play window held back
// (decision 129) once it closes. Both read only what changed in the minute: revokes through
// deliveries_pending_revoke by not_before, windows by their end. A minute the job missed is left to
// the plugins' safety poll.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

type TypeRow = { serverType: string };

/** Rings the types with a revoke come due or a fair-play window closed in the minute up to `now`; `queued`: the job queued deliveries, ring every type. */
export async function ringWhatBecameDue(
  deps: Pick<Deps, "db" | "waitUntil" | "doorbell">,
  now: number,
  queued: boolean,
) {
  const since = now - MINUTE_MS;
  const revokes =
    statement(sql`SELECT DISTINCT server_type AS serverType FROM deliveries INDEXED BY deliveries_pending_revoke
    WHERE status = 'pending' AND kind = 'revoke' AND not_before > ${since} AND not_before <= ${now}`);
  const windows = statement(sql`SELECT DISTINCT fs.server_type AS serverType
    FROM fair_play_windows fw JOIN servers fs ON fs.server_type = fw.server_type
    WHERE fs.last_wipe_at + fw.hours * ${HOUR_MS} > ${since} AND fs.last_wipe_at + fw.hours * ${HOUR_MS} <= ${now}`);
  const everyType = statement(sql`SELECT DISTINCT server_type AS serverType FROM servers`);
  const reads = [read<TypeRow>(revokes.sql, revokes.params), read<TypeRow>(windows.sql, windows.params)] as const;
  const found = queued
    ? await deps.db.read([...reads, read<TypeRow>(everyType.sql, everyType.params)] as const)
    : await deps.db.read(reads);
  const types = found.flat().map((row) => row.serverType);
  ringDoorbell(deps, types);
  return new Set(types).size;
}
