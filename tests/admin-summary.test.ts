import { describe, expect, it } from "vitest";
import { consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { createItem, createPayment, createPurchase } from "#tests/support/profile-fixtures.ts";
import { summaryPeriods, summaryStatements } from "#worker/services/admin/summary.ts";
import { loader as rootLoader } from "../app/root.tsx";
import { loader as summaryLoader } from "../app/routes/admin.index.tsx";
import { loader as consoleLayoutLoader, middleware as consoleMiddleware } from "../app/routes/admin.tsx";

// A clock years away from every other test's rows, so the sums are this test's alone.
const clock = testClock(Date.parse("2041-06-15T12:00:00Z"));
const deps = testDeps({ now: clock.now });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("Сводка", () => {
  it("sums top-ups and purchases for today, 7 and 30 days, counts paying players, ranks items, charts 30 days", async () => {
    const now = clock.now().getTime();
    const admin = await createOperator(deps, "support");
    const first = await createPlayer({ deps: deps });
    const second = await createPlayer({ deps: deps });
    const paid = (userId: number, amount: number, completedAt: number, status: "completed" | "pending" = "completed") =>
      createPayment(deps, userId, { amount, status, completedAt, createdAt: completedAt });
    await paid(first.id, 10_000, now - HOUR);
    await paid(first.id, 20_000, now - 3 * DAY);
    await paid(second.id, 5_000, now - 3 * DAY);
    await paid(first.id, 30_000, now - 20 * DAY);
    await paid(first.id, 100_000, now - 40 * DAY);
    await paid(second.id, 7_000, now - HOUR, "pending");

    const kit = await createItem(deps, { name: "Кит «Сводка»" });
    const rank = await createItem(deps, { name: "VIP «Сводка»" });
    await createPurchase(deps, first.id, kit.id, { price: 15_000, paidAt: now - 2 * HOUR });
    await createPurchase(deps, first.id, rank.id, { price: 10_000, paidAt: now - 10 * DAY });
    await createPurchase(deps, second.id, rank.id, { price: 10_000, paidAt: now - 10 * DAY });
    await createPurchase(deps, second.id, kit.id, { price: 15_000, paidAt: now - HOUR, status: "refunded" });

    const summary = await summaryLoader(consoleArgs(deps, "/admin", { token: admin.token }));
    expect(summary.topUps).toEqual({ today: 10_000, week: 35_000, month: 65_000 });
    expect(summary.payers).toEqual({ today: 1, week: 2, month: 2 });
    expect(summary.purchases).toEqual({ today: 15_000, week: 15_000, month: 35_000, count: 3 });
    expect(summary.topItems.map((item) => [item.name, item.count, item.revenue])).toEqual([
      ["VIP «Сводка»", 2, 20_000],
      ["Кит «Сводка»", 1, 15_000],
    ]);
    expect(summary.days).toHaveLength(30);
    const today = summary.days.at(-1);
    expect(today).toEqual({
      start: Date.parse("2041-06-15T00:00:00+03:00"),
      purchases: { count: 1, total: 15_000 },
      topUps: { count: 1, total: 10_000 },
    });
    expect(summary.days.reduce((sum, day) => sum + day.topUps.total, 0)).toBe(65_000);
  });

  it("a view of /admin is one database round trip: the session, the role and the summary's state (decision 115)", async () => {
    const admin = await createOperator(deps, "support");
    await summaryLoader(consoleArgs(deps, "/admin", { token: admin.token })); // the summary itself, kept

    // Every way to the database, counted: the port's reads, batches and single statements, and drizzle.
    const roundTrips: string[] = [];
    const db = new Proxy(deps.db, {
      get(target, key, receiver) {
        if (key === "read" || key === "batch" || key === "run" || key === "orm") roundTrips.push(String(key));
        return Reflect.get(target, key, receiver);
      },
    });
    const args = consoleArgs({ ...deps, db }, "/admin", { token: admin.token });
    // As React Router runs a document request: the layouts' middleware, then every loader side by side.
    const [run] = consoleMiddleware;
    await run?.(args, async () => {
      const [root, layout, summary] = await Promise.all([
        rootLoader(args),
        consoleLayoutLoader(args),
        summaryLoader(args),
      ]);
      expect(root.user?.nickname).toBe(layout.nickname);
      expect(summary.days).toHaveLength(30);
      return new Response(null);
    });
    expect(roundTrips).toEqual(["read"]);
  });

  it("a purchase or a top-up after a load shows on the next load, though loads are kept between changes", async () => {
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps });
    const item = await createItem(deps, { name: "Кит «Свежая сводка»" });
    const load = () => summaryLoader(consoleArgs(deps, "/admin", { token: admin.token }));
    const before = await load();
    expect(await load()).toEqual(before);

    await createPurchase(deps, player.id, item.id, { price: 4_000, paidAt: clock.now().getTime() - HOUR });
    const afterPurchase = await load();
    expect(afterPurchase.purchases.today).toBe(before.purchases.today + 4_000);
    expect(afterPurchase.purchases.count).toBe(before.purchases.count + 1);

    const now = clock.now().getTime();
    await createPayment(deps, player.id, { amount: 6_000, status: "completed", completedAt: now, createdAt: now });
    expect((await load()).topUps.today).toBe(before.topUps.today + 6_000);
  });

  it("reads only covering indexes (the plans in decision 096)", async () => {
    const plans: Record<string, string[]> = {};
    for (const [name, query] of Object.entries(summaryStatements(summaryPeriods(clock.now().getTime())))) {
      const { rows } = await deps.db.run<{ detail: string }>({
        sql: `EXPLAIN QUERY PLAN ${query.sql}`,
        params: query.params,
      });
      plans[name] = rows.map((row) => row.detail);
    }
    for (const [name, details] of Object.entries(plans)) {
      const table = /topUps/.test(name) ? "payments" : "purchases";
      const index = table === "payments" ? "payments_status_completed" : "purchases_status_paid";
      expect(
        details.some((detail) => detail.includes(`USING COVERING INDEX ${index}`)),
        name,
      ).toBe(true);
      expect(
        details.some((detail) => new RegExp(`^SCAN ${table}\\b(?!.*INDEX)`).test(detail)),
        name,
      ).toBe(false);
    }
  });
});
