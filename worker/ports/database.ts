import { type SQL, sql } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { type BaseSQLiteDatabase, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type * as schema from "#db/schema.ts";

/**
 * Drizzle over the site's SQLite database, whichever runtime serves it. Reads and single writes
 * use it directly; its `batch` is for reads that should share one round trip.
 */
export type Orm = BaseSQLiteDatabase<"async", unknown, typeof schema> & {
  batch<U extends BatchItem<"sqlite">, T extends Readonly<[U, ...U[]]>>(batch: T): Promise<BatchResponse<T>>;
};

/** One parameterised statement, as the database receives it. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface StatementResult<Row = Record<string, unknown>> {
  rows: Row[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** The database port: the services' only way to the data. */
export interface Database {
  readonly orm: Orm;
  run<Row = Record<string, unknown>>(statement: Statement): Promise<StatementResult<Row>>;
  /**
   * Runs the statements as one transaction: all of them or none. Every money movement is one such
   * batch whose guards live in SQL (CHECK, UNIQUE, NOT NULL), so a failed guard aborts all of it.
   */
  batch(statements: readonly Statement[]): Promise<StatementResult[]>;
}

const dialect = new SQLiteAsyncDialect();

/** A statement from a drizzle `sql` template or a drizzle query builder. */
export function statement(query: SQL | { toSQL(): { sql: string; params: unknown[] } }): Statement {
  const built = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return { sql: built.sql, params: built.params };
}

/** Raw SQL spliced into a `sql` template, for fragments that are constants of our own. */
export const rawSql = (text: string): SQL => sql.raw(text);

export interface ConstraintViolation {
  kind: "UNIQUE" | "NOT NULL" | "CHECK" | "FOREIGN KEY";
  /** `table.column` for UNIQUE and NOT NULL, the constraint's name for CHECK. */
  target: string;
}

/**
 * Which SQL guard aborted a batch, read from the error and its causes (drivers and drizzle wrap
 * SQLite's message), or null when the failure was something else.
 */
export function constraintViolation(error: unknown): ConstraintViolation | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    const match = /(UNIQUE|NOT NULL|CHECK|FOREIGN KEY) constraint failed:?\s*([\w.]*)/.exec(message);
    if (match) return { kind: match[1] as ConstraintViolation["kind"], target: match[2] ?? "" };
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}
