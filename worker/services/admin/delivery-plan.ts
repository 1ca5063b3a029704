// What an operator's «Повторить» will do to a delivery (decision 124), computed the same way for
// the console's text and for the retry itself: the commands already saved stay (never run again),
// the rest come from the item's commands as they are now (a fixed template is used), and a
// command a crash left uncertain runs again, since the operator decided.
import { RETRY_PLAN_TEXT } from "#core/messages/admin.ts";
import { parseCommands, renderTemplates } from "../game/deliveries.ts";
import { heartbeatAlive } from "../game/liveness.ts";
import { type CommandProgress, commandIndices, readProgress } from "../game/progress.ts";

export interface PlanServer {
  id: number;
  name: string;
  serverType: string;
  /** Its plugin's last heartbeat (ms), null when none. */
  heartbeatAt: number | null;
  /** Whether that heartbeat said its doorbell was connected (1, 0; null: no doorbell or no heartbeat). */
  doorbell: number | null;
}

export interface PlanInput {
  kind: "grant" | "revoke";
  serverType: string;
  steamId: string;
  nickname: string;
  durationDays: number | null;
  commands: string | null;
  progress: string | null;
  /** The item's commands of this delivery's phase as they are now. */
  templates: readonly string[];
  homeServerId: number | null;
  leasedServerId: number | null;
  leaseUntil: number | null;
  /** Where a revoke must run (the server holding the rank). */
  revokeServerId: number | null;
}

export interface RetryPlan {
  /** The commands after the retry; null: fixed again at the next lease from the item's commands. */
  commands: string[] | null;
  progress: CommandProgress[] | null;
  /** 1-based numbers and texts of the commands it will run, the uncertain ones marked. */
  runs: { number: number; command: string; again: boolean }[];
  /** 1-based numbers of the commands already saved. */
  kept: number[];
  /** The server it stays bound to after the retry (null: any server of the type). */
  boundServerId: number | null;
  /** The plan in the operator's words. */
  text: string;
}

/** Whether a server is alive for delivery (liveness.ts) and still of the type. */
export function serverAlive(server: PlanServer | undefined, serverType: string, now: number): boolean {
  return (
    server !== undefined &&
    server.serverType === serverType &&
    heartbeatAlive({ receivedAt: server.heartbeatAt, doorbell: server.doorbell }, now)
  );
}

export function retryPlan(
  input: PlanInput,
  servers: ReadonlyMap<number, PlanServer>,
  now: number,
  formatMoment: (ms: number | null) => string,
): RetryPlan {
  const old = parseCommands(input.commands);
  const oldProgress = old ? readProgress(input.progress, old.length) : [];
  const saved = commandIndices(oldProgress, "saved");
  const uncertainTexts = old ? commandIndices(oldProgress, "uncertain").map((index) => old[index] ?? "") : [];

  // The unreported lease of a live server keeps binding the delivery; a silent holder's is freed.
  const holder = input.leaseUntil !== null ? input.leasedServerId : null;
  const holderAlive = holder !== null && serverAlive(servers.get(holder), input.serverType, now);
  const home = input.homeServerId;
  const boundServerId = holderAlive ? holder : home;

  let commands: string[] | null;
  let progress: CommandProgress[] | null;
  if (old === null || saved.length === 0) {
    // Nothing took effect: it starts over, fixed again at the next lease.
    commands = null;
    progress = null;
  } else {
    const homeServer = home === null ? undefined : servers.get(home);
    const current = renderTemplates(
      input.templates,
      { steam_id: input.steamId, nickname: input.nickname, duration_days: input.durationDays },
      homeServer?.name ?? "",
    );
    const keep = saved.map((index) => old[index] ?? "");
    const rest = [...current];
    for (const text of keep) {
      const at = rest.indexOf(text);
      if (at >= 0) rest.splice(at, 1);
    }
    // No commands of this phase on the item any more: what was not run stays as it was.
    const tail = input.templates.length > 0 ? rest : old.filter((_, index) => !saved.includes(index));
    commands = [...keep, ...tail];
    progress = commands.map((_, index) =>
      index < keep.length
        ? (oldProgress[saved[index] ?? 0] as CommandProgress)
        : { state: "pending", server: null, at: null },
    );
  }

  const list =
    commands ??
    renderTemplates(
      input.templates,
      { steam_id: input.steamId, nickname: input.nickname, duration_days: input.durationDays },
      servers.get(boundServerId ?? -1)?.name ?? "{server}",
    );
  const keptCount = commands === null ? 0 : saved.length;
  const remaining = [...uncertainTexts];
  const runs = list.slice(keptCount).map((command, offset) => {
    const at = remaining.indexOf(command);
    if (at >= 0) remaining.splice(at, 1);
    return { number: keptCount + offset + 1, command, again: at >= 0 };
  });
  const kept = Array.from({ length: keptCount }, (_, index) => index + 1);

  let where: string;
  if (input.kind === "revoke" && input.revokeServerId !== null) {
    where = RETRY_PLAN_TEXT.revokeOn(input.revokeServerId, servers.get(input.revokeServerId)?.name ?? "");
  } else if (boundServerId !== null && serverAlive(servers.get(boundServerId), input.serverType, now)) {
    where = RETRY_PLAN_TEXT.onServer(boundServerId, servers.get(boundServerId)?.name ?? "");
  } else {
    const silent = holder ?? home;
    where = RETRY_PLAN_TEXT.onAnyServer(input.serverType);
    if (silent !== null) {
      where += ` (${RETRY_PLAN_TEXT.serverSilent(silent, formatMoment(servers.get(silent)?.heartbeatAt ?? null))})`;
    }
  }
  const parts = [
    runs.length === 0
      ? RETRY_PLAN_TEXT.runsNothing
      : RETRY_PLAN_TEXT.runs(
          runs
            .map((run) => `${run.number}. ${run.command}${run.again ? ` (${RETRY_PLAN_TEXT.again})` : ""}`)
            .join("; "),
        ),
  ];
  if (runs.length > 0) parts.push(where);
  if (kept.length > 0) parts.push(RETRY_PLAN_TEXT.kept(kept.join(", ")));
  return {
    commands,
    progress,
    runs,
    kept,
    boundServerId: holderAlive ? holder : null,
    text: `${parts.join(" — ")}.`,
  };
}
