// Tiny helpers to write seed rows as SQL that both wrangler (local D1 files)
// and the tests (env.DB) can run.

export type SqlValue = string | number | boolean | null | undefined;

export function sqlLiteral(value: SqlValue): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** INSERT OR REPLACE one row: seeds use fixed ids, so running them twice changes nothing. */
export function upsert(table: string, row: Record<string, SqlValue>): string {
  const columns = Object.keys(row);
  const values = columns.map((column) => sqlLiteral(row[column]));
  return `INSERT OR REPLACE INTO ${table} (${columns.join(", ")}) VALUES (${values.join(", ")});`;
}
