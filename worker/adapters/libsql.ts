import { type Client, createClient, type ResultSet } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import * as schema from "#db/schema.ts";
import type { Database, Orm, Statement, StatementResult } from "../ports/database.ts";
import type { KeyValueStore } from "../ports/key-value.ts";
import { type MigrationFile, type MigrationVersion, pendingOf, readMigrationFolder } from "./migration-files.ts";

// The only module that names libSQL: the ports over one libSQL database, which also holds what KV
// holds on Workers (table key_values).

export interface LibsqlOptions {
  /** `file:data/site.db`, `libsql://…` (Turso), `http(s)://…` or `ws(s)://…` (a libSQL server). */
  url: string;
  authToken?: string;
}

/** Another process may hold SQLite's write lock on a shared file for a moment; wait for it rather than fail. */
const BUSY_TIMEOUT_MS = 5_000;

export async function openLibsql({ url, authToken }: LibsqlOptions): Promise<Client> {
  if (!url.startsWith("file:")) return createClient({ url, authToken, intMode: "number" });
  // The embedded client runs every statement synchronously on the event loop, so a second
  // connection would never run beside the first; one connection keeps the settings below on
  // every statement.
  const client = createClient({ url, intMode: "number", timeout: BUSY_TIMEOUT_MS, concurrency: 1 });
  // A commit in SQLite's default rollback journal waits for several fsyncs, and on the event loop
  // that wait stops every other request (purchases ran at a third of the Worker's rate). WAL needs
  // one fsync a commit, and readers stop blocking the writer. synchronous stays FULL: a commit is on
  // the disk before we answer, so a deposit we acknowledged to the provider survives a power cut
  // (NORMAL would be faster still, but could lose a credit the provider won't notify again).
  if (!url.includes(":memory:")) await client.execute("PRAGMA journal_mode = WAL");
  await client.execute("PRAGMA synchronous = FULL");
  return client;
}

/**
 * A database file as it is, for a backup's checks: no journal-mode or other setting is written,
 * so a backup being checked stays byte for byte what it was. The file must exist (SQLite would
 * create an empty one).
 */
export function openLibsqlFile(path: string): Client {
  return createClient({ url: `file:${path}`, intMode: "number", concurrency: 1 });
}

// libSQL rows are array-like objects; the services expect D1's plain `{ column: value }` rows.
function plainRows(result: ResultSet): Record<string, unknown>[] {
  const { columns } = result;
  return result.rows.map((row) => {
    const plain: Record<string, unknown> = {};
    for (let index = 0; index < columns.length; index++) plain[columns[index] as string] = row[index];
    return plain;
  });
}

function toResult(result: ResultSet): StatementResult {
  return { rows: plainRows(result), changes: result.rowsAffected };
}

const toLibsql = (statement: Statement) => ({ sql: statement.sql, args: statement.params as never[] });

export function libsqlDatabase(client: Client): Database {
  return {
    orm: drizzle(client, { schema }) as unknown as Orm,
    async run<Row>(statement: Statement) {
      return toResult(await client.execute(toLibsql(statement))) as StatementResult<Row>;
    },
    async batch(statements) {
      if (statements.length === 0) return [];
      // "write" runs the batch as one transaction (BEGIN IMMEDIATE … COMMIT), as D1 does: a failed guard
      // rolls back all of it.
      return (await client.batch(statements.map(toLibsql), "write")).map(toResult);
    },
    async read(reads) {
      if (reads.length === 0) return [] as never;
      // "read": a read-only transaction, so the reads see one state and never wait for the write lock.
      return (await client.batch(reads.map(toLibsql), "read")).map(plainRows) as never;
    },
  };
}

