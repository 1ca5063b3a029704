import { buildDeps } from "../deps.ts";
import type { Env } from "../env.ts";
import { refreshServerStatus } from "../services/server-status.ts";

export async function runScheduled(_controller: ScheduledController, env: Env): Promise<void> {
  const deps = buildDeps(env);
  await refreshServerStatus(deps);
}
