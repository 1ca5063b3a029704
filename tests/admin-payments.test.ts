import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { actionResult, auditRowsFor, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { balanceAndLedger } from "#tests/support/money.ts";
import { createPlayer } from "#tests/support/players.ts";
import { cloudflarePlatform } from "#worker/adapters/cloudflare.ts";
import { createTopUp } from "#worker/services/payments/payments.ts";
import { wireDeps } from "#worker/wiring.ts";
import { action, loader } from "../app/routes/admin.payments.tsx";

const deps = testDeps();
// The stand-in's notifications from this wiring never arrive: the webhook is "down".
const lostNotifications = wireDeps(cloudflarePlatform(env), {
  notify: async () => new Response("Сайт недоступен", { status: 503 }),
});

describe("Платежи", () => {
  it("credits a paid top-up whose notification was lost, once, through the webhook's path", async () => {
    const support = await createOperator(deps, "support");
    const player = await createPlayer({ deps: deps });
    const created = await createTopUp(lostNotifications, player, { amount: 250, email: "p@example.com" });
    const paid = await lostNotifications.fetch(created.paymentUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ action: "pay" }).toString(),
      redirect: "manual",
    });
    expect(paid.status).toBeLessThan(400);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 0, ledger: 0 });

    const page = await loader(consoleArgs(deps, "/admin/payments?status=pending", { token: support.token }));
    expect(page.payments.find((payment) => payment.id === created.paymentId)).toMatchObject({
      status: "pending",
      amount: 25_000,
    });

    const recheck = () =>
      action(
        consoleArgs(deps, "/admin/payments", { token: support.token, form: { paymentId: created.paymentId } }),
      ).then(actionResult);
    const results = await Promise.all([recheck(), recheck()]);
    expect(results.map((result) => result.data.message).sort()).toEqual([
      "Платёж уже был зачислен раньше, повторно не зачисляется",
      "Провайдер подтвердил оплату: платёж зачислен",
    ]);
    expect(await balanceAndLedger(player.id)).toEqual({ balance: 25_000, ledger: 25_000 });
    const audit = await auditRowsFor(deps, "payment", created.paymentId);
    expect(audit.map((row) => JSON.parse(row.after ?? "{}").outcome).sort()).toEqual(["already_settled", "credited"]);
  });
});
