// A top-up paid and credited after the backup a restore puts back (decision 135): the provider (here
// the local stand-in, which keeps its payments outside the site's database as YooKassa keeps its own)
// still has it, the site's database has not. The provider's re-sent notification, the player's return
// link and the walk after a restore each credit it once, putting the row (and the player, when the
// restore took the account too) back, with a line in the operators' journal; balance = sum(ledger).
// The restore is played by deleting what it takes back: the player's rows since the copy, and the
// site's key-value table (on Node it lives in the site's database file, so a restore takes it).
import { createScheduledController, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, ledger, payments, users } from "#db/schema.ts";
import { runScheduled } from "#worker/cron/index.ts";
import {
  markRestoreForPayments,
  RESTORE_MARKER_KEY,
  reconcilePaymentsAfterRestore,
} from "#worker/services/payments/after-restore.ts";
import { testDeps } from "./support/deps.ts";
import { balanceOf, expectBalancesMatchLedger, ledgerRows } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { bearer } from "./support/sign-in.ts";
import { raw } from "./support/sql.ts";

const ORIGIN = "http://localhost:5173";
const touchedSteamIds: string[] = [];

afterEach(async () => {
  const deps = testDeps();
  const ids = [];
  for (const steamId of touchedSteamIds.splice(0)) {
    const [user] = await deps.db.orm.select({ id: users.id }).from(users).where(eq(users.steamId, steamId));
    if (user) ids.push(user.id);
  }
  await expectBalancesMatchLedger(ids);
});

/** A player who tops up `rubles` through the stand-in: paid, notified, credited. */
async function paidTopUp(rubles: number) {
  const player = await createPlayer();
  touchedSteamIds.push(player.steamId);
  const created = await SELF.fetch(`${ORIGIN}/api/payment/create`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer(player.token) },
    body: JSON.stringify({ amount: rubles, email: "player@example.com" }),
  });
  expect(created.status).toBe(200);
  const { payment_url: checkoutUrl, payment_id: paymentId } = (await created.json()) as {
    payment_url: string;
    payment_id: string;
  };
  const paid = await SELF.fetch(checkoutUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: "pay" }).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  expect(await balanceOf(player.id)).toBe(rubles * 100);
  const [row] = await testDeps().db.orm.select().from(payments).where(eq(payments.id, paymentId));
  if (!row?.providerPaymentId) throw new Error("no provider payment id");
  return { player, paymentId, providerPaymentId: row.providerPaymentId };
}

/**
 * The database put back to a copy made before the top-up: its ledger row and payment row are gone and
 * the balance is what it was; with `account`, the copy predates the player too. The site's key-value
 * table goes with it (Node keeps it in the database file).
 */
async function restoreCopyFromBefore(
  topUp: Awaited<ReturnType<typeof paidTopUp>>,
  options: { account?: boolean; paymentStarted?: boolean } = {},
) {
  const deps = testDeps();
  const { player, paymentId } = topUp;
  await deps.db.batch([
    raw("DELETE FROM ledger WHERE payment_id = ?", paymentId),
    // `paymentStarted`: the copy was made while the player was on the payment page.
    options.paymentStarted
      ? raw("UPDATE payments SET status = 'pending', completed_at = NULL WHERE id = ?", paymentId)
      : raw("DELETE FROM payments WHERE id = ?", paymentId),
    raw("UPDATE users SET balance = 0 WHERE id = ?", player.id),
    ...(options.account
      ? [raw("DELETE FROM sessions WHERE user_id = ?", player.id), raw("DELETE FROM users WHERE id = ?", player.id)]
      : []),
    raw("DELETE FROM key_values"),
  ]);
}

