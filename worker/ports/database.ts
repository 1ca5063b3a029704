import { is, Placeholder, type SQL, sql } from "drizzle-orm";
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

/**
 * A read whose SQL is fixed text, written once: a request only binds its parameters. Drizzle's query
 * building was a tenth of a signed-in page's CPU (docs/PERFORMANCE.md run 11), so the reads every
 * signed-in page makes (the session, and what rides in its round trip) are written this way.
 * `Row` names the columns' aliases; the rows come back as plain `{ alias: value }` objects.
 */
export interface Read<Row> extends Statement {
  /** Never set: carries the row's type. */
  readonly row?: Row;
}

/** A fixed read: `sql` is a constant of ours, `params` what this request binds to it. */
export function read<Row>(sql: string, params: readonly unknown[] = []): Read<Row> {
  return { sql, params };
}

/** The rows of each read of a tuple of reads. */
export type RowsOf<T extends readonly Read<unknown>[]> = {
  [K in keyof T]: T[K] extends Read<infer Row> ? Row[] : never;
};

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
  /** Reads sent in one round trip, seeing one state of the data; no write lock is taken. */
  read<T extends readonly Read<unknown>[]>(reads: T): Promise<RowsOf<T>>;
}

const dialect = new SQLiteAsyncDialect();

/** A statement from a drizzle `sql` template or a drizzle query builder. */
export function statement(query: SQL | { toSQL(): { sql: string; params: unknown[] } }): Statement {
  const built = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return { sql: built.sql, params: built.params };
}

/**
 * A value a request binds to a `compiled` statement, in a drizzle `sql` template where the value would go.
 * It renders as the value's own `?` does, so the text is the one the value would have given.
 */
export const slot = (name: string): SQL => sql`${sql.placeholder(name)}`;

/** A statement whose text was built once: `bind` gives it with one request's values in its `slot`s. */
export interface Compiled<Values extends Record<string, unknown>> {
  bind(values: Values): Statement;
}

/**
 * Compiles a statement whose per-request values are `slot`s, once: drizzle's query building is then
 * not repeated on every request, only the parameters are filled in (docs/PERFORMANCE.md run 13).
 */
export function compiled<Values extends Record<string, unknown>>(built: Statement): Compiled<Values> {
  const names = built.params.map((param) => (is(param, Placeholder) ? (param as Placeholder<string>).name : null));
  return {
    bind(values) {
      const params = built.params.map((param, index) => {
        const name = names[index];
        if (name == null) return param;
        if (!(name in values)) throw new Error(`no value for the slot ${name}`);
        return values[name];
      });
      return { sql: built.sql, params };
    },
  };
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
