import { describe, expect, it } from "vitest";
import { MAX_SALE_PERCENT, MAX_WIPE_SALE_HOURS } from "#core/shop/sales.ts";
import { raw, runBatch } from "#tests/support/sql.ts";

// The forms' bounds (core/schemas/sale.ts) and the database's checks are one number each: the
// schema's checks are written from MAX_SALE_PERCENT and MAX_WIPE_SALE_HOURS, and this holds the
// migrated database to them, so a change of the constant without a migration fails here.

const insertSale = (percent: number) =>
  runBatch([raw("INSERT INTO sales (title, percent, starts_at, ends_at) VALUES ('t', ?, 1, 2)", percent)]);
const insertWipeSale = (percent: number, hours: number) =>
  runBatch([raw("INSERT INTO wipe_sales (title, percent, hours) VALUES ('t', ?, ?)", percent, hours)]);

describe("a sale's bounds in the database", () => {
  it("takes MAX_SALE_PERCENT off and refuses one percent more, dated or at each wipe", async () => {
    await expect(insertSale(MAX_SALE_PERCENT)).resolves.toBeUndefined();
    await expect(insertSale(MAX_SALE_PERCENT + 1)).rejects.toThrow(/CHECK/);
    await expect(insertWipeSale(MAX_SALE_PERCENT, 1)).resolves.toBeUndefined();
    await expect(insertWipeSale(MAX_SALE_PERCENT + 1, 1)).rejects.toThrow(/CHECK/);
  });

  it("keeps a wipe sale's window to MAX_WIPE_SALE_HOURS", async () => {
    await expect(insertWipeSale(10, MAX_WIPE_SALE_HOURS)).resolves.toBeUndefined();
    await expect(insertWipeSale(10, MAX_WIPE_SALE_HOURS + 1)).rejects.toThrow(/CHECK/);
  });
});
