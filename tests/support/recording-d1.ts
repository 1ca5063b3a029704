// D1's side of recording-database.ts: every statement through the binding, with D1's own counters.
import { push, type RecordedStatement, type StatementLog } from "./recording-database.ts";

const RECORDED = Symbol("recorded statement");

interface Tagged {
  [RECORDED]: { sql: string; params: unknown[] };
}

const d1Record = (
  statement: { sql: string; params: unknown[] },
  meta: D1Meta | undefined,
  rows: number,
): RecordedStatement => ({
  ...statement,
  rowsRead: meta?.rows_read ?? null,
  rowsWritten: meta?.rows_written ?? null,
  changes: meta?.changes ?? rows,
});

function recordingPrepared(
  prepared: D1PreparedStatement,
  statement: { sql: string; params: unknown[] },
  log: StatementLog,
): D1PreparedStatement {
  const wrapped = {
    [RECORDED]: statement,
    bind: (...params: unknown[]) => recordingPrepared(prepared.bind(...params), { sql: statement.sql, params }, log),
    async all<T>() {
      const result = await prepared.all<T>();
      push(log, d1Record(statement, result.meta, 0));
      return result;
    },
    async run<T>() {
      const result = await prepared.run<T>();
      push(log, d1Record(statement, result.meta, 0));
      return result;
    },
    async first<T>(column?: string) {
      // Read through all(), which carries the counters; first() is all()'s first row.
      const result = await prepared.all<Record<string, unknown>>();
      push(log, d1Record(statement, result.meta, 0));
      const row = result.results[0];
      if (row === undefined) return null;
      return (column === undefined ? row : row[column]) as T;
    },
    async raw<T>(options?: { columnNames?: boolean }) {
      // Drizzle reads its selects as arrays; all() carries the counters and its objects keep the
      // columns' order (Drizzle's own D1 batch turns them into arrays the same way).
      const result = await prepared.all<Record<string, unknown>>();
      push(log, d1Record(statement, result.meta, 0));
      const rows = result.results.map((row) => Object.values(row));
      const names = result.results[0] ? Object.keys(result.results[0]) : [];
      return (options?.columnNames ? [names, ...rows] : rows) as T[];
    },
  };
  return wrapped as unknown as D1PreparedStatement;
}

/** `d1` with every statement and batch recorded in `log`, with D1's counters. */
export function recordingD1(d1: D1Database, log: StatementLog): D1Database {
  return new Proxy(d1, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (sql: string) => recordingPrepared(target.prepare(sql), { sql, params: [] }, log);
      }
      if (property === "batch") {
        return async <T>(statements: D1PreparedStatement[]) => {
          const inner = statements.map((statement) => {
            const { sql, params } = (statement as unknown as Tagged)[RECORDED];
            return target.prepare(sql).bind(...params);
          });
          const results = await target.batch<T>(inner);
          results.forEach((result, index) => {
            const recorded = (statements[index] as unknown as Tagged)[RECORDED];
            push(log, d1Record(recorded, result.meta, 0));
          });
          return results;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
