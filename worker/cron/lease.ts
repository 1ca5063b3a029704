import { sql } from "drizzle-orm";
import { type Database, statement } from "../ports/database.ts";

// Several processes may share one database and each schedules the minutely jobs; the one whose
// insert or update of the lease row succeeds for a minute runs them, the others skip that minute.
// The lease is short and renewed while the jobs run (decision 121): a holder killed mid-run stops
// renewing, and its lease lapses within LEASE_MS of its last renewal instead of blocking the jobs
// in every process for minutes. A run that finished empties `holder`; a lapsed lease whose holder
// is still named was left by a run that died, and its minute may be taken again.

const MINUTE_MS = 60_000;
/** How long a lease lasts unless renewed: a holder that died frees the jobs this long after its last renewal. */
export const LEASE_MS = 30_000;
/** How often a running holder renews its lease. */
export const RENEW_MS = 10_000;
/** A run still going after this stops renewing, so a run that hangs can't keep the jobs from everyone. */
export const MAX_RUN_MS = 5 * MINUTE_MS;
/** The lease row of the minutely jobs (tests read it to know a minute's run is over). */
export const LEASE_NAME = "minutely";
/** The holder of a minute whose run finished. */
export const FINISHED = "";

export const minuteOf = (at: number) => Math.floor(at / MINUTE_MS);

/**
 * Takes the minute `now` falls in for `holder`: a newer minute than the last one taken, or the same
 * minute when its run died (its lease lapsed unfinished). False while another holder's lease is live.
 */
export async function takeMinute(db: Database, holder: string, now: number): Promise<boolean> {
  const { rows } = await db.run(
    statement(sql`
      INSERT INTO job_leases (name, slot, holder, held_until) VALUES (${LEASE_NAME}, ${minuteOf(now)}, ${holder}, ${now + LEASE_MS})
      ON CONFLICT (name) DO UPDATE SET slot = excluded.slot, holder = excluded.holder, held_until = excluded.held_until
      WHERE job_leases.held_until <= ${now}
        AND (job_leases.slot < excluded.slot OR (job_leases.slot = excluded.slot AND job_leases.holder <> ${FINISHED}))
      RETURNING holder`),
  );
  return rows.length === 1;
}

/** Extends a running holder's lease; false when the lease is no longer its own (it lapsed and was taken). */
export async function renewMinute(db: Database, holder: string, now: number): Promise<boolean> {
  const { rows } = await db.run(
    statement(sql`
      UPDATE job_leases SET held_until = ${now + LEASE_MS}
      WHERE name = ${LEASE_NAME} AND holder = ${holder}
      RETURNING holder`),
  );
  return rows.length === 1;
}

/** Ends the holder's run: its minute is done, and the next minute is free to take. */
export async function releaseMinute(db: Database, holder: string, now: number): Promise<void> {
  await db.run(
    statement(
      sql`UPDATE job_leases SET holder = ${FINISHED}, held_until = ${now} WHERE name = ${LEASE_NAME} AND holder = ${holder}`,
    ),
  );
}

/** When the live lease of a run in progress (or of one that died) lapses; null when none is live. */
export async function liveLeaseUntil(db: Database, now: number): Promise<number | null> {
  const { rows } = await db.run<{ held_until: number }>(
    statement(sql`SELECT held_until FROM job_leases WHERE name = ${LEASE_NAME} AND held_until > ${now}`),
  );
  const until = rows[0]?.held_until;
  return until === undefined ? null : Number(until);
}

/** Starts calling `renew` every `ms`; answers how to stop. Tests pass their own to renew on demand. */
export type Every = (ms: number, renew: () => Promise<void>) => () => void;

const everyByTimer: Every = (ms, renew) => {
  const timer = setInterval(() => void renew(), ms);
  return () => clearInterval(timer);
};

/**
 * Runs `jobs` if this holder takes the current minute, renewing the lease every RENEW_MS while they
 * run (for MAX_RUN_MS at most); answers whether it ran them.
 */
export async function runLeased(
  db: Database,
  holder: string,
  now: () => number,
  jobs: () => Promise<void>,
  every: Every = everyByTimer,
): Promise<boolean> {
  const started = now();
  if (!(await takeMinute(db, holder, started))) return false;
  let renewals = Promise.resolve();
  const stopRenewing = every(RENEW_MS, () => {
    const at = now();
    if (at - started >= MAX_RUN_MS) return renewals;
    renewals = renewals
      .then(() => renewMinute(db, holder, at))
      .then(
        (still) => {
          if (!still) console.error(JSON.stringify({ event: "cron_lease_lost", holder }));
        },
        (error) => console.error(JSON.stringify({ event: "cron_lease_renewal_failed", error: String(error) })),
      );
    return renewals;
  });
  try {
    await jobs();
  } finally {
    stopRenewing();
    await renewals;
    await releaseMinute(db, holder, now());
  }
  return true;
}
