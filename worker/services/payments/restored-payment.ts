import { and, eq, isNull, sql } from "drizzle-orm";
import { PAYMENT_ADMIN_TEXT } from "#core/messages/admin.ts";
import { isIndividualSteamId } from "#core/shop/gift.ts";
import { payments } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { type Statement, statement } from "../../ports/database.ts";
import { SITE_OPERATOR_ROLE } from "../admin/audit.ts";
import { upsertSteamUser } from "../auth/steam-sign-in.ts";
import type { PaymentProvider, ProviderPayment } from "./provider.ts";

// A paid top-up the database doesn't hold: the site's data went back to before it (a restore), while
// the provider keeps every payment. The provider's API names our payment id and the player's SteamID
// in the metadata (decision 135), which is all it takes to put the row back and credit it once
// through the one guarded batch (decision 041).

/** This site's name in the provider's metadata: PUBLIC_URL's host. */
export function siteOf(config: Pick<Deps["config"], "publicUrl">): string {
  return new URL(config.publicUrl).host;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function log(event: string, details: Record<string, unknown>) {
  console.warn(JSON.stringify({ event, ...details }));
}

/**
 * Puts back our row of a succeeded payment the provider reports and the database lacks: the player
 * (made again from the SteamID as sign-in makes them, when the restore took the account too) and the
 * pending payment, which the caller then credits. A row the restore kept from before the provider
 * answered (pending, without the provider's id) gets the id. False when nothing could be put back
 * (the payment predates the SteamID in the metadata, or names another payment: logged).
 */
export async function restoreMissingPayment(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now">,
  provider: PaymentProvider,
  remote: ProviderPayment,
): Promise<boolean> {
  const ourId = remote.ourPaymentId;
  if (!ourId || !UUID.test(ourId) || remote.status !== "succeeded") return false;
  const [row] = await deps.db.orm.select().from(payments).where(eq(payments.id, ourId)).limit(1);
  if (row) {
    if (row.providerPaymentId !== null || row.status !== "pending" || row.provider !== provider.name) return false;
    await deps.db.orm
      .update(payments)
      .set({ providerPaymentId: remote.id })
      .where(and(eq(payments.id, ourId), isNull(payments.providerPaymentId), eq(payments.status, "pending")));
    log("payment.restored_provider_id", { paymentId: ourId, providerPaymentId: remote.id });
    return true;
  }
  if (remote.amount === null || remote.amount <= 0 || remote.currency !== "RUB") return false;
  if (remote.refunded) {
    // Its refund was lost with it: an operator decides (the refund would have to be taken again too).
    log("payment.restore_refunded_left", { paymentId: ourId, providerPaymentId: remote.id });
    return false;
  }
  if (remote.site !== siteOf(deps.config)) {
    // Another site on the same shop made it (or it predates the metadata): not ours to put back.
    log("payment.restore_other_site", { paymentId: ourId, providerPaymentId: remote.id, site: remote.site });
    return false;
  }
  if (!remote.steamId || !isIndividualSteamId(remote.steamId)) {
    log("payment.restore_unmatched", { paymentId: ourId, providerPaymentId: remote.id, amount: remote.amount });
    return false;
  }
  const userId = await upsertSteamUser(deps, remote.steamId);
  await deps.db.orm
    .insert(payments)
    .values({
      id: ourId,
      userId,
      provider: provider.name,
      providerPaymentId: remote.id,
      amount: remote.amount,
      // The provider's payment object doesn't repeat the receipt's address.
      email: "",
      status: "pending",
      createdAt: remote.createdAt ?? deps.now().getTime(),
    })
    .onConflictDoNothing();
  log("payment.restored_row", { paymentId: ourId, providerPaymentId: remote.id, steamId: remote.steamId });
  return true;
}

/**
 * The operators' journal line of a credit the site made for a payment a restore had lost, in the
 * credit's own batch (written exactly when the money moves). The journal wants an account: the
 * credited player's, with the role `site` (the console shows «Сайт»).
 */
export function restoredCreditJournal(paymentId: string, remote: ProviderPayment, now: number): Statement {
  // In the credit's batch, which aborts whole unless this call credits: the row is there exactly then.
  return statement(sql`
    INSERT INTO audit_log
      (operator_user_id, operator_steam_id, operator_role, action, target_type, target_id, before, after, reason, created_at)
    SELECT p.user_id, ${SITE_OPERATOR_ROLE}, ${SITE_OPERATOR_ROLE}, 'payment.restore_credit', 'payment', p.id, NULL,
      json_object('providerPaymentId', ${remote.id}, 'amount', p.amount, 'steamId', u.steam_id),
      ${PAYMENT_ADMIN_TEXT.restoreCreditReason}, ${now}
    FROM payments p JOIN users u ON u.id = p.user_id
    WHERE p.id = ${paymentId} AND p.status = 'completed'`);
}

/** How far back the return link looks for its payment at the provider. */
export const RETURN_LOOKUP_MS = 24 * 60 * 60 * 1000;
/** Pages (of 100) the return link reads at most: a bounded question, whoever asks. */
const RETURN_LOOKUP_PAGES = 3;

/** The provider's payment whose metadata names our id, among those of the last day; null if none. */
export async function findProviderPayment(
  deps: Pick<Deps, "now">,
  provider: PaymentProvider,
  ourPaymentId: string,
): Promise<ProviderPayment | null> {
  let cursor: string | undefined;
  for (let page = 0; page < RETURN_LOOKUP_PAGES; page++) {
    const { items, nextCursor } = await provider.list({
      createdFrom: deps.now().getTime() - RETURN_LOOKUP_MS,
      limit: 100,
      cursor,
    });
    const found = items.find((item) => item.ourPaymentId === ourPaymentId);
    if (found) return found;
    if (!nextCursor) return null;
    cursor = nextCursor;
  }
  return null;
}
