import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import {
  LEASE_MS,
  MAX_DELIVERIES_PER_POLL,
  parseCommands,
  renderTemplates,
  SERVED_ORDER,
  type ServedDelivery,
} from "./delivery-rules.ts";
import { candidates, leasable, noUnackedGrantOfRank, releaseSkipped, type Skipped } from "./lease-rule.ts";
import { commandIndices, readProgress } from "./progress.ts";
import { newEntriesOf, queueNewGrants } from "./queue-deliveries.ts";
import { kindOf } from "./revoke-targets.ts";
import type { GameServer } from "./signature.ts";
import { supersedeCoveredRevokes } from "./upkeep.ts";

/**
 * Leases the deliveries due on this server's type whose player is online (or that may run
 * offline) and returns them with their commands, fixed at the first lease. One UPDATE … RETURNING,
 * so two servers polling at once can't both take the same row. A delivery goes to its home, or
 * to the holder of a lease never reported, while that server lives (decision 124); deliveries the
 * plugin reports it did not start (`skipped`) are released first. The new entries' grants are queued
 * first (`newEntries`: read from deliveries_waiting when the caller hasn't). Reads only pending
 * deliveries of `online` players and due ones that need nobody online (decision 126).
 */
export async function leaseDeliveries(
  deps: Deps,
  server: GameServer,
  online: string[],
  skipped: Skipped[] = [],
  checked?: { waiting: readonly string[]; newEntries: readonly number[] },
): Promise<ServedDelivery[]> {
  const owners = await queueNewGrants(
    deps,
    server.serverType,
    checked?.newEntries ?? (await newEntriesOf(deps, server.serverType)),
  );
  // The poll's check said which online players have a delivery waiting; the grants just queued add theirs.
  const players = checked
    ? [...new Set([...checked.waiting, ...online.filter((steamId) => owners.includes(steamId))])]
    : online;
  const now = deps.now().getTime();
  const onlineJson = JSON.stringify(players);
  const written = await deps.db.batch([
    ...releaseSkipped(server, skipped),
    supersedeCoveredRevokes(now, server.id),
    statement(sql`UPDATE deliveries SET lease_until = ${now} + ${LEASE_MS}, leased_server_id = ${server.id}, lease_seq = lease_seq + 1
       WHERE id IN (
         SELECT d.id FROM (${candidates(server, onlineJson, now)}) AS candidate
           CROSS JOIN deliveries d ON d.id = candidate.id
           JOIN inventory_entries e ON e.id = d.inventory_entry_id
         -- The candidates are online or need nobody: their player is not asked about again.
         WHERE ${leasable(server, now)}
           AND ${noUnackedGrantOfRank(server)}
         ORDER BY ${SERVED_ORDER}
         LIMIT ${MAX_DELIVERIES_PER_POLL})
       RETURNING id`),
  ]);
  const leased = written.at(-1);
  const ids = ((leased?.rows ?? []) as { id: string }[]).map((row) => row.id);
  if (ids.length === 0) return [];

  return servedDeliveries(deps, server, ids);
}

/**
 * Whether this server must first send again what it acknowledged since `resync_from` (decision 124):
 * the site was restored from a backup (`npm run db:restore` marked every server), or the plugin has
 * seen a higher acknowledgement counter than the site now has. Answers the counter to send from, or
 * null; a plugin that says it has sent everything is done.
 */
export async function resyncFrom(
  deps: Deps,
  server: GameServer,
  pluginSeq: number | undefined,
  resynced: boolean,
): Promise<number | null> {
  const current = server.ackSeq ?? 0;
  if (server.needsResync && resynced) {
    await deps.db.run(statement(sql`UPDATE servers SET needs_resync = 0 WHERE id = ${server.id}`));
    return null;
  }
  if (!server.needsResync && !(pluginSeq !== undefined && pluginSeq > current)) return null;
  if (!server.needsResync) {
    await deps.db.run(statement(sql`UPDATE servers SET needs_resync = 1 WHERE id = ${server.id}`));
    console.error(
      JSON.stringify({
        event: "site_behind_plugin",
        server: server.id,
        site_ack_seq: current,
        plugin_ack_seq: pluginSeq,
        message: "the plugin has seen later acknowledgements than the database holds: restored from a backup?",
      }),
    );
  }
  return current;
}

/** The leased deliveries with their commands; the first lease renders and fixes them (decision 124). */
async function servedDeliveries(deps: Deps, server: GameServer, ids: string[]): Promise<ServedDelivery[]> {
  const idsJson = JSON.stringify(ids);
  const [details, templates] = await deps.db.batch([
    statement(sql`SELECT d.id, ${kindOf("d")} AS kind, d.steam_id, d.requires_online, d.commands, d.progress, d.lease_seq, d.retries,
           e.item_id, e.duration_days, e.is_permanent, u.nickname, i.name AS title
         FROM deliveries d
         JOIN inventory_entries e ON e.id = d.inventory_entry_id
         JOIN users u ON u.id = e.user_id
         JOIN items i ON i.id = e.item_id
         WHERE d.id IN (SELECT value FROM json_each(${idsJson}))
         ORDER BY ${SERVED_ORDER}`),
    statement(sql`SELECT c.item_id, c.phase, c.template FROM item_commands c
         WHERE c.item_id IN (SELECT e.item_id FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
                             WHERE d.id IN (SELECT value FROM json_each(${idsJson})) AND d.commands IS NULL)
         ORDER BY c.sort_order, c.id`),
  ]);

  const byItem = new Map<string, string[]>();
  for (const row of (templates?.rows ?? []) as { item_id: number; phase: string; template: string }[]) {
    const key = `${row.item_id}:${row.phase}`;
    byItem.set(key, [...(byItem.get(key) ?? []), row.template]);
  }
  const fix: Statement[] = [];
  const served = (
    (details?.rows ?? []) as {
      id: string;
      kind: "grant" | "revoke";
      steam_id: string;
      requires_online: number;
      commands: string | null;
      progress: string | null;
      lease_seq: number;
      retries: number;
      item_id: number;
      duration_days: number | null;
      is_permanent: number;
      nickname: string;
      title: string;
    }[]
  ).map((row) => {
    let commands = parseCommands(row.commands);
    if (commands === null) {
      // The first lease fixes what this delivery runs (decision 124).
      commands = renderTemplates(byItem.get(`${row.item_id}:${row.kind}`) ?? [], row, server.name);
      fix.push(
        statement(
          sql`UPDATE deliveries SET commands = ${JSON.stringify(commands)} WHERE id = ${row.id} AND commands IS NULL`,
        ),
      );
    }
    return {
      delivery_id: row.id,
      kind: row.kind,
      steam_id: row.steam_id,
      requires_online: row.requires_online === 1,
      title: row.title,
      // «До вайпа» has no count of days for the chat to show (decision 130).
      duration_days: row.is_permanent || row.duration_days === 0 ? null : row.duration_days,
      commands,
      done: commandIndices(readProgress(row.progress, commands.length), "saved"),
      lease: row.lease_seq,
      retry: row.retries,
    } satisfies ServedDelivery;
  });
  if (fix.length > 0) await deps.db.batch(fix);
  return served;
}
