// A top-up whose notification is lost is still credited: the minutely job asks the provider (here
// the local stand-in, which speaks YooKassa's API) about payments pending here for more than five
// minutes, credits a paid one once through the webhook's own path, and marks a canceled one
// (decision 105). The stand-in's `notification=drop` pays or cancels without notifying us.
// The payments are created on a clock years before now, so the job, run on that clock, sees only
// this file's payments even in a database other test files share.
import { createScheduledController, SELF } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { payments } from "#db/schema.ts";
import { runScheduled } from "#worker/cron/index.ts";
import type { Deps } from "#worker/deps.ts";
import { createTopUp } from "#worker/services/payments/payments.ts";
import { type PaymentProvider, paymentProvider } from "#worker/services/payments/provider.ts";
import { RECHECK_PER_RUN, recheckPendingPayments } from "#worker/services/payments/recheck.ts";
import { standInPaymentsKv, testClock, testDeps } from "./support/deps.ts";
import { balanceOf, expectBalancesMatchLedger, ledgerRows } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { bearer } from "./support/sign-in.ts";

const ORIGIN = "http://localhost:5173";
const MINUTE = 60_000;
const touchedUsers: number[] = [];

afterEach(async () => {
  await expectBalancesMatchLedger(touchedUsers);
});

/** A signed-in player (on today's clock, so the API takes the session). */
async function createPayer() {
  const player = await createPlayer();
  touchedUsers.push(player.id);
  return player;
}

/** Services on a clock of our own, `start` years before any real payment. */
function clockedDeps(start: string) {
  const clock = testClock(Date.parse(start));
  return { clock, deps: testDeps({ now: clock.now }) };
}

