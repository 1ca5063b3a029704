import type { Deps } from "../../deps.ts";
import { ringWhatBecameDue } from "./due-rings.ts";
import { rebuildWaiting } from "./poll.ts";
import { ensureGrantDeliveries, ensureRevokeDeliveries } from "./queue-deliveries.ts";
import { strandRevokes, supersedeRevokes } from "./upkeep.ts";

export interface GameMaintenanceReport {
  grantsQueued: number;
  revokesQueued: number;
  revokesSuperseded: number;
  revokesStranded: number;
  /** Whether this run was the hour's, which also looks for entries missing a delivery. */
  backstop: boolean;
  /** Server types whose plugins were rung for what became due this minute (decision 146). */
  typesRung: number;
}

const HOUR_MS = 60 * 60 * 1000;
/** How far back the hourly backstop looks: entries made, and ranks ending, within the last day. */
export const BACKSTOP_LOOKBACK_MS = 24 * HOUR_MS;

/** The hour's run: the first minute of each hour (UTC). */
export const isBackstopMinute = (now: number) => Math.floor(now / 60_000) % 60 === 0;
/** The day's run: the first minute of each day (UTC). */
export const isDailyMinute = (now: number) => Math.floor(now / 60_000) % 1440 === 0;

/**
 * The cron's delivery step. Revoke deliveries are due by their `not_before` (the expiry), so
 * the plugin's next poll after a privilege ends runs its revoke commands; here, every minute, the
 * due revokes a later entry of the rank covers are retired and those whose granting server is gone
 * set aside. Once an hour the backstop adds the grant an entry made in the last day lacks (its
 * purchase or promo code writes it, so this finds none unless something went wrong) and rebuilds
 * each type's waiting players (deliveries_waiting), dropping those served in the hour; once a day it
 * adds the revoke a rank ending after a day ago lacks (its item gained revoke commands after it was
 * delivered). Every read goes through an index over what is pending or recent (decision 126): a
 * minutely job that read the whole history read it 1 440 times a day.
 */
export async function runGameMaintenance(deps: Deps): Promise<GameMaintenanceReport> {
  const now = deps.now().getTime();
  const backstop = isBackstopMinute(now);
  const grantsQueued = backstop ? await ensureGrantDeliveries(deps, null, now - BACKSTOP_LOOKBACK_MS) : 0;
  // Every running rank is read for it (thousands on a busy shop): once a day, at midnight UTC.
  const revokesQueued = isDailyMinute(now) ? await ensureRevokeDeliveries(deps, now - BACKSTOP_LOOKBACK_MS) : 0;
  if (backstop) await rebuildWaiting(deps);
  const revokesSuperseded = await supersedeRevokes(deps);
  const revokesStranded = await strandRevokes(deps);
  const typesRung = await ringWhatBecameDue(deps, now, grantsQueued + revokesQueued > 0);
  return { grantsQueued, revokesQueued, revokesSuperseded, revokesStranded, backstop, typesRung };
}
