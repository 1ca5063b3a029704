import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { csvInteger, csvLine, csvMoment, csvRubles, csvText } from "#core/admin/csv.ts";
import { testDeps } from "#tests/support/deps.ts";
import { statement } from "#worker/ports/database.ts";
import { sqlInteger, sqlLabel, sqlLine, sqlMoment, sqlRubles, sqlText } from "#worker/services/admin/csv-cells.ts";

// The exports format their cells in SQL (csv-cells.ts); each cell must be exactly what the
// functions of core/admin/csv.ts, the rules of decision 110, make of the same value.

const deps = testDeps();

async function cell(expression: SQL): Promise<string> {
  const { rows } = await deps.db.run<{ cell: string }>(statement(sql`SELECT ${expression} AS cell`));
  return rows[0]?.cell ?? "(no row)";
}

const value = (v: unknown) => sql`${v}`;

describe("CSV cells made by the database", () => {
  it("texts: empty, plain, Cyrillic, formulas guarded, separators, quotes and line breaks quoted", async () => {
    const texts = [null, "", "abc", "Игрок «Ёж»", "=SUM(A1)", "+7 999", "-5", "@x", "\tx", "\rx", 'a"b', "a;b"];
    for (const text of [...texts, "line\nbreak", '-a;b"', "'quoted'", " lead", "x=1"]) {
      expect(await cell(sqlText(value(text))), JSON.stringify(text)).toBe(csvText(text));
    }
  });

  it("whole numbers and rubles with a decimal comma, negative ones too", async () => {
    for (const n of [null, 0, 5, -3, 123_456_789]) {
      expect(await cell(sqlInteger(value(n))), String(n)).toBe(csvInteger(n));
    }
    for (const kopecks of [null, 0, 5, 99, 100, 12_345, -1, -12_550, 1_000_000_000]) {
      expect(await cell(sqlRubles(value(kopecks))), String(kopecks)).toBe(csvRubles(kopecks));
    }
  });

  it("moments in Moscow time, milliseconds dropped as the ISO text drops them", async () => {
    const moments = [
      null,
      0,
      1_764_000_000_123,
      1_764_000_000_999,
      1_764_000_000_123.7,
      1_735_678_799_999,
      1_735_678_800_000,
    ];
    for (const ms of moments) {
      expect(await cell(sqlMoment(value(ms))), String(ms)).toBe(csvMoment(ms));
    }
  });

  it("labels, an unknown code as itself, and a whole line", async () => {
    const labels = { pending: "В обработке", odd: "=формула; «с кавычками»" };
    expect(await cell(sqlLabel(value("pending"), labels))).toBe(csvText("В обработке"));
    expect(await cell(sqlLabel(value("odd"), labels))).toBe(csvText(labels.odd));
    expect(await cell(sqlLabel(value("new_code"), labels))).toBe(csvText("new_code"));
    const line = sqlLine([sqlText(value("a;b")), sqlRubles(value(-150)), sqlInteger(value(null))]);
    expect(await cell(line)).toBe(csvLine([csvText("a;b"), csvRubles(-150), csvInteger(null)]));
  });
});