/** A button on the stand-in's checkout page; `drop` loses the notification it would send us. */
function press(checkoutUrl: string, button: "pay" | "cancel", drop: boolean) {
  const form = new URLSearchParams({ action: button });
  if (drop) form.set("notification", "drop");
  return SELF.fetch(checkoutUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
}

async function paymentRow(deps: Deps, paymentId: string) {
  const [row] = await deps.db.orm.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error("no payment row");
  return row;
}

/** The player's deposit history as GET /api/payment/history answers it. */
async function history(token: string) {
  const response = await SELF.fetch(`${ORIGIN}/api/payment/history`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  return (await response.json()) as { ID: string; status: string; amount: number; completed_at: string | null }[];
}

/** The minutely jobs as the Worker's cron and the Node schedule run them. */
function runMinutelyJobs(deps: Deps) {
  return runScheduled(createScheduledController({ cron: "* * * * *" }).cron, deps, {
    serverStatus: { steamTimeoutMs: 1000 },
  });
}

describe("a top-up whose notification was lost", () => {
  it("is credited once by the minutely job after five minutes, and its history row reads completed", async () => {
    const { clock, deps } = clockedDeps("2021-03-01T10:00:00Z");
    const player = await createPayer();
    const created = await createTopUp(deps, player, { amount: 150, email: "player@example.com" });

    const paid = await press(created.paymentUrl, "pay", true);
    expect(paid.status).toBe(303);
    expect(await balanceOf(player.id)).toBe(0);
    expect((await paymentRow(deps, created.paymentId)).status).toBe("pending");
    expect((await history(player.token)).map((row) => row.status)).toEqual(["pending"]);

    // A minute on, the player may still be on their way back: the job leaves it alone.
    clock.advance(MINUTE);
    await runMinutelyJobs(deps);
    expect(await balanceOf(player.id)).toBe(0);

    clock.advance(5 * MINUTE);
    await runMinutelyJobs(deps);
    expect(await balanceOf(player.id)).toBe(150_00);
    const row = await paymentRow(deps, created.paymentId);
    expect(row).toMatchObject({ status: "completed", completedAt: clock.now().getTime() });
    expect(
      (await ledgerRows(player.id)).map(({ kind, amount, paymentId, providerPaymentId }) => ({
        kind,
        amount,
        paymentId,
        providerPaymentId,
      })),
    ).toEqual([
      { kind: "deposit", amount: 150_00, paymentId: created.paymentId, providerPaymentId: row.providerPaymentId },
    ]);
    expect(await history(player.token)).toEqual([
      expect.objectContaining({
        ID: created.paymentId,
        status: "completed",
        amount: 150,
        completed_at: clock.now().toISOString(),
      }),
    ]);

    // Later runs, a second press at the stand-in and the return link credit nothing more.
    clock.advance(MINUTE);
    await runMinutelyJobs(deps);
    clock.advance(MINUTE);
    await recheckPendingPayments(deps);
    await press(created.paymentUrl, "pay", false);
    const back = await SELF.fetch(`${ORIGIN}/api/payment/return/${created.paymentId}`, { redirect: "manual" });
    expect(back.headers.get("location")).toBe("/profile?payment=success");
    expect(await balanceOf(player.id)).toBe(150_00);
    expect(await ledgerRows(player.id)).toHaveLength(1);
  });

  it("that was cancelled at the provider is marked cancelled, and nothing is credited", async () => {
    const { clock, deps } = clockedDeps("2020-06-01T10:00:00Z");
    const player = await createPayer();
    const created = await createTopUp(deps, player, { amount: 40, email: "player@example.com" });
    expect((await press(created.paymentUrl, "cancel", true)).status).toBe(303);
    expect((await paymentRow(deps, created.paymentId)).status).toBe("pending");

    clock.advance(6 * MINUTE);
    const report = await recheckPendingPayments(deps);
    expect(report).toMatchObject({ asked: 1, cancelled: 1, credited: 0, unavailable: false });
    expect((await paymentRow(deps, created.paymentId)).status).toBe("cancelled");
    expect((await history(player.token)).map((row) => row.status)).toEqual(["cancelled"]);
    expect(await ledgerRows(player.id)).toEqual([]);

    clock.advance(MINUTE);
    expect(await recheckPendingPayments(deps)).toMatchObject({ asked: 0 });
  });

  it("is asked about again while the provider keeps it open, and credited once it is paid", async () => {
    const { clock, deps } = clockedDeps("2019-09-01T10:00:00Z");
    const player = await createPayer();
    const created = await createTopUp(deps, player, { amount: 99.5, email: "player@example.com" });

    for (let run = 0; run < 3; run++) {
      clock.advance(6 * MINUTE);
      expect(await recheckPendingPayments(deps)).toMatchObject({ asked: 1, pending: 1, credited: 0 });
    }
    expect((await paymentRow(deps, created.paymentId)).status).toBe("pending");
    expect(await balanceOf(player.id)).toBe(0);

    await press(created.paymentUrl, "pay", true);
    clock.advance(MINUTE);
    expect(await recheckPendingPayments(deps)).toMatchObject({ asked: 1, credited: 1 });
    expect(await balanceOf(player.id)).toBe(99_50);
    expect((await ledgerRows(player.id)).map((row) => `${row.kind} ${row.amount}`)).toEqual(["deposit 9950"]);
  });
});

describe("a top-up nobody paid", () => {
  it("is marked cancelled once the provider lets it expire after an hour", async () => {
    const { clock, deps } = clockedDeps("2018-06-01T10:00:00Z");
    const player = await createPayer();
    const created = await createTopUp(deps, player, { amount: 25, email: "player@example.com" });
    const { providerPaymentId } = await paymentRow(deps, created.paymentId);

    clock.advance(6 * MINUTE);
    expect(await recheckPendingPayments(deps)).toMatchObject({ asked: 1, pending: 1 });

    // The stand-in keeps its payments as YooKassa's API shows them; this one was made two hours ago.
    const key = `standin-payment:${providerPaymentId}`;
    const store = standInPaymentsKv();
    const stored = JSON.parse((await store.get(key)) ?? "null") as { created_at: string };
    stored.created_at = new Date(Date.now() - 2 * 60 * MINUTE).toISOString();
    await store.put(key, JSON.stringify(stored));

    clock.advance(MINUTE);
    expect(await recheckPendingPayments(deps)).toMatchObject({ asked: 1, cancelled: 1 });
    expect((await paymentRow(deps, created.paymentId)).status).toBe("cancelled");
    const page = await (await SELF.fetch(created.paymentUrl)).text();
    expect(page).toContain("Отменён");
    expect(page).not.toContain("Оплатить");
    expect(await ledgerRows(player.id)).toEqual([]);
  });
});

describe("the job's bound", () => {
  // 25 payments created, paid and asked about, one request after another: slower than the default 5 s on a busy machine.
  it(`asks about ${RECHECK_PER_RUN} payments a run, those asked longest ago first, and credits all in time`, {
    timeout: 60_000,
  }, async () => {
    const { clock, deps } = clockedDeps("2018-01-01T10:00:00Z");
    const players = [await createPayer(), await createPayer(), await createPayer()];
    const created: { paymentId: string; paymentUrl: string; userId: number }[] = [];
    for (let index = 0; index < RECHECK_PER_RUN + 5; index++) {
      const player = players[index % players.length];
      if (!player) throw new Error("no player");
      clock.advance(1000);
      created.push({ ...(await createTopUp(deps, player, { amount: 10, email: "a@b.ru" })), userId: player.id });
    }
    const rows = await deps.db.orm
      .select({ id: payments.id, providerPaymentId: payments.providerPaymentId })
      .from(payments)
      .where(
        inArray(
          payments.id,
          created.map((payment) => payment.paymentId),
        ),
      );
    const providerIdOf = new Map(rows.map((row) => [row.id, row.providerPaymentId]));
    const inOrder = created.map((payment) => providerIdOf.get(payment.paymentId));

    const real = paymentProvider(deps);
    let asked: string[] = [];
    const recording: PaymentProvider = {
      ...real,
      get: (id) => {
        asked.push(id);
        return real.get(id);
      },
    };

    clock.advance(6 * MINUTE);
    await recheckPendingPayments(deps, recording);
    expect(asked).toEqual(inOrder.slice(0, RECHECK_PER_RUN));

    asked = [];
    clock.advance(MINUTE);
    await recheckPendingPayments(deps, recording);
    expect(asked).toEqual([...inOrder.slice(RECHECK_PER_RUN), ...inOrder.slice(0, RECHECK_PER_RUN - 5)]);

    for (const payment of created) await press(payment.paymentUrl, "pay", true);
    let credited = 0;
    for (let run = 0; run < 2; run++) {
      clock.advance(MINUTE);
      credited += (await recheckPendingPayments(deps, recording)).credited;
    }
    expect(credited).toBe(RECHECK_PER_RUN + 5);
    for (const player of players) {
      const count = created.filter((payment) => payment.userId === player.id).length;
      expect(await balanceOf(player.id)).toBe(count * 10_00);
      expect(await ledgerRows(player.id)).toHaveLength(count);
    }

    clock.advance(MINUTE);
    expect(await recheckPendingPayments(deps, recording)).toMatchObject({ asked: 0, credited: 0 });
  });
});
