import type { Deps } from "../deps.ts";
import { scheduleWipeSales } from "../services/admin/wipe-sales.ts";
import { runGameMaintenance } from "../services/game/maintenance.ts";
import { runScheduledWipes } from "../services/game/wipe-ends.ts";
import { sendDiscordNotifications } from "../services/notifications/discord.ts";
import { reconcileIfRestored } from "../services/payments/after-restore.ts";
import { recheckPendingPayments } from "../services/payments/recheck.ts";
import { runAfterRestoreSteps } from "../services/restore/after-restore.ts";
import { watchForRestore } from "../services/restore/watch.ts";
import { type RefreshOptions, refreshServerStatus, statusDocumentWitness } from "../services/server-status.ts";

export interface ScheduledOptions {
  serverStatus?: RefreshOptions;
}

// Every minute (wrangler.jsonc "triggers" on Workers). Each job is isolated: one failing job is
// logged and reported without keeping the others from running.
export async function runScheduled(cron: string, deps: Deps, options: ScheduledOptions = {}): Promise<void> {
  // The restore watch (decision 133) runs first in the status job: on Workers the status document
  // carries its witness. A watch that fails is its own failed job; the server list is still refreshed,
  // and its document keeps the witness it had.
  const watching = watchForRestore(deps, deps.witness ?? statusDocumentWitness(deps.kv));
  // A scheduled wipe that just passed is recorded before the status document is built, so the document
  // (the cards, /wipes) says the last wipe fair-play counts from in the same run, not Steam's «born» tag
  // until a later write (issue 46: one «last wipe»). Failing, it fails its own job only.
  const wiping = runScheduledWipes(deps);
  const jobs: Record<string, () => Promise<unknown>> = {
    // What follows a restore it finds (the payments reconciliation) doesn't hold the server list up.
    restoreWatch: async () => {
      const { restore } = await watching;
      if (restore) await runAfterRestoreSteps(deps, restore);
    },
    serverStatus: async () => {
      const watched = await watching.catch(() => null);
      await wiping.catch(() => null);
      const carried = deps.witness === null && watched ? { witness: watched.witness } : {};
      const { document, written } = await refreshServerStatus(deps, { ...options.serverStatus, ...carried });
      const online = document.servers.filter((server) => server.status === "online").length;
      console.log(
        JSON.stringify({
          event: "server_status_refreshed",
          cron,
          online,
          total: document.servers.length,
          written,
        }),
      );
    },
    // Retire and strand due revokes; hourly and daily, queue what a recent entry lacks (decision 126).
    gameDeliveries: async () => {
      console.log(JSON.stringify({ event: "game_deliveries_maintained", ...(await runGameMaintenance(deps)) }));
    },
    // Ask the payment provider about top-ups still pending here: a lost notification is credited (decision 105).
    pendingPayments: async () => {
      console.log(JSON.stringify({ event: "pending_payments_rechecked", ...(await recheckPendingPayments(deps)) }));
    },
    // After a restore (its marker in KV), credit the top-ups the provider has and the ledger lost (decision 135).
    paymentsAfterRestore: async () => {
      const result = await reconcileIfRestored(deps);
      if (result.ran) console.log(JSON.stringify({ event: "payments_reconciled_after_restore", ...result }));
    },
    // Send the console's Discord notifications that are due; drop, journaled, those a day old (decision 110).
    discordNotifications: async () => {
      console.log(JSON.stringify({ event: "discord_notifications_sent", ...(await sendDiscordNotifications(deps)) }));
    },
    // Add each coming wipe's window of the wipe sales as an ordinary sale (decision 144).
    wipeSales: async () => {
      console.log(JSON.stringify({ event: "wipe_sales_scheduled", ...(await scheduleWipeSales(deps)) }));
    },
    // A scheduled wipe that passed becomes its server's last wipe, for the fair-play window (decision 129),
    // and ends the «до вайпа» entries delivered there before it, down or not (decision 130).
    scheduledWipes: async () => {
      console.log(JSON.stringify({ event: "scheduled_wipes_recorded", ...(await wiping) }));
    },
  };
  const results = await Promise.allSettled(Object.values(jobs).map((job) => job()));
  const failed = Object.keys(jobs).filter((_, index) => results[index]?.status === "rejected");
  for (const [index, name] of Object.keys(jobs).entries()) {
    const result = results[index];
    if (result?.status === "rejected") {
      console.error(JSON.stringify({ event: "cron_job_failed", job: name, error: String(result.reason) }));
    }
  }
  // Let Cloudflare record the run as failed, after every job had its chance.
  if (failed.length > 0) throw new Error(`cron jobs failed: ${failed.join(", ")}`);
}
