// Several Node instances share one database and each schedules the minutely jobs; the lease row
// must let exactly one of them run each minute. Two libSQL clients on the test's database file are
// two instances as far as the database can tell.
import { afterAll, describe, expect, it } from "vitest";
import { libsqlPorts, openLibsql } from "#worker/adapters/libsql.ts";
import { LEASE_MS, runLeased, takeMinute } from "#worker/cron/lease.ts";
import { buildDeps, type Deps } from "#worker/deps.ts";
import { scheduleMinutelyJobs } from "#worker/node/schedule.ts";
import { client, databaseUrl } from "./database.ts";
import { testSettings } from "./settings.ts";

const second = await openLibsql({ url: databaseUrl });
afterAll(() => second.close());

const instances = [client, second].map((connection, index) => ({
  name: `instance-${index + 1}`,
  deps: (now: number | (() => number)): Deps =>
    buildDeps(
      { ...libsqlPorts(connection), settings: testSettings },
      { now: () => new Date(typeof now === "number" ? now : now()) },
    ),
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

  it("wait for a run still in progress, and take over from an instance killed mid-run within a minute", async () => {
    const start = Date.parse("2031-01-01T00:00:00Z");
    const [first, other] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const ran: string[] = [];
    // The first instance takes a minute and is killed: no renewal, no release.
    expect(await takeMinute(first.deps(start).db, first.name, start)).toBe(true);
    const tick = (at: number) =>
      runLeased(
        other.deps(at).db,
        other.name,
        () => at,
        async () => {
          ran.push(new Date(at).toISOString());
        },
      );
    expect(await tick(start + 1_000)).toBe(false);
    expect(await tick(start + 60_000)).toBe(true);
    expect(ran).toEqual(["2031-01-01T00:01:00.000Z"]);
  });

  it("at a start right after a kill, run the killed minute's jobs once its lease lapses, not at the next tick", async () => {
    const start = Date.parse("2032-01-01T00:00:00Z");
    const [killed, restarted] = instances as [(typeof instances)[number], (typeof instances)[number]];
    expect(await takeMinute(killed.deps(start).db, killed.name, start)).toBe(true);
    // The restarted process comes up 5 s later; its clock moves only when it waits.
    let now = start + 5_000;
    const waits: number[] = [];
    const ranAt: number[] = [];
    const schedule = scheduleMinutelyJobs(() => restarted.deps(() => now), {
      holder: "restarted",
      jobs: async (deps) => {
        ranAt.push(deps.now().getTime());
      },
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    // What start.ts does once the server listens.
    await schedule.trigger();
    await schedule.stop();
    expect(waits).toHaveLength(1);
    expect(ranAt).toHaveLength(1);
    // The dead lease lapsed within LEASE_MS of the kill, and the jobs ran in the killed minute.
    expect(ranAt[0]).toBeGreaterThanOrEqual(start + LEASE_MS);
    expect(ranAt[0]).toBeLessThan(start + 60_000);
  });

  it("at a start in a minute whose jobs already ran, wait for nothing and run nothing", async () => {
    const start = Date.parse("2033-01-01T00:00:00Z");
    const [first, second] = instances as [(typeof instances)[number], (typeof instances)[number]];
    expect(
      await runLeased(
        first.deps(start).db,
        first.name,
        () => start,
        async () => {},
      ),
    ).toBe(true);
    const runs: number[] = [];
    const waits: number[] = [];
    const schedule = scheduleMinutelyJobs(() => second.deps(start + 10_000), {
      holder: second.name,
      jobs: async () => {
        runs.push(1);
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await schedule.trigger();
    await schedule.stop();
    expect(runs).toEqual([]);
    expect(waits).toEqual([]);
  });
});