export function libsqlKeyValueStore(client: Client, now: () => number = Date.now): KeyValueStore {
  return {
    async get(key) {
      const result = await client.execute({
        sql: "SELECT value FROM key_values WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)",
        args: [key, now()],
      });
      const value = result.rows[0]?.[0];
      return typeof value === "string" ? value : null;
    },
    async put(key, value, options) {
      const at = now();
      const expiresAt = options?.expirationTtlSeconds ? at + options.expirationTtlSeconds * 1000 : null;
      // The table holds a handful of keys; expired ones go whenever anything is written.
      await client.batch(
        [
          { sql: "DELETE FROM key_values WHERE expires_at IS NOT NULL AND expires_at <= ?", args: [at] },
          {
            sql:
              "INSERT INTO key_values (key, value, expires_at) VALUES (?, ?, ?) " +
              "ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
            args: [key, value, expiresAt],
          },
        ],
        "write",
      );
    },
    async delete(key) {
      await client.execute({ sql: "DELETE FROM key_values WHERE key = ?", args: [key] });
    },
    async list(prefix) {
      const result = await client.execute({
        sql: "SELECT key FROM key_values WHERE substr(key, 1, length(?)) = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key",
        args: [prefix, prefix, now()],
      });
      return result.rows.map((row) => String(row[0]));
    },
  };
}

/**
 * A key-value store in a SQLite file of its own, opened (and made) on first use. The payment
 * stand-in keeps its payments there on Node: an outside provider's data, which a restore of the
 * site's database must not take back (decision 135).
 */
export function libsqlKeyValueFile(path: string): KeyValueStore {
  let opened: Promise<KeyValueStore> | undefined;
  const open = async () => {
    const client = await openLibsql({ url: `file:${path}` });
    await client.execute(
      "CREATE TABLE IF NOT EXISTS key_values (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL, expires_at INTEGER)",
    );
    return libsqlKeyValueStore(client);
  };
  const store = () => {
    opened ??= open();
    return opened;
  };
  return {
    get: async (key, options) => (await store()).get(key, options),
    put: async (key, value, options) => (await store()).put(key, value, options),
    delete: async (key) => (await store()).delete(key),
    list: async (prefix) => (await store()).list(prefix),
  };
}

export function libsqlPorts(client: Client) {
  return { db: libsqlDatabase(client), kv: libsqlKeyValueStore(client) };
}

/** A migration that failed: one line naming it and SQLite's error; nothing of the run was applied. */
export class MigrationError extends Error {
  readonly migration: MigrationFile;
  readonly reason: string;
  constructor(migration: MigrationFile, reason: string, pending: number) {
    super(
      `migration ${migration.tag} (${migration.file}) failed: ${reason}; ` +
        `nothing was applied (${pending} migration${pending === 1 ? "" : "s"} still to apply)`,
    );
    this.name = "MigrationError";
    this.migration = migration;
    this.reason = reason;
  }
}

const MIGRATIONS_TABLE = "__drizzle_migrations";

/** The `__drizzle_migrations` rows: drizzle's hash and created_at (the journal's `when`) of each applied migration. */
async function appliedVersions(client: Client): Promise<MigrationVersion[]> {
  const table = await client.execute({
    sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
    args: [MIGRATIONS_TABLE],
  });
  if (table.rows.length === 0) return [];
  const result = await client.execute(`SELECT hash, created_at FROM ${MIGRATIONS_TABLE}`);
  return result.rows.map((row) => ({ sha256: String(row[0]), when: Number(row[1]) }));
}

/** The migrations in `folder` this database has not had yet (decision 120: by hash or `when`, current or earlier). */
export async function pendingMigrations(client: Client, folder: string): Promise<MigrationFile[]> {
  return pendingOf(readMigrationFolder(folder), await appliedVersions(client));
}

/**
 * Applies the migrations in `folder` this database has not had, all in one transaction (foreign
 * keys off, as drizzle's migrator runs them), each recorded in `__drizzle_migrations` as drizzle
 * records it. Answers the tags applied, in order. A failure rolls all of them back and is a
 * MigrationError naming the migration and SQLite's error.
 */
