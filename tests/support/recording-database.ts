// Every statement the site sends to its database, recorded under the port by wrapping the driver
// itself (libSQL's client here, D1's binding in recording-d1.ts), so Drizzle's queries are caught
// with the hand-written ones. On D1 each statement carries D1's own counters (`meta.rows_read`,
// `meta.rows_written`, what the bill counts); libSQL reports only the rows a write changed
// (`rowsAffected`). Used by the query-plan guard (tests/runtime/node/query-plans.test.ts) and the
// rows bench (bench/rows/).
import type { Client, InStatement, ResultSet } from "@libsql/client";

export interface RecordedStatement {
  sql: string;
  params: unknown[];
  /** D1's `meta.rows_read`; null where the driver doesn't say (libSQL). */
  rowsRead: number | null;
  /** D1's `meta.rows_written`; null where the driver doesn't say (libSQL). */
  rowsWritten: number | null;
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface StatementLog {
  statements: RecordedStatement[];
  /** Whether statements are being recorded now (fixtures set up between measurements are not). */
  on: boolean;
}

export const statementLog = (): StatementLog => ({ statements: [], on: true });

export function push(log: StatementLog, statement: RecordedStatement) {
  if (log.on) log.statements.push(statement);
}

// ---- libSQL ---------------------------------------------------------------

function libsqlStatement(statement: InStatement, args?: unknown): { sql: string; params: unknown[] } {
  if (typeof statement === "string") return { sql: statement, params: Array.isArray(args) ? args : [] };
  const given = (statement as { args?: unknown }).args;
  return { sql: statement.sql, params: Array.isArray(given) ? given : [] };
}

const libsqlRecord = (statement: { sql: string; params: unknown[] }, result: ResultSet): RecordedStatement => ({
  ...statement,
  rowsRead: null,
  rowsWritten: null,
  changes: result.rowsAffected,
});

/** `client` with every execute and batch recorded in `log`. */
export function recordingLibsql(client: Client, log: StatementLog): Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "execute") {
        return async (statement: InStatement, args?: unknown) => {
          const result = await (target.execute as (s: InStatement, a?: unknown) => Promise<ResultSet>)(statement, args);
          push(log, libsqlRecord(libsqlStatement(statement), result));
          return result;
        };
      }
      if (property === "batch") {
        return async (statements: InStatement[], mode?: Parameters<Client["batch"]>[1]) => {
          const results = await target.batch(statements, mode);
          results.forEach((result, index) => {
            push(log, libsqlRecord(libsqlStatement(statements[index] as InStatement), result));
          });
          return results;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
