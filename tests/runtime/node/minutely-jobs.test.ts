// Several Node instances share one database and each schedules the minutely jobs; the lease row
// must let exactly one of them run each minute. Two libSQL clients on the test's database file are
// two instances as far as the database can tell.
import { afterAll, describe, expect, it } from "vitest";
import { libsqlPorts, openLibsql } from "#worker/adapters/libsql.ts";
import { LEASE_MS, runLeased } from "#worker/cron/lease.ts";
import { buildDeps, type Deps } from "#worker/deps.ts";
import { scheduleMinutelyJobs } from "#worker/node/schedule.ts";
import { client, databaseUrl } from "./database.ts";
import { testSettings } from "./settings.ts";

const second = await openLibsql({ url: databaseUrl });
afterAll(() => second.close());

const instances = [client, second].map((connection, index) => ({
  name: `instance-${index + 1}`,
  deps: (now: number): Deps =>
    buildDeps({ ...libsqlPorts(connection), settings: testSettings }, { now: () => new Date(now) }),
}));

describe("the minutely jobs on two instances over one database", () => {
  it("run once a minute, on one instance, when both schedules fire at the same moment", async () => {
    const runs: string[] = [];
    const schedules = instances.map((instance) =>
      scheduleMinutelyJobs(() => instance.deps(Date.now()), {
        holder: instance.name,
        jobs: async () => {
          runs.push(instance.name);
        },
      }),
    );
    for (const schedule of schedules) schedule.trigger();
    await Promise.all(schedules.map((schedule) => schedule.stop()));
    expect(runs).toHaveLength(1);
  });

  it("over ten minutes of ticks on both, run ten times in all, never twice in a minute", async () => {
    const start = Date.parse("2030-01-01T00:00:00Z");
    const runs: { minute: number; by: string }[] = [];
    for (let minute = 0; minute < 10; minute++) {
      // The two hosts' clocks are a few seconds apart.
      await Promise.all(
        instances.map((instance, index) => {
          const now = start + minute * 60_000 + index * 3_000;
          return runLeased(
            instance.deps(now).db,
            instance.name,
            () => now,
            async () => {
              runs.push({ minute, by: instance.name });
            },
          );
        }),
      );
    }
    expect(runs.map((run) => run.minute)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("wait for a run still in progress, and take over from an instance that died mid-run after the lease", async () => {
    const start = Date.parse("2031-01-01T00:00:00Z");
    const [first, other] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const ran: string[] = [];
    // The first instance takes a minute and dies without finishing.
    let died = false;
    await runLeased(
      first.deps(start).db,
      first.name,
      () => start,
      async () => {
        died = true;
        throw new Error("killed");
      },
    ).catch(() => {});
    expect(died).toBe(true);
    // A crash that skipped the release is modelled by taking the lease back without one.
    await first
      .deps(start)
      .db.run({ sql: "UPDATE job_leases SET held_until = ? WHERE name = 'minutely'", params: [start + LEASE_MS] });
    const tick = (at: number) =>
      runLeased(
        other.deps(at).db,
        other.name,
        () => at,
        async () => {
          ran.push(new Date(at).toISOString());
        },
      );
    expect(await tick(start + 60_000)).toBe(false);
    expect(await tick(start + LEASE_MS + 60_000)).toBe(true);
    expect(ran).toHaveLength(1);
  });
});
