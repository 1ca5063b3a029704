// The database an operator script runs its SQL on: the Node server's libSQL database with
// --libsql or DATABASE_URL set (in the environment or in .env, as the server reads it), otherwise D1 through
// `wrangler d1 execute` (local, or --remote). Both give back plain `{ column: value }` rows, so a
// script prints the same whichever it ran on.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export type Row = Record<string, unknown>;

export interface SqlTargetOptions {
  libsql?: boolean;
  remote?: boolean;
  /** wrangler's --persist-to, for the local D1. */
  persistTo?: string;
  /** wrangler's --env. */
  env?: string;
}

export interface SqlTarget {
  /** How messages name it: "the local database", "the remote database" or the libSQL URL. */
  where: string;
  /** Runs one statement and returns its rows; on failure prints why and exits 1. */
  query(sql: string): Promise<Row[]>;
  /**
   * Runs statements in order, as one transaction on libSQL (on D1, as one `wrangler d1 execute`);
   * answers how many rows each changed. On failure prints why and exits 1.
   */
  batch(sqls: string[]): Promise<number[]>;
  close(): void;
}

/** The option every operator script accepts to choose libSQL without setting DATABASE_URL. */
export const libsqlOption = { libsql: { type: "boolean", default: false } } as const;

export async function openSqlTarget(options: SqlTargetOptions): Promise<SqlTarget> {
  if (options.libsql && options.remote) {
    console.error("--libsql and --remote choose different databases; give one.");
    process.exit(1);
  }
  // The owner of a Node server keeps DATABASE_URL in .env, as the server reads it.
  if (existsSync(".env")) process.loadEnvFile(".env");
  // An explicit --remote means the D1 database even if the shell has DATABASE_URL for the Node server.
  if (options.libsql || (process.env.DATABASE_URL && !options.remote)) return openLibsqlTarget();
  return wranglerTarget(options);
}

async function openLibsqlTarget(): Promise<SqlTarget> {
  // Loaded only here, so the wrangler path needs no libSQL client.
  const { libsqlDatabaseFromEnv } = await import("./libsql-env.ts");
  const { client, url } = await libsqlDatabaseFromEnv();
  return {
    where: url,
    async query(sql) {
      try {
        const result = await client.execute(sql);
        return result.rows.map((row) =>
          Object.fromEntries(result.columns.map((column, index) => [column, row[index]])),
        );
      } catch (error) {
        console.error(`libSQL statement failed: ${(error as Error).message}`);
        process.exit(1);
      }
    },
    async batch(sqls) {
      try {
        return (await client.batch(sqls, "write")).map((result) => result.rowsAffected);
      } catch (error) {
        console.error(`libSQL statements failed: ${(error as Error).message}`);
        process.exit(1);
      }
    },
    close: () => client.close(),
  };
}

function wranglerTarget(options: SqlTargetOptions): SqlTarget {
  const target = options.remote
    ? ["--remote", ...(options.env ? ["--env", options.env] : [])]
    : [
        "--local",
        "--yes",
        ...(options.persistTo ? ["--persist-to", options.persistTo] : []),
        ...(options.env ? ["--env", options.env] : []),
      ];
  const run = (sql: string) => {
    let output: string;
    try {
      output = execFileSync(
        join("node_modules", ".bin", "wrangler"),
        ["d1", "execute", "DB", ...target, "--json", "--command", sql],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
          env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
        },
      );
    } catch (error) {
      // wrangler printed the reason (e.g. a UNIQUE ip_port) on stderr; its JSON error is on stdout.
      const stdout = (error as { stdout?: string }).stdout;
      console.error(`wrangler d1 execute failed${stdout ? `:\n${stdout.trim()}` : "."}`);
      process.exit(1);
    }
    return JSON.parse(output) as { results?: Row[]; meta?: { changes?: number } }[];
  };
  return {
    where: options.remote ? "the remote database" : "the local database",
    async batch(sqls) {
      return run(sqls.join(";\n")).map((statement) => statement.meta?.changes ?? 0);
    },
    async query(sql) {
      return run(sql).flatMap((statement) => statement.results ?? []);
    },
    close: () => {},
  };
}
