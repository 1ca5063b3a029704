import { sql } from "drizzle-orm";
import { type Database, statement } from "../ports/database.ts";

// Several processes may share one database and each schedules the minutely jobs; the one whose
// insert or update of the lease row succeeds for a minute runs them, the others skip that minute.

const MINUTE_MS = 60_000;
/** A holder that died mid-run keeps the next minutes from anyone for at most this long. */
export const LEASE_MS = 5 * MINUTE_MS;
const NAME = "minutely";

export const minuteOf = (at: number) => Math.floor(at / MINUTE_MS);

/** Takes the minute `now` falls in for `holder`; false when another holder has it or still runs an earlier one. */
export async function takeMinute(db: Database, holder: string, now: number): Promise<boolean> {
  const { rows } = await db.run(
    statement(sql`
      INSERT INTO job_leases (name, slot, holder, held_until) VALUES (${NAME}, ${minuteOf(now)}, ${holder}, ${now + LEASE_MS})
      ON CONFLICT (name) DO UPDATE SET slot = excluded.slot, holder = excluded.holder, held_until = excluded.held_until
      WHERE job_leases.slot < excluded.slot AND job_leases.held_until <= ${now}
      RETURNING holder`),
  );
  return rows.length === 1;
}

/** Ends the holder's run, so the next minute is free to take. */
export async function releaseMinute(db: Database, holder: string, now: number): Promise<void> {
  await db.run(
    statement(
      sql`UPDATE job_leases SET held_until = ${now} WHERE name = ${NAME} AND holder = ${holder} AND held_until > ${now}`,
    ),
  );
}

/** Runs `jobs` if this holder takes the current minute; answers whether it ran them. */
export async function runLeased(
  db: Database,
  holder: string,
  now: () => number,
  jobs: () => Promise<void>,
): Promise<boolean> {
  if (!(await takeMinute(db, holder, now()))) return false;
  try {
    await jobs();
  } finally {
    await releaseMinute(db, holder, now());
  }
  return true;
}
