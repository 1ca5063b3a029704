import type { Deps } from "../../deps.ts";
import { ensureGrantDeliveries, ensureRevokeDeliveries } from "./deliveries.ts";
import { pruneRequestNonces } from "./signature.ts";

export interface GameMaintenanceReport {
  grantsQueued: number;
  revokesQueued: number;
  noncesPruned: number;
}

/**
 * The cron's delivery step. Revoke deliveries are due by their `not_before` (the expiry), so
 * the plugin's next poll after a privilege ends runs its revoke commands; here we make sure
 * every entry has its deliveries and forget request signatures the clock window already refuses.
 */
export async function runGameMaintenance(deps: Deps): Promise<GameMaintenanceReport> {
  const grantsQueued = await ensureGrantDeliveries(deps);
  const revokesQueued = await ensureRevokeDeliveries(deps);
  const noncesPruned = await pruneRequestNonces(deps);
  return { grantsQueued, revokesQueued, noncesPruned };
}
