import type { Deps } from "../../deps.ts";
import { ensureGrantDeliveries, ensureRevokeDeliveries, strandRevokes, supersedeRevokes } from "./deliveries.ts";
import { pruneRequestNonces } from "./signature.ts";

export interface GameMaintenanceReport {
  grantsQueued: number;
  revokesQueued: number;
  revokesSuperseded: number;
  revokesStranded: number;
  noncesPruned: number;
}

/**
 * The cron's delivery step. Revoke deliveries are due by their `not_before` (the expiry), so
 * the plugin's next poll after a privilege ends runs its revoke commands; here we make sure
 * every entry has its deliveries, retire revokes a later entry of the rank covers, set aside
 * due revokes whose granting server is gone, and forget request signatures the clock window
 * already refuses.
 */
export async function runGameMaintenance(deps: Deps): Promise<GameMaintenanceReport> {
  const grantsQueued = await ensureGrantDeliveries(deps);
  const revokesQueued = await ensureRevokeDeliveries(deps);
  const revokesSuperseded = await supersedeRevokes(deps);
  const revokesStranded = await strandRevokes(deps);
  const noncesPruned = await pruneRequestNonces(deps);
  return { grantsQueued, revokesQueued, revokesSuperseded, revokesStranded, noncesPruned };
}
