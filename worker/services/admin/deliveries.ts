import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { DeliveryFilter } from "#core/admin/filters.ts";
import { formatDate } from "#core/format/dates.ts";
import { DELIVERY_TEXT, DELIVERY_WAIT_TEXT } from "#core/messages/admin.ts";
import { deliveries, inventoryEntries, items, servers, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";
import { parseCommands } from "../game/deliveries.ts";
import { ringDoorbell } from "../game/doorbell.ts";
import { readProgress } from "../game/progress.ts";
import { deliveryKind } from "../game/revoke-targets.ts";
import { auditStatement } from "./audit.ts";
import { type AdminResult, reasonSchema } from "./balance.ts";
import { type PlanServer, type RetryPlan, retryPlan, serverAlive } from "./delivery-plan.ts";
import type { Operator } from "./roles.ts";

/** A pending delivery older than this has not reached the game and is shown as stuck. */
export const STUCK_AFTER_MS = 30 * 60_000;
/** A delivery a server acknowledged after its hand-off (decision 104) stays among the problems this long. */
export const REFUSED_ACK_SHOWN_MS = 7 * 24 * 60 * 60_000;

export const deliveryActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry"), deliveryId: z.string().uuid(DELIVERY_TEXT.notFound) }),
  z.object({ intent: z.literal("skip-resync"), serverId: z.coerce.number().int().positive(DELIVERY_TEXT.notFound) }),
  z.object({ intent: z.literal("cancel"), deliveryId: z.string().uuid(DELIVERY_TEXT.notFound), reason: reasonSchema }),
]);

const PLAN_SELECT = {
  id: deliveries.id,
  kind: deliveryKind,
  // A split grant's twin revoke runs on this server (decision 132).
  revokeServerId: deliveries.revokeServerId,
  status: deliveries.status,
  serverType: deliveries.serverType,
  attempts: deliveries.attempts,
  lastError: deliveries.lastError,
  notBefore: deliveries.notBefore,
  leaseUntil: deliveries.leaseUntil,
  leasedServerId: deliveries.leasedServerId,
  homeServerId: deliveries.homeServerId,
  savingSince: deliveries.savingSince,
  commands: deliveries.commands,
  progress: deliveries.progress,
  leaseSeq: deliveries.leaseSeq,
  retries: deliveries.retries,
  createdAt: deliveries.createdAt,
  doneAt: deliveries.doneAt,
  // Another server acknowledged it after the hand-off: it may have been given twice.
  ackRefusedAt: deliveries.ackRefusedAt,
  ackRefusedServerId: deliveries.ackRefusedServerId,
  steamId: deliveries.steamId,
  nickname: users.nickname,
  itemId: items.id,
  itemName: items.name,
  durationDays: inventoryEntries.durationDays,
  usedServerId: inventoryEntries.usedServerId,
  entryId: inventoryEntries.id,
};

const formatMoment = (ms: number | null) => (ms == null ? "—" : formatDate(ms));

type PlanRow = Awaited<ReturnType<typeof selectDeliveries>>[number];

function selectDeliveries(deps: Pick<Deps, "db">, where: SQL | undefined, limit: number) {
  return deps.db.orm
    .select(PLAN_SELECT)
    .from(deliveries)
    .innerJoin(inventoryEntries, eq(inventoryEntries.id, deliveries.inventoryEntryId))
    .innerJoin(items, eq(items.id, inventoryEntries.itemId))
    .innerJoin(users, eq(users.id, inventoryEntries.userId))
    .where(where)
    .orderBy(desc(deliveries.createdAt))
    .limit(limit);
}

/** The servers, their last heartbeats and the items' commands a page of deliveries needs for its plans. */
async function planContext(deps: Pick<Deps, "db">, rows: PlanRow[]) {
  const itemIds = [...new Set(rows.map((row) => row.itemId))];
  const [serverRows, commandRows, grantRows] = await deps.db.batch([
    statement(sql`SELECT s.id, s.name, s.server_type AS serverType, h.received_at AS heartbeatAt, h.doorbell
      FROM servers s LEFT JOIN server_heartbeats h ON h.server_id = s.id`),
    statement(sql`SELECT item_id AS itemId, phase, template FROM item_commands
      WHERE item_id IN (SELECT value FROM json_each(${JSON.stringify(itemIds)})) ORDER BY sort_order, id`),
    // Where a refunded grant that never finished left its effects, for its revoke (revokeTarget).
    statement(sql`SELECT inventory_entry_id AS entryId, COALESCE(home_server_id, leased_server_id) AS serverId
      FROM deliveries WHERE kind = 'grant'
        AND inventory_entry_id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((row) => row.entryId))}))`),
  ]);
  const servers = new Map<number, PlanServer>(
    ((serverRows?.rows ?? []) as unknown as PlanServer[]).map((server) => [Number(server.id), server]),
  );
  const templates = new Map<string, string[]>();
  for (const row of (commandRows?.rows ?? []) as { itemId: number; phase: string; template: string }[]) {
    const key = `${row.itemId}:${row.phase}`;
    templates.set(key, [...(templates.get(key) ?? []), row.template]);
  }
  const grantServer = new Map(
    ((grantRows?.rows ?? []) as { entryId: number; serverId: number | null }[]).map((row) => [
      row.entryId,
      row.serverId,
    ]),
  );
  return { servers, templates, grantServer };
}