export async function migrateLibsql(client: Client, folder: string): Promise<string[]> {
  const pending = await pendingMigrations(client, folder);
  if (pending.length === 0) return [];
  await client.execute(
    `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
  );
  const statements: { sql: string; args: (string | number)[] }[] = [];
  const owners: MigrationFile[] = [];
  for (const migration of pending) {
    for (const sql of migration.statements) {
      statements.push({ sql, args: [] });
      owners.push(migration);
    }
    statements.push({
      sql: `INSERT INTO ${MIGRATIONS_TABLE} (hash, created_at) VALUES (?, ?)`,
      args: [migration.sha256, migration.when],
    });
    owners.push(migration);
  }
  try {
    await client.migrate(statements);
  } catch (error) {
    const index = (error as { statementIndex?: number }).statementIndex;
    const failed = index === undefined ? undefined : owners[index];
    if (failed === undefined) throw error;
    throw new MigrationError(failed, sqliteReason(error), pending.length);
  }
  return pending.map((migration) => migration.tag);
}

/** `SQLITE_ERROR: table sales already exists`: the code once, the message on one line. */
export function sqliteReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  let text = cause?.message ?? (error instanceof Error ? error.message : String(error));
  while (code && text.startsWith(`${code}: `)) text = text.slice(code.length + 2);
  return `${code ? `${code}: ` : ""}${text}`.replace(/\s*\n\s*/g, " ").trim();
}

/** `PRAGMA integrity_check`: "ok", or the problems it found, one a line. */
export async function integrityCheck(client: Client): Promise<string> {
  const result = await client.execute("PRAGMA integrity_check");
  return result.rows.map((row) => String(row[0])).join("\n");
}

/**
 * An online, consistent copy of the database into a new file at `path`: `VACUUM INTO` reads one
 * snapshot (writers go on meanwhile, in WAL mode) and writes a compact, self-contained file.
 */
export async function copyDatabaseInto(client: Client, path: string): Promise<void> {
  await client.execute({ sql: "VACUUM INTO ?", args: [path] });
}

/** Moves everything in the WAL into the database file and empties the WAL (a clean stop's last write). */
export async function checkpointWal(client: Client): Promise<void> {
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
}

const SOLE_HOLD_WAIT_MS = 3000;
const SOLE_HOLD_RETRY_MS = 100;

/**
 * Whether another connection (a running server, a script) has this database file open. Leaving WAL
 * mode needs the file to itself, so SQLite refuses it with SQLITE_BUSY while anyone else holds it;
 * the lock is the operating system's, so it is gone when its holder dies, even by SIGKILL. When
 * nobody does, the file is left in rollback-journal mode with the WAL folded in: self-contained.
 *
 * The exclusive lock that leaving WAL takes is asked once, without SQLite's busy handler
 * (`pagerExclusiveLock` in pager.c), so `busy_timeout` doesn't wait for it: it is asked again for a
 * few seconds, for a site stopped a moment ago, then the answer stands. Note that @libsql/client's
 * close() lets go of the file only when the garbage collector frees it: a process that opened the
 * database and closed it may still hold it (the tests read through node:sqlite for that reason).
 */
export async function takeSoleHold(client: Client): Promise<boolean> {
  await client.execute(`PRAGMA busy_timeout = ${SOLE_HOLD_WAIT_MS}`);
  const deadline = Date.now() + SOLE_HOLD_WAIT_MS;
  for (;;) {
    if (await leftWal(client)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((done) => setTimeout(done, SOLE_HOLD_RETRY_MS));
  }
}

async function leftWal(client: Client): Promise<boolean> {
  try {
    const result = await client.execute("PRAGMA journal_mode = DELETE");
    return String(result.rows[0]?.[0]).toLowerCase() === "delete";
  } catch (error) {
    if (/SQLITE_BUSY|database is locked/i.test(String((error as Error).message))) return false;
    throw error;
  }
}
