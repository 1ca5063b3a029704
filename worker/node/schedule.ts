import { randomUUID } from "node:crypto";
import { Cron } from "croner";
import { runScheduled } from "../cron/index.ts";
import { type Every, liveLeaseUntil, minuteOf, runLeased } from "../cron/lease.ts";
import type { Deps } from "../deps.ts";

export const MINUTELY = "* * * * *";
/** Tried again this long after another holder's lease lapses, so both clocks agree it has. */
const AFTER_LAPSE_MS = 1_000;

export interface MinutelyJobs {
  /**
   * Runs the jobs now, as every tick does: once per minute across instances. At a start this runs
   * what was missed: the jobs of a new minute, or of this minute if the process that ran them died.
   * Settles when this run (and any wait for another holder's lease) is over.
   */
  trigger(): Promise<void>;
  /** Stops the schedule and waits for a run in progress (a wait for another's lease ends at once). */
  stop(): Promise<void>;
}

export interface ScheduleOptions {
  holder?: string;
  jobs?: (deps: Deps) => Promise<void>;
  /** Waits `ms`, or less when `signal` aborts. Tests pass one that moves their clock. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The lease's renewal timer (lease.ts), for tests. */
  every?: Every;
}

const sleepByTimer = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });

/**
 * The Worker's cron on a process: every minute, whichever instance takes the minute's lease row
 * runs the jobs. `protect` keeps a slow run from overlapping the next tick in this process. A tick
 * that finds another holder's lease live (a run in progress, or a process killed mid-run) tries
 * again as it lapses, within the same minute, so a dead holder's jobs are taken over within
 * LEASE_MS of its last renewal rather than at some later tick (decision 121).
 */
export function scheduleMinutelyJobs(deps: () => Deps, options: ScheduleOptions = {}): MinutelyJobs {
  const holder = options.holder ?? `${process.pid}-${randomUUID()}`;
  const jobs = options.jobs ?? ((current: Deps) => runScheduled(MINUTELY, current));
  const sleep = options.sleep ?? sleepByTimer;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const tick = async () => {
    const current = deps();
    const now = () => current.now().getTime();
    const minute = minuteOf(now());
    try {
      // A live holder renews every RENEW_MS, so a minute holds a handful of tries; the bound is for a clock that stalls.
      for (let tries = 0; tries < 10 && !stopping.signal.aborted; tries++) {
        if (await runLeased(current.db, holder, now, () => jobs(current), options.every)) return;
        const until = await liveLeaseUntil(current.db, now());
        // The minute was run (or taken) by another; or its lease outlives this minute: the next tick tries.
        if (until === null || minuteOf(until + AFTER_LAPSE_MS) !== minute) {
          console.log(JSON.stringify({ event: "cron_minute_run_elsewhere", minute, holder }));
          return;
        }
        await sleep(until + AFTER_LAPSE_MS - now(), stopping.signal);
      }
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
    trigger() {
      const run = job.trigger();
      track(run);
      return run;
    },
    async stop() {
      job.stop();
      stopping.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