function planFor(row: PlanRow, context: Awaited<ReturnType<typeof planContext>>, now: number): RetryPlan {
  return retryPlan(
    {
      kind: row.kind,
      serverType: row.serverType,
      steamId: row.steamId,
      nickname: row.nickname,
      durationDays: row.durationDays,
      commands: row.commands,
      progress: row.progress,
      templates: context.templates.get(`${row.itemId}:${row.kind}`) ?? [],
      homeServerId: row.homeServerId,
      leasedServerId: row.leasedServerId,
      leaseUntil: row.leaseUntil,
      revokeServerId:
        row.kind === "revoke"
          ? (row.revokeServerId ?? row.usedServerId ?? context.grantServer.get(row.entryId) ?? null)
          : null,
    },
    context.servers,
    now,
    formatMoment,
  );
}

/** Why a pending delivery is not moving, in the operator's words; null when nothing holds it. */
function waitReason(row: PlanRow, context: Awaited<ReturnType<typeof planContext>>, now: number): string | null {
  if (row.status !== "pending") return null;
  if (row.savingSince !== null && row.homeServerId !== null) {
    return DELIVERY_WAIT_TEXT.saving(row.homeServerId, formatMoment(row.savingSince));
  }
  if (row.leaseUntil !== null && row.leaseUntil <= now && row.leasedServerId !== null) {
    const holder = context.servers.get(row.leasedServerId);
    if (!serverAlive(holder, row.serverType, now)) {
      return DELIVERY_WAIT_TEXT.holderSilent(row.leasedServerId, formatMoment(holder?.heartbeatAt ?? null));
    }
  }
  return null;
}

export async function listDeliveries(
  deps: Pick<Deps, "db" | "now">,
  filter: { status: DeliveryFilter; serverType: string | null },
) {
  const now = deps.now().getTime();
  const stuck = and(eq(deliveries.status, "pending"), lt(deliveries.createdAt, now - STUCK_AFTER_MS));
  const byStatus: Record<DeliveryFilter, SQL | undefined> = {
    problems: sql`(${deliveries.status} = 'failed' OR (${stuck}) OR ${deliveries.ackRefusedAt} > ${now - REFUSED_ACK_SHOWN_MS})`,
    failed: eq(deliveries.status, "failed"),
    stuck,
    pending: eq(deliveries.status, "pending"),
    done: eq(deliveries.status, "done"),
    cancelled: eq(deliveries.status, "cancelled"),
  };
  const rows = await selectDeliveries(
    deps,
    and(byStatus[filter.status], filter.serverType ? eq(deliveries.serverType, filter.serverType) : undefined),
    200,
  );
  if (rows.length === 0) return [];
  const context = await planContext(deps, rows);
  return rows.map((row) => {
    const commands = parseCommands(row.commands);
    const progress = commands ? readProgress(row.progress, commands.length) : [];
    return {
      ...row,
      // What each command did, and where (decision 124); empty until its first lease fixed them.
      commandProgress: (commands ?? []).map((command, index) => ({
        number: index + 1,
        command,
        state: progress[index]?.state ?? "pending",
        serverId: progress[index]?.server ?? null,
        at: progress[index]?.at ?? null,
      })),
      waitReason: waitReason(row, context, now),
      // What «Повторить» would run and where, shown beside the button.
      retryPlan: retryable(row, now) ? planFor(row, context, now).text : null,
    };
  });
}

function retryable(
  row: { status: string; leaseUntil: number | null; savingSince: number | null },
  now: number,
): boolean {
  if (row.savingSince !== null) return false;
  return row.status === "failed" || (row.status === "pending" && (row.leaseUntil === null || row.leaseUntil <= now));
}

/**
 * Sends a failed or stuck delivery again (decision 124): attempts start over and it is due now.
 * The commands already saved stay and never run again; the rest are the item's commands as they
 * are now; a command a crash left uncertain runs once more (the operator decided). A lease whose
 * server went silent is freed, so another server of the type may take it; a live one keeps it.
 * The id stays the same, so a plugin that already ran it only reports it. A grant of a refunded
 * entry is never sent again.
 */
