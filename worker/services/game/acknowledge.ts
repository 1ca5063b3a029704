import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import {
  type DeliveryState,
  deliveredStatements,
  failureStatements,
  interruptedStatements,
  recordProgress,
  splitGrant,
} from "./ack-writes.ts";
import { deliveryIdFor } from "./delivery-id.ts";
import { type AckOutcome, type AckResult, type AckStatus, MAX_ATTEMPTS, parseCommands } from "./delivery-rules.ts";
import {
  allSaved,
  type CommandProgress,
  type CommandState,
  mergeProgress,
  PROGRESS_PATTERN,
  parseProgressLetters,
  readProgress,
} from "./progress.ts";
import { ensureGrantDeliveries, ensureRevokeDeliveries } from "./queue-deliveries.ts";
import { kindOf, type SplitGrant, splitRevokeStatements } from "./revoke-targets.ts";
import type { GameServer } from "./signature.ts";
import { supersedeCoveredRevokes } from "./upkeep.ts";
import { endWipedEntries } from "./wipe-ends.ts";

/** What one result asks for: written below by its named step. */
type Outcome = "done" | "interrupted" | "failure" | "progress";

/** What one delivery's result writes and answers. */
interface Applied {
  status: AckStatus;
  writes: Statement[];
  splits: SplitGrant[];
  /** A grant delivered: the server's covered revokes are superseded and its wipe's entries ended. */
  delivered: boolean;
}

/**
 * Applies the plugin's results. The whole request is refused, with nothing else changed, when it
 * names an unknown delivery (404), one that is not (or no longer) handed to this server (403), or
 * a report that doesn't fit the delivery's commands (400); a 403 marks those deliveries for the
 * console, since this server may have run them after they were handed to another one (decision
 * 104). Repeating an acknowledgement changes nothing. Plugin 3 reports each command's progress
 * (decision 124): the delivery is done once every command is saved.
 */
export async function acknowledgeDeliveries(deps: Deps, server: GameServer, results: AckResult[]): Promise<AckOutcome> {
  const ids = [...new Set(results.map((result) => result.delivery_id))];
  const byId = await readOrCreateStates(deps, server, ids);
  const refused = await refusal(deps, server, results, ids, byId);
  if (refused) return refused;

  const now = deps.now().getTime();
  const statements: Statement[] = claimStatements(server, byId);
  const outcomes: { delivery_id: string; status: AckStatus }[] = [];
  const seen = new Set<string>();
  let coversRanks = false;
  const splits: SplitGrant[] = [];

  for (const result of results) {
    const row = byId.get(result.delivery_id);
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    const applied = await applyResult(row, result, server, now);
    statements.push(...applied.writes);
    splits.push(...applied.splits);
    if (applied.delivered) coversRanks = true;
    outcomes.push({ delivery_id: row.id, status: applied.status });
  }

  // After the entries' own revokes: their twins on the other servers where a split grant took effect.
  statements.push(...(await splitRevokeStatements(splits, now)));
  if (coversRanks) statements.push(supersedeCoveredRevokes(now, server.id));
  // Every accepted acknowledgement moves the server's counter on; a restored site's is behind (decision 124).
  statements.push(statement(sql`UPDATE servers SET ack_seq = ack_seq + 1 WHERE id = ${server.id} RETURNING ack_seq`));
  const written = await deps.db.batch(statements);
  const ackSeq = Number((written.at(-1)?.rows[0] as { ack_seq?: number } | undefined)?.ack_seq ?? 0);
  // A «до вайпа» grant given on the old map and saved by the wipe's shutdown is acknowledged from the
  // new one: its wipe ends it now, not at the next minute's job (decision 130).
  if (coversRanks) await endWipedEntries(deps, server.id);
  return { status: "ok", results: outcomes, ackSeq };
}

/** The named deliveries' states; a site restored from a backup creates the rows it lacks first. */
async function readOrCreateStates(deps: Deps, server: GameServer, ids: string[]): Promise<Map<string, DeliveryState>> {
  const rows = await readDeliveryStates(deps, ids);
  if (rows.size >= ids.length) return rows;
  // A site restored from a backup may not have created the row yet; its id is the entry's (delivery-id.ts).
  await ensureGrantDeliveries(deps, server.serverType);
  await ensureRevokeDeliveries(deps);
  return readDeliveryStates(deps, ids);
}

/** Re-sending after a restore, the server claims what the restored rows don't show leased (decision 124). */
function claimable(server: GameServer, row: DeliveryState): boolean {
  return Boolean(server.needsResync) && row.leased_server_id === null && row.status !== "done";
}

function claimStatements(server: GameServer, byId: Map<string, DeliveryState>): Statement[] {
  const claimed = [...byId.values()].filter((row) => claimable(server, row)).map((row) => row.id);
  if (claimed.length === 0) return [];
  return [
    statement(sql`UPDATE deliveries SET leased_server_id = ${server.id}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(claimed)})) AND leased_server_id IS NULL`),
  ];
}

