import { type SQL, sql } from "drizzle-orm";
import { CSV_LINE_END, CSV_SEPARATOR } from "#core/admin/csv.ts";

// The CSV cells of core/admin/csv.ts written in SQL, so the database formats an export's rows and the
// Worker only passes one string per page along (decision 110, run 9 in PERFORMANCE.md). Each
// function here gives exactly what its namesake there gives; tests/csv-cells.test.ts holds them to it.

/** csvText: empty for NULL and '', a formula's first character guarded by `'`, quoted when it must be. */
export function sqlText(value: SQL): SQL {
  const guarded = sql`(CASE WHEN substr(${value}, 1, 1) IN ('=', '+', '-', '@', char(9), char(13))
    THEN '''' || ${value} ELSE ${value} END)`;
  return sql`(CASE WHEN ${value} IS NULL OR ${value} = '' THEN ''
    WHEN instr(${value}, ';') > 0 OR instr(${value}, '"') > 0 OR instr(${value}, char(13)) > 0 OR instr(${value}, char(10)) > 0
    THEN '"' || replace(${guarded}, '"', '""') || '"'
    ELSE ${guarded} END)`;
}

/** csvInteger: the whole number as is, empty for NULL. */
export function sqlInteger(value: SQL): SQL {
  return sql`COALESCE(CAST(CAST(${value} AS INTEGER) AS TEXT), '')`;
}

/** csvRubles: kopecks as rubles with a decimal comma and two decimals, empty for NULL. */
export function sqlRubles(kopecks: SQL): SQL {
  return sql`(CASE WHEN ${kopecks} IS NULL THEN '' ELSE
    (CASE WHEN ${kopecks} < 0 THEN '-' ELSE '' END) || (abs(CAST(${kopecks} AS INTEGER)) / 100) || ','
    || printf('%02d', abs(CAST(${kopecks} AS INTEGER)) % 100) END)`;
}

/** csvMoment: ms since the epoch as ISO 8601 in Moscow time («2026-11-22T15:00:00+03:00»), empty for NULL. */
export function sqlMoment(ms: SQL): SQL {
  return sql`(CASE WHEN ${ms} IS NULL THEN '' ELSE
    strftime('%Y-%m-%dT%H:%M:%S', CAST(${ms} AS INTEGER) / 1000, 'unixepoch', '+3 hours') || '+03:00' END)`;
}

/**
 * A constant of ours as an SQL string literal. The cells repeat their value many times, so bound
 * labels would multiply past D1's 100 parameters a query; literals cost none.
 */
function literal(text: string): SQL {
  return sql.raw(`'${text.replaceAll("'", "''")}'`);
}

/** A code shown by its Russian label (an unknown code as itself), as a text cell. */
export function sqlLabel(code: SQL, labels: Readonly<Record<string, string>>): SQL {
  const cases = Object.entries(labels).map(([key, label]) => sql` WHEN ${literal(key)} THEN ${literal(label)}`);
  return sqlText(sql`(CASE ${code}${sql.join(cases)} ELSE ${code} END)`);
}

const LINE_END = sql.raw([...CSV_LINE_END].map((char) => `char(${char.charCodeAt(0)})`).join(" || "));

/** csvLine: the cells between separators and the line's end. */
export function sqlLine(cells: readonly SQL[]): SQL {
  return sql`(${sql.join([...cells], sql` || ${literal(CSV_SEPARATOR)} || `)} || ${LINE_END})`;
}
