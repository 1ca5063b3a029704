// The minutely jobs' lease row (worker/cron/lease.ts) over the runtime's database, with the time
// given: a process killed mid-run must not keep the payment re-checks, the server status, the
// deliveries' upkeep and Discord from every process for minutes (issue 34, decision 121).
import { beforeEach, describe, expect, it } from "vitest";
import { testDeps } from "#tests/support/deps.ts";
import { raw } from "#tests/support/sql.ts";
import {
  type Every,
  LEASE_MS,
  liveLeaseUntil,
  MAX_RUN_MS,
  RENEW_MS,
  renewMinute,
  runLeased,
  takeMinute,
} from "#worker/cron/lease.ts";

const db = () => testDeps().db;
const MINUTE = 60_000;
/** The start of a minute. */
const T0 = Date.parse("2032-03-01T10:00:00Z");

/** Another process's tick at `at`: whether it ran the jobs. */
async function tick(at: number, holder = "other"): Promise<boolean> {
  let ran = false;
  const took = await runLeased(
    db(),
    holder,
    () => at,
    async () => {
      ran = true;
    },
  );
  expect(ran).toBe(took);
  return took;
}

/** A renewal timer the test fires by hand. */
function handTimer() {
  const timer = {
    interval: 0,
    renew: async () => {},
    stopped: false,
    every: ((ms, renew) => {
      timer.interval = ms;
      timer.renew = renew;
      return () => {
        timer.stopped = true;
      };
    }) as Every,
  };
  return timer;
}

beforeEach(async () => {
  await db().run(raw("DELETE FROM job_leases"));
});

describe("the minutely jobs' lease", () => {
  it("left by a process killed mid-run is taken over within a minute of its last renewal", async () => {
    // The dead process took the minute at T0 and never renewed or released it.
    expect(await takeMinute(db(), "killed", T0)).toBe(true);
    expect(await tick(T0 + 1_000)).toBe(false);
    expect(await tick(T0 + MINUTE)).toBe(true);
  });

  it("left by a process killed mid-run lets a process started in the same minute run that minute's jobs", async () => {
    expect(await takeMinute(db(), "killed", T0)).toBe(true);
    // The restarted process finds the dead lease live, and takes the minute once it lapses.
    expect(await tick(T0 + 5_000, "restarted")).toBe(false);
    expect(await liveLeaseUntil(db(), T0 + 5_000)).toBeLessThanOrEqual(T0 + MINUTE - 1_000);
    expect(await tick(T0 + LEASE_MS, "restarted")).toBe(true);
    // Done now: nobody runs that minute again.
    expect(await tick(T0 + LEASE_MS + 1_000)).toBe(false);
    expect(await liveLeaseUntil(db(), T0 + LEASE_MS + 1_000)).toBeNull();
  });

  it("stays with a live holder that renews it, and lapses within LEASE_MS of the last renewal", async () => {
    expect(await takeMinute(db(), "slow", T0)).toBe(true);
    expect(await renewMinute(db(), "slow", T0 + 50_000)).toBe(true);
    // The next minute's tick finds the slow run still going.
    expect(await tick(T0 + MINUTE)).toBe(false);
    // It died after that renewal.
    expect(await tick(T0 + 50_000 + LEASE_MS)).toBe(true);
    expect(LEASE_MS).toBeLessThanOrEqual(MINUTE);
    // The lease is the other's now: the slow run's renewal says so.
    expect(await renewMinute(db(), "slow", T0 + 50_000 + LEASE_MS + 1)).toBe(false);
  });

  it("is renewed by the running holder every RENEW_MS, until MAX_RUN_MS", async () => {
    const timer = handTimer();
    let now = T0;
    const outsider: boolean[] = [];
    const ran = await runLeased(
      db(),
      "runner",
      () => now,
      async () => {
        for (let at = T0 + RENEW_MS; at < T0 + MAX_RUN_MS; at += RENEW_MS) {
          now = at;
          await timer.renew();
          // Three minutes in, the run still holds its minute against another process.
          if (at === T0 + 3 * MINUTE) outsider.push(await tick(at + 1));
        }
        const lastRenewal = now;
        // A run that hangs past MAX_RUN_MS stops renewing, and its lease lapses.
        now = T0 + MAX_RUN_MS;
        await timer.renew();
        outsider.push(await tick(lastRenewal + LEASE_MS - 1));
        outsider.push(await tick(lastRenewal + LEASE_MS));
      },
      timer.every,
    );
    expect(ran).toBe(true);
    expect(timer.interval).toBe(RENEW_MS);
    expect(RENEW_MS).toBeLessThan(LEASE_MS);
    expect(outsider).toEqual([false, false, true]);
    expect(timer.stopped).toBe(true);
  });

  it("once released, runs each minute once, and never while another run goes on", async () => {
    expect(await tick(T0, "first")).toBe(true);
    // A start later in the same minute: the minute's jobs ran; nothing was missed.
    expect(await tick(T0 + 20_000, "started")).toBe(false);
    expect(await liveLeaseUntil(db(), T0 + 20_000)).toBeNull();
    expect(await tick(T0 + MINUTE, "started")).toBe(true);
    expect(await tick(T0 + MINUTE + 1, "first")).toBe(false);
  });
});