/** The answer refusing the whole request (404, 403, 400), or null when every result may be applied. */
async function refusal(
  deps: Deps,
  server: GameServer,
  results: AckResult[],
  ids: string[],
  byId: Map<string, DeliveryState>,
): Promise<AckOutcome | null> {
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) return { status: "unknown", ids: unknown };
  const forbidden = ids.filter((id) => {
    const row = byId.get(id);
    if (!row) return true;
    if (claimable(server, row)) return false;
    return row.status === "done" ? row.done_server_id !== server.id : row.leased_server_id !== server.id;
  });
  if (forbidden.length > 0) {
    await markRefusedAcks(deps, server, forbidden);
    return { status: "forbidden", ids: forbidden };
  }
  const invalid = results.filter((result) => {
    const row = byId.get(result.delivery_id);
    return row !== undefined && invalidReport(row, result);
  });
  if (invalid.length > 0) return { status: "invalid", ids: [...new Set(invalid.map((result) => result.delivery_id))] };
  return null;
}

/** One delivery's result: what it writes and answers. */
async function applyResult(row: DeliveryState, result: AckResult, server: GameServer, now: number): Promise<Applied> {
  const reported = result.progress === undefined ? null : parseProgressLetters(result.progress);
  // A restored row may not have its commands yet: the report says how many there are.
  const commands = parseCommands(row.commands) ?? Array.from({ length: reported?.length ?? 0 }, () => "");
  const stale = reported !== null && (result.lease ?? 0) < row.lease_seq;
  const progress =
    reported && !stale ? mergeProgress(readProgress(row.progress, commands.length), reported, server.id, now) : null;
  const splits = progress && row.kind === "grant" ? splitGrant(row, progress) : [];
  const answer = (status: AckStatus, writes: Statement[] = [], delivered = false): Applied => ({
    status,
    writes,
    splits,
    delivered,
  });

  if (row.status !== "pending") {
    // Already done, failed or cancelled: a repeat. What a plugin-3 report says ran is still kept.
    return answer("duplicate", progress && row.status !== "done" ? [recordProgress(row, progress, server, now)] : []);
  }
  // A report from an earlier lease arriving late: this server has reported under a newer one.
  if (stale) return answer("duplicate");

  const outcome = outcomeOf(result, progress, reported);
  const writes = progress ? [recordProgress(row, progress, server, now)] : [];

  if (outcome === "progress") return answer("progress", writes);
  if (outcome === "done") {
    writes.push(
      ...deliveredStatements(row, server, now, await deliveryIdFor("revoke", row.entry_id, row.entry_created_at)),
    );
    return answer("done", writes, row.kind === "grant");
  }
  if (outcome === "interrupted") {
    writes.push(...interruptedStatements(row, server, now));
    console.error(
      JSON.stringify({ event: "delivery_interrupted", delivery: row.id, kind: row.kind, server: server.id }),
    );
    return answer("failed", writes);
  }

  // A failure counts once: per lease from plugin 3, once per report from older plugins.
  const counted = progress ? (result.lease ?? 0) <= row.counted_lease : row.lease_until === null;
  if (counted) return answer("duplicate", writes);
  const message = (result.message ?? "").trim().slice(0, 300) || "без описания";
  const finalFailure = row.attempts + 1 >= MAX_ATTEMPTS;
  writes.push(
    ...failureStatements(row, server, now, {
      message,
      countedLease: progress ? (result.lease ?? 0) : row.lease_seq,
      reportsProgress: progress !== null,
    }),
  );
  if (finalFailure) {
    console.warn(
      JSON.stringify({ event: "delivery_failed", delivery: row.id, kind: row.kind, server: server.id, message }),
    );
  }
  return answer(finalFailure ? "failed" : "retry", writes);
}

/** What a result means: every command saved, one uncertain after a crash, one failed, or still under way. */
function outcomeOf(result: AckResult, progress: CommandProgress[] | null, reported: CommandState[] | null): Outcome {
  if (!progress) return result.ok ? "done" : result.interrupted ? "interrupted" : "failure";
  if (allSaved(progress)) return "done";
  if (progress.some((command) => command.state === "uncertain")) return "interrupted";
  return reported?.includes("failed") ? "failure" : "progress";
}

/** What a plugin-3 report (one letter a command) means, before anything is written. */
function invalidReport(row: DeliveryState, result: AckResult): boolean {
  if (result.progress === undefined) return false;
  if (!PROGRESS_PATTERN.test(result.progress)) return true;
  const commands = parseCommands(row.commands);
  return commands !== null && commands.length !== result.progress.length;
}

async function readDeliveryStates(deps: Deps, ids: string[]): Promise<Map<string, DeliveryState>> {
  const rows = await deps.db.run<DeliveryState>(
    statement(sql`SELECT d.id, ${kindOf("d")} AS kind, d.status, d.attempts, d.lease_until, d.leased_server_id, d.done_server_id,
         d.home_server_id, d.saving_since, d.lease_seq, d.counted_lease, d.commands, d.progress,
         e.id AS entry_id, e.created_at AS entry_created_at
       FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
       WHERE d.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  return new Map(rows.rows.map((row) => [row.id, row]));
}

/** Marks deliveries whose ack came from a server they are no longer handed to, and says so in the log. */
async function markRefusedAcks(deps: Deps, server: GameServer, ids: string[]): Promise<void> {
  const now = deps.now().getTime();
  await deps.db.run(
    statement(sql`UPDATE deliveries SET ack_refused_at = ${now}, ack_refused_server_id = ${server.id}
       WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  console.error(
    JSON.stringify({
      event: "ack_refused_after_handoff",
      server: server.id,
      deliveries: ids,
      message: "a server acknowledged deliveries handed to another server: they may have been given twice",
    }),
  );
}
