// A sale's price is written twice (decision 113): core/shop/sales.ts for the pages, the purchase's SQL
// guard for the money. This shows many items and sales on the real database and buys each at the
// price the page showed: the purchase must charge exactly it, and name the sale only when it set it.
import { describe, expect, it } from "vitest";
import { rublesToKopecks } from "#core/schemas/purchase.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { createCategory, createItem } from "./support/shop-fixtures.ts";
import { firstRow, raw, runBatch } from "./support/sql.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const HOUR = 60 * 60 * 1000;

interface SaleCase {
  percent: number;
  /** Whether the sale covers the item's category / server type (false: another one's). */
  category: boolean;
  serverType: boolean;
  /** The sale's window against NOW. */
  window: "running" | "planned" | "over" | "ended early";
}

const saleSets: SaleCase[][] = [
  [],
  [{ percent: 15, category: true, serverType: true, window: "running" }],
  [{ percent: 15, category: false, serverType: true, window: "running" }],
  [{ percent: 15, category: true, serverType: false, window: "running" }],
  [{ percent: 40, category: true, serverType: true, window: "planned" }],
  [{ percent: 40, category: true, serverType: true, window: "over" }],
  [{ percent: 40, category: true, serverType: true, window: "ended early" }],
  [
    { percent: 15, category: true, serverType: true, window: "running" },
    { percent: 35, category: true, serverType: true, window: "running" },
  ],
  [
    { percent: 90, category: true, serverType: true, window: "over" },
    { percent: 5, category: true, serverType: true, window: "running" },
  ],
];
const ownDiscounts = [0, 10, 30];
const shapes: { price: number; durations?: [number, number | null][]; days: number | null }[] = [
  { price: 14_900, days: null },
  {
    price: 19_900,
    durations: [
      [7, null],
      [30, 29_900],
    ],
    days: 7,
  },
  {
    price: 19_900,
    durations: [
      [7, null],
      [30, 29_900],
    ],
    days: 30,
  },
];

function windowOf(window: SaleCase["window"]) {
  if (window === "planned") return { starts: NOW + HOUR, ends: NOW + 2 * HOUR, cancelled: null };
  if (window === "over") return { starts: NOW - 2 * HOUR, ends: NOW - HOUR, cancelled: null };
  if (window === "ended early") return { starts: NOW - HOUR, ends: NOW + HOUR, cancelled: NOW - 1 };
  return { starts: NOW - HOUR, ends: NOW + HOUR, cancelled: null };
}

describe("a sale's price on the page and in the purchase", () => {
  it("agree for every item, duration and set of sales, and the purchase names the sale that set its price", {
    timeout: 60_000,
  }, async () => {
    const clock = testClock(NOW);
    const deps = testDeps({ now: clock.now });
    const player = await createPlayer({ deps, balance: 10_000_000 });
    let cases = 0;
    for (const sales of saleSets) {
      for (const discount of ownDiscounts) {
        for (const shape of shapes) {
          const categoryId = await createCategory("Паритет распродаж");
          const elsewhere = await createCategory("Другая категория");
          const itemId = await createItem({
            categoryId,
            price: shape.price,
            discount,
            serverType: "SOLO",
            durations: shape.durations,
          });
          await runBatch(
            sales.map((sale) => {
              const { starts, ends, cancelled } = windowOf(sale.window);
              return raw(
                `INSERT INTO sales (title, percent, starts_at, ends_at, category_ids, server_types, cancelled_at)
                 VALUES ('Паритет', ?, ?, ?, ?, ?, ?)`,
                sale.percent,
                starts,
                ends,
                JSON.stringify([sale.category ? categoryId : elsewhere]),
                JSON.stringify([sale.serverType ? "SOLO" : "MAX2"]),
                cancelled,
              );
            }),
          );
          const page = await getItem(deps, itemId);
          if (!page) throw new Error("no item");
          const shown =
            shape.days === null
              ? page.discount_price
              : page.durations.find((d) => d.days === shape.days)?.discount_price;
          if (shown === undefined) throw new Error("no duration");
          const result = await purchaseItem(deps, player.id, {
            itemId,
            serverType: "SOLO",
            durationDays: shape.days,
            idempotencyKey: crypto.randomUUID(),
            expectedPrice: rublesToKopecks(shown),
          });
          const label = JSON.stringify({ sales, discount, shape });
          expect(result.ok, `${label}: ${result.ok ? "" : result.error}`).toBe(true);
          if (!result.ok) continue;
          expect(result.purchase.price, label).toBe(shown);
          const stored = await firstRow<{ sale_id: number | null; percent: number | null }>(
            "SELECT p.sale_id, s.percent FROM purchases p LEFT JOIN sales s ON s.id = p.sale_id WHERE p.transaction_id = ?",
            result.purchase.transaction_id,
          );
          // The page named a sale exactly when the purchase recorded one, the same one by its percent.
          expect(stored?.percent ?? null, label).toBe(page.sale?.percent ?? null);
          cases += 1;
        }
      }
    }
    expect(cases).toBe(saleSets.length * ownDiscounts.length * shapes.length);
    await expectBalancesMatchLedger([player.id]);
  });
});
