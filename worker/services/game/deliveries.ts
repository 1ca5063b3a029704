// The delivery service (decisions 061, 104, 124), one module a seam; importable from here as before.
// delivery-rules.ts: constants, shapes and the SQL shared by the seams; queue-deliveries.ts: the rows
// created; lease-rule.ts and lease.ts: which delivery a server takes; acknowledge.ts with
// ack-writes.ts: what a report writes; upkeep.ts: superseded, stranded; pending.ts: the /store list.
export { acknowledgeDeliveries } from "./acknowledge.ts";
export {
  type AckOutcome,
  type AckResult,
  type AckStatus,
  type DeliveryStatus,
  LEASE_MS,
  MAX_ATTEMPTS,
  MAX_DELIVERIES_PER_POLL,
  parseCommands,
  RETRY_DELAYS_MS,
  renderTemplates,
  type ServedDelivery,
} from "./delivery-rules.ts";
export { leaseDeliveries, resyncFrom } from "./lease.ts";
export { leasable, type Skipped } from "./lease-rule.ts";
export { pendingForPlayer, type WaitingItem } from "./pending.ts";
export { ensureGrantDeliveries, ensureRevokeDeliveries, newEntriesOf, parseIds } from "./queue-deliveries.ts";
export { revokeTarget } from "./revoke-targets.ts";
export { strandRevokes, supersedeRevokes } from "./upkeep.ts";
