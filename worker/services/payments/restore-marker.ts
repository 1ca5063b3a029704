/**
 * The KV key of a restore whose top-ups the provider must be asked about (decision 135):
 * `{ markedAt, since?, until?, marginMs? }` (ms). `npm run db:restore` writes it into the restored
 * database's key_values (Node's KV); whatever else notices a restore writes it with
 * markRestoreForPayments (after-restore.ts). The minutely job walks the provider's payments and then
 * deletes it. A module of its own, so the script reads the name without the services.
 */
export const RESTORE_MARKER_KEY = "payments-after-restore";
