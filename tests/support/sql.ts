// Raw SQL for tests through the Database port, so a test reads and writes the same way on D1 and on
// libSQL. Placeholders are `?` or `?N`.
import type { Statement } from "#worker/ports/database.ts";
import { batchChangingCatalog } from "#worker/services/shop/catalog-snapshot.ts";
import { testDeps } from "./deps.ts";

export const raw = (sql: string, ...params: unknown[]): Statement => ({ sql, params });

export async function rows<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]> {
  return (await testDeps().db.run<Row>(raw(sql, ...params))).rows;
}

export async function firstRow<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row | null> {
  return (await rows<Row>(sql, ...params))[0] ?? null;
}

/**
 * Statements as one transaction, as the services' batches run. A test's write is one this process
 * made, so the catalog kept in memory is checked again on the next read, as after the site's own
 * writes (decision 116); tests/catalog-snapshot.test.ts writes past it to show a write made elsewhere.
 */
export async function runBatch(statements: Statement[]): Promise<void> {
  await batchChangingCatalog(testDeps().db, statements);
}