/** The provider's notification for the payment, sent again as YooKassa repeats it. */
function notifyAgain(providerPaymentId: string) {
  return SELF.fetch(`${ORIGIN}/api/payment/webhook/standin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id: providerPaymentId } }),
  });
}

async function playerBySteamId(steamId: string) {
  const [user] = await testDeps().db.orm.select().from(users).where(eq(users.steamId, steamId));
  return user ?? null;
}

async function journalOf(paymentId: string) {
  return testDeps()
    .db.orm.select({ action: auditLog.action, role: auditLog.operatorRole, after: auditLog.after })
    .from(auditLog)
    .where(eq(auditLog.targetId, paymentId));
}

describe("a top-up paid after the backup that was restored", () => {
  it("is credited once by the provider's re-sent notification, journaled, and the return link says success", async () => {
    const topUp = await paidTopUp(500);
    await restoreCopyFromBefore(topUp);
    expect(await balanceOf(topUp.player.id)).toBe(0);

    expect((await notifyAgain(topUp.providerPaymentId)).status).toBe(200);
    expect((await notifyAgain(topUp.providerPaymentId)).status).toBe(200);

    expect(await balanceOf(topUp.player.id)).toBe(500_00);
    expect((await ledgerRows(topUp.player.id)).map((row) => `${row.kind} ${row.amount} ${row.paymentId}`)).toEqual([
      `deposit 50000 ${topUp.paymentId}`,
    ]);
    const [row] = await testDeps().db.orm.select().from(payments).where(eq(payments.id, topUp.paymentId));
    expect(row).toMatchObject({ status: "completed", providerPaymentId: topUp.providerPaymentId, amount: 500_00 });
    expect(await journalOf(topUp.paymentId)).toEqual([
      expect.objectContaining({ action: "payment.restore_credit", role: "site" }),
    ]);
    const back = await SELF.fetch(`${ORIGIN}/api/payment/return/${topUp.paymentId}`, { redirect: "manual" });
    expect(back.headers.get("location")).toBe("/profile?payment=success");
  });

  it("whose player the restore took too: the notification makes the account again from the SteamID and credits it", async () => {
    const topUp = await paidTopUp(700);
    await restoreCopyFromBefore(topUp, { account: true });
    expect(await playerBySteamId(topUp.player.steamId)).toBeNull();

    expect((await notifyAgain(topUp.providerPaymentId)).status).toBe(200);

    const again = await playerBySteamId(topUp.player.steamId);
    expect(again?.balance).toBe(700_00);
    if (!again) throw new Error("no player");
    expect((await ledgerRows(again.id)).map((row) => `${row.kind} ${row.amount}`)).toEqual(["deposit 70000"]);
    expect((await notifyAgain(topUp.providerPaymentId)).status).toBe(200);
    expect(await balanceOf(again.id)).toBe(700_00);
  });

  it("is credited once when the player opens the return link, with no notification at all", async () => {
    const topUp = await paidTopUp(120);
    await restoreCopyFromBefore(topUp);

    const back = await SELF.fetch(`${ORIGIN}/api/payment/return/${topUp.paymentId}`, { redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/profile?payment=success");
    const twice = await SELF.fetch(`${ORIGIN}/api/payment/return/${topUp.paymentId}`, { redirect: "manual" });
    expect(twice.headers.get("location")).toBe("/profile?payment=success");
    expect(await balanceOf(topUp.player.id)).toBe(120_00);
    expect(await ledgerRows(topUp.player.id)).toHaveLength(1);
  });

  it("is credited once by the walk of the provider's payments since the copy, and a second walk does nothing", async () => {
    const since = Date.now();
    const topUp = await paidTopUp(300);
    const until = Date.now();
    await restoreCopyFromBefore(topUp, { account: true });

    // The window is this test's (no margin for clocks): other test files' payments (sharing the stand-in
    // on workerd) and this file's earlier ones stay out of it.
    const deps = testDeps();
    const first = await reconcilePaymentsAfterRestore(deps, { since, until, marginMs: 0 });
    expect(first).toMatchObject({ listed: 1, held: 0, credited: 1, complete: true });
    const again = await playerBySteamId(topUp.player.steamId);
    if (!again) throw new Error("the walk did not make the player again");
    expect(again.balance).toBe(300_00);
    expect((await ledgerRows(again.id)).map((row) => `${row.kind} ${row.amount}`)).toEqual(["deposit 30000"]);
    expect(await journalOf(topUp.paymentId)).toEqual([
      expect.objectContaining({ action: "payment.restore_credit", role: "site" }),
    ]);

    const second = await reconcilePaymentsAfterRestore(deps, { since, until, marginMs: 0 });
    expect(second).toMatchObject({ listed: 1, held: 1, credited: 0, complete: true });
    expect((await notifyAgain(topUp.providerPaymentId)).status).toBe(200);
    expect(await balanceOf(again.id)).toBe(300_00);
    expect(await ledgerRows(again.id)).toHaveLength(1);
  });

  it("whose payment had started before the copy is credited by the walk once, journaled too", async () => {
    const since = Date.now();
    const topUp = await paidTopUp(40);
    const until = Date.now();
    await restoreCopyFromBefore(topUp, { paymentStarted: true });

    const deps = testDeps();
    expect(await reconcilePaymentsAfterRestore(deps, { since, until, marginMs: 0 })).toMatchObject({ credited: 1 });
    expect(await reconcilePaymentsAfterRestore(deps, { since, until, marginMs: 0 })).toMatchObject({ credited: 0 });
    expect(await balanceOf(topUp.player.id)).toBe(40_00);
    expect(await ledgerRows(topUp.player.id)).toHaveLength(1);
    expect(await journalOf(topUp.paymentId)).toEqual([expect.objectContaining({ action: "payment.restore_credit" })]);
  });

  it("is credited by the minutely job when a restore marker is there, which it then removes", async () => {
    const since = Date.now();
    const topUp = await paidTopUp(250);
    const until = Date.now();
    await restoreCopyFromBefore(topUp);
    const deps = testDeps();
    await markRestoreForPayments(deps, { since, until, marginMs: 0 });

    const runJobs = () =>
      runScheduled(createScheduledController({ cron: "* * * * *" }).cron, deps, {
        serverStatus: { steamTimeoutMs: 1000 },
      });
    await runJobs();
    expect(await balanceOf(topUp.player.id)).toBe(250_00);
    expect(await deps.kv.get(RESTORE_MARKER_KEY)).toBeNull();
    await runJobs();
    expect(await balanceOf(topUp.player.id)).toBe(250_00);
    expect(await ledgerRows(topUp.player.id)).toHaveLength(1);
  });
});

describe("the stand-in's list of payments", () => {
  it("speaks YooKassa's GET /v3/payments: newest first, created_at filters, limit and next_cursor", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const first = await paidTopUp(11);
    const second = await paidTopUp(12);
    const third = await paidTopUp(13);
    const until = new Date(Date.now() + 1).toISOString();
    const auth = { authorization: `Basic ${btoa("standin-shop:standin-secret-key")}` };
    const list = async (query: string) => {
      const response = await SELF.fetch(`${ORIGIN}/__standins/payments/v3/payments?${query}`, { headers: auth });
      expect(response.status).toBe(200);
      return (await response.json()) as { type: string; items: { id: string }[]; next_cursor?: string };
    };
    const window = `created_at.gte=${since}&created_at.lte=${until}&status=succeeded`;

    const page = await list(`${window}&limit=2`);
    expect(page.type).toBe("list");
    expect(page.items.map((item) => item.id)).toEqual([third.providerPaymentId, second.providerPaymentId]);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = await list(`${window}&limit=2&cursor=${encodeURIComponent(page.next_cursor ?? "")}`);
    expect(rest.items.map((item) => item.id)).toEqual([first.providerPaymentId]);
    expect(rest.next_cursor).toBeUndefined();

    const unauthorized = await SELF.fetch(`${ORIGIN}/__standins/payments/v3/payments`);
    expect(unauthorized.status).toBe(401);
    const bad = await SELF.fetch(`${ORIGIN}/__standins/payments/v3/payments?limit=500`, { headers: auth });
    expect(bad.status).toBe(400);
  });
});

// The ledger's unique provider payment id is what keeps any of the paths above from crediting twice.
describe("the ledger", () => {
  it("holds one deposit per provider payment whatever asks", async () => {
    const topUp = await paidTopUp(90);
    await restoreCopyFromBefore(topUp);
    await Promise.all([
      notifyAgain(topUp.providerPaymentId),
      notifyAgain(topUp.providerPaymentId),
      SELF.fetch(`${ORIGIN}/api/payment/return/${topUp.paymentId}`, { redirect: "manual" }),
    ]);
    const rows = await testDeps()
      .db.orm.select()
      .from(ledger)
      .where(eq(ledger.providerPaymentId, topUp.providerPaymentId));
    expect(rows).toHaveLength(1);
    expect(await balanceOf(topUp.player.id)).toBe(90_00);
  });
});
