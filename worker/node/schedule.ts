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
export function scheduleMinutelyJobs(
  deps: () => Deps,
  options: { holder?: string; jobs?: (deps: Deps) => Promise<void> } = {},
): MinutelyJobs {
  const holder = options.holder ?? `${process.pid}-${randomUUID()}`;
  const jobs = options.jobs ?? ((current: Deps) => runScheduled(MINUTELY, current));
  const inFlight = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const tick = async () => {
    const current = deps();
    try {
      await runLeased(
        current.db,
        holder,
        () => current.now().getTime(),
        () => jobs(current),
      );
    } catch (error) {
      console.error(JSON.stringify({ event: "cron_failed", error: String(error) }));
    }
  };
  const job = new Cron(MINUTELY, { protect: true }, () => {
    const run = tick();
    track(run);
    return run;
  });
  return {
    trigger: () => track(job.trigger()),
    async stop() {
      job.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
