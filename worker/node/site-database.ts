import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Client } from "@libsql/client";
import { MigrationError, migrateLibsql, openLibsql, pendingMigrations } from "../adapters/libsql.ts";
import { databaseFilePath, prepareFileDatabase } from "./database-file.ts";
import { accessProblem } from "./file-access.ts";
import { type NodeSettings, SettingError } from "./settings.ts";

/** A libSQL server that doesn't answer in this long is as good as down. */
const REACH_TIMEOUT_MS = 10_000;

/**
 * The site's database, opened and checked before the server listens: a folder and file this user
 * can write, a server that answers, and every migration of this version applied (or applied now
 * with MIGRATE_ON_START=1, each logged as one line). Anything else is a SettingError naming the
 * fix: a site that answers 500 on every page, or fails every write, must not look up.
 */
export async function openSiteDatabase(
  settings: NodeSettings,
  migrationsFolder: string,
  log: (line: string) => void = console.log,
): Promise<Client> {
  const { url } = settings.database;
  prepareFileDatabase(url);
  let client: Client;
  try {
    client = await openLibsql(settings.database);
    await reach(client);
  } catch (error) {
    if (error instanceof SettingError) throw error;
    throw new SettingError(databaseProblem(url, error));
  }
  try {
    if (settings.migrateOnStart) {
      const applied = await migrateLibsql(client, migrationsFolder);
      for (const migration of applied) log(JSON.stringify({ event: "migration_applied", migration }));
      if (applied.length === 0) log(JSON.stringify({ event: "migrations_none_to_apply" }));
      return client;
    }
    const pending = (await pendingMigrations(client, migrationsFolder)).length;
    if (pending > 0) {
      throw new SettingError(
        `the database (${url}) lacks ${pending} migration${pending === 1 ? "" : "s"} of this version: ` +
          "run `npm run db:migrate` (back it up first: `npm run db:backup -- FILE`), or set MIGRATE_ON_START=1 to apply them at start",
      );
    }
    return client;
  } catch (error) {
    client.close();
    if (error instanceof SettingError) throw error;
    if (error instanceof MigrationError) {
      throw new SettingError(
        `MIGRATE_ON_START: the database (${url}) can't be migrated: ${error.message}; ` +
          "run the previous version meanwhile (README: Upgrading, roll back)",
      );
    }
    throw new SettingError(databaseProblem(url, error));
  }
}

async function reach(client: Client): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer in ${REACH_TIMEOUT_MS / 1000} s`)), REACH_TIMEOUT_MS);
  });
  try {
    await Promise.race([client.execute("SELECT 1"), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One line on why the database can't be used, with what to do. */
function databaseProblem(url: string, error: unknown): string {
  const reason = reasonOf(error);
  const path = databaseFilePath(url);
  if (path === null) {
    return `DATABASE_URL: can't reach the libSQL server at ${url} (${reason}); start it, or check the address and DATABASE_AUTH_TOKEN`;
  }
  if (/READONLY|read-only|readonly/i.test(reason)) {
    // The file, its write-ahead log or its folder: whichever this user can't write names the fix
    // (chmod for a wrong mode, chown for a wrong owner), not a guess.
    const folder = dirname(path);
    for (const file of [path, `${path}-wal`, `${path}-shm`, folder]) {
      if (!existsSync(file)) continue;
      const problem = accessProblem(file, "write", { folder });
      if (problem) return `DATABASE_URL: ${file} ${problem.reason}; ${problem.fix}`;
    }
    return `DATABASE_URL: ${path} can't be written (${reason})`;
  }
  return `DATABASE_URL: can't open ${path} (${reason})`;
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return text.replace(/\s*\n\s*/g, " ").trim();
}