export async function retryDelivery(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  operator: Operator,
  deliveryId: string,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const [row] = await selectDeliveries(deps, eq(deliveries.id, deliveryId), 1);
  if (!row) return { ok: false, status: 404, error: DELIVERY_TEXT.notFound };
  if (row.savingSince !== null) return { ok: false, status: 409, error: DELIVERY_TEXT.savingNotRetryable };
  const plan = planFor(row, await planContext(deps, [row]), now);
  const freeLease = row.leaseUntil !== null && plan.boundServerId === null;
  // The row is as the plan read it, still retryable, and not a refunded grant.
  const guard = sql`EXISTS (SELECT 1 FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
    WHERE d.id = ${deliveryId} AND d.lease_seq = ${row.leaseSeq} AND d.saving_since IS NULL
      AND (d.status = 'failed' OR (d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= ${now})))
      AND NOT (d.kind = 'grant' AND e.status = 'refunded'))`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "delivery.retry",
        targetType: "delivery",
        targetId: deliveryId,
        before: sql`(SELECT json_object('status', status, 'attempts', attempts, 'last_error', last_error, 'commands', commands) FROM deliveries WHERE id = ${deliveryId})`,
        after: { status: "pending", attempts: 0, plan: plan.text },
        now,
      },
      guard,
    ),
    statement(sql`UPDATE inventory_entries SET last_error = NULL
      WHERE id = (SELECT inventory_entry_id FROM deliveries WHERE id = ${deliveryId} AND kind = 'grant') AND ${guard}`),
    statement(sql`UPDATE deliveries SET status = 'pending', attempts = 0, not_before = ${now}, last_error = NULL,
        retries = retries + 1,
        commands = ${plan.commands === null ? null : JSON.stringify(plan.commands)},
        progress = ${plan.progress === null ? null : JSON.stringify(plan.progress)},
        lease_until = ${freeLease ? null : sql`lease_until`},
        leased_server_id = ${freeLease ? null : sql`leased_server_id`}
      WHERE id = ${deliveryId} AND ${guard}`),
  ]);
  if (audit?.changes === 1) {
    // Due now, on any server of its type when its lease was freed: they poll now rather than at their timer.
    ringDoorbell(deps, [row.serverType]);
    return { ok: true };
  }
  return { ok: false, status: 409, error: DELIVERY_TEXT.notRetryable };
}

/** Gives up on a delivery that is not done and not out with a plugin right now; the reason is kept on it. */
export async function cancelDelivery(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  deliveryId: string,
  reason: string,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const guard = sql`EXISTS (SELECT 1 FROM deliveries WHERE id = ${deliveryId} AND saving_since IS NULL
    AND (status = 'failed' OR (status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now}))))`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "delivery.cancel",
        targetType: "delivery",
        targetId: deliveryId,
        before: sql`(SELECT json_object('status', status, 'attempts', attempts) FROM deliveries WHERE id = ${deliveryId})`,
        after: { status: "cancelled" },
        reason,
        now,
      },
      guard,
    ),
    statement(sql`UPDATE deliveries SET status = 'cancelled', last_error = ${`Отменено: ${reason}`}, lease_until = NULL
      WHERE id = ${deliveryId} AND ${guard}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return (await exists(deps, deliveryId))
    ? { ok: false, status: 409, error: DELIVERY_TEXT.notCancellable }
    : { ok: false, status: 404, error: DELIVERY_TEXT.notFound };
}

async function exists(deps: Pick<Deps, "db">, deliveryId: string): Promise<boolean> {
  const [row] = await deps.db.orm.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.id, deliveryId));
  return Boolean(row);
}

/** Servers the site waits for after a restore from a backup (decision 124), with their type. */
export async function serversAwaitingResync(deps: Pick<Deps, "db">) {
  return deps.db.orm
    .select({ id: servers.id, name: servers.name, serverType: servers.serverType })
    .from(servers)
    .where(eq(servers.needsResync, true))
    .orderBy(servers.id);
}

/**
 * The operator stops waiting for a server's re-sync (it is gone for good): deliveries of its type
 * move again. What it delivered after the backup is then unknown to the site, so some may run twice.
 */
export async function skipResync(
  deps: Pick<Deps, "db" | "now">,
  operator: Operator,
  serverId: number,
): Promise<AdminResult> {
  const now = deps.now().getTime();
  const guard = sql`EXISTS (SELECT 1 FROM servers WHERE id = ${serverId} AND needs_resync = 1)`;
  const [audit] = await deps.db.batch([
    auditStatement(
      {
        operator,
        action: "server.skip_resync",
        targetType: "server",
        targetId: serverId,
        before: { needsResync: true },
        after: { needsResync: false },
        now,
      },
      guard,
    ),
    statement(sql`UPDATE servers SET needs_resync = 0 WHERE id = ${serverId} AND ${guard}`),
  ]);
  if (audit?.changes === 1) return { ok: true };
  return { ok: false, status: 409, error: DELIVERY_TEXT.notAwaited };
}
