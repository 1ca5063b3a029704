import { randomUUID } from "node:crypto";
import { Cron } from "croner";
import { runScheduled } from "../cron/index.ts";
import { runLeased } from "../cron/lease.ts";
import type { Deps } from "../deps.ts";

export const MINUTELY = "* * * * *";

export interface MinutelyJobs {
  /** Runs the jobs now (once per minute across instances, like every tick). */
  trigger(): void;
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The Worker's cron on a process: every minute, whichever instance takes the minute's lease row
 * runs the jobs. `protect` keeps a slow run from overlapping the next tick in this process.
 */
export function scheduleMinutelyJobs(deps: () => Deps, holder = `${process.pid}-${randomUUID()}`): MinutelyJobs {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    const current = deps();
    running = runLeased(
      current.db,
      holder,
      () => current.now().getTime(),
      () => runScheduled(MINUTELY, current),
    ).then(
      () => {},
      (error: unknown) => console.error(JSON.stringify({ event: "cron_failed", error: String(error) })),
    );
    return running;
  };
  const job = new Cron(MINUTELY, { protect: true }, tick);
  return {
    trigger: () => void job.trigger(),
    async stop() {
      job.stop();
      await running;
    },
  };
}
