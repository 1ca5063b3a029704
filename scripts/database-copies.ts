// What `npm run db:backup` and `npm run db:restore` share: the embedded database file of
// DATABASE_URL, and a backup's checks.
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { integrityCheck, openLibsqlFile } from "../worker/adapters/libsql.ts";
import { databaseAccessProblem, databaseFilePath } from "../worker/node/database-file.ts";
import {
  accessProblem,
  accountName,
  currentAccount,
  isAccessError,
  type Need,
  siteUserFor,
} from "../worker/node/file-access.ts";
import { databaseUrlFromEnv } from "./libsql-env.ts";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// A permission problem is answered with one line naming the fix (chmod when the mode is wrong,
// chown when the owner is), checked before anything is written; what slips past is still one line.

/** Any EACCES or EPERM no check foresaw: one line with its fix, not a stack. */
export function answerAccessErrors(): void {
  process.on("uncaughtException", (error) => {
    if (!isAccessError(error)) {
      console.error(error);
      process.exit(1);
    }
    // The file itself, or the folder it is made, renamed or removed in.
    for (const path of [resolve(error.path), dirname(resolve(error.path))]) {
      const problem = existsSync(path) ? accessProblem(path, "write") : null;
      if (problem !== null) fail(`${path} ${problem.reason}; ${problem.fix}.`);
    }
    fail(`${error.path}: ${error.code} (${error.syscall}) as user ${currentAccount().name}.`);
  });
}

/**
 * Backups and restores are the site's user's work: the user that owns the database's folder (the
 * README gives it data/ and backups/). Another user, root too (whose backups/ the site's user could
 * not write, nor the nightly timer), is told to run it as that one; a folder of root's is root's work.
 */
export function requireSiteUser(databasePath: string, command: string): void {
  const folder = dirname(resolve(databasePath));
  if (!existsSync(folder)) return;
  const { uid } = statSync(folder);
  const me = currentAccount();
  if (uid === 0 || me.uid === uid) return;
  const owner = accountName(uid);
  fail(
    `${folder} belongs to ${owner}, the site's user, not to ${me.name}: run it as ${owner}: sudo -u ${owner} ${command}`,
  );
}

/** Stops with one line when this user can't `need` the existing `path`. */
export function requireAccess(path: string, need: Need, what = path): void {
  const problem = accessProblem(path, need);
  if (problem !== null) fail(`${what} ${problem.reason}; ${problem.fix}.`);
}

/** Stops with one line when the database at `path` can't be opened by this user as SQLite needs. */
export function requireDatabaseAccess(path: string): void {
  const problem = databaseAccessProblem(path);
  if (problem !== null) fail(`${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`);
}

/** Stops with one line when files can't be made in the folder `folder`, or it can't be created. */
export function requireWritableFolder(folder: string, what: string): void {
  if (existsSync(folder)) {
    const problem = accessProblem(folder, "write", { folder });
    if (problem !== null) fail(`${what} ${problem.reason}; ${problem.fix}.`);
    return;
  }
  let parent = dirname(folder);
  while (!existsSync(parent)) parent = dirname(parent);
  const problem = accessProblem(parent, "write");
  if (problem !== null) {
    const siteUser = siteUserFor(folder);
    fail(
      `${what} doesn't exist and can't be made: ${parent} ${problem.reason}; ` +
        `make it for user ${siteUser}: sudo mkdir -p ${folder} && sudo chown ${siteUser} ${folder}.`,
    );
  }
}

/** The site's database file (DATABASE_URL from the environment or .env); a libSQL server has its own backups. */
export function siteDatabaseFile(): { url: string; path: string } {
  const url = databaseUrlFromEnv();
  const path = databaseFilePath(url);
  if (path === null) {
    fail(
      `DATABASE_URL is ${url}: backups here are of an embedded file (file:…). ` +
        "A libSQL server or Turso database is backed up with its own tools (sqld's snapshots, `turso db shell DB .dump`).",
    );
  }
  return { url, path };
}

export interface CheckedCopy {
  players: number;
  purchases: number;
  migrations: number;
}

/** Why a copy can't be used, in one line naming it. */
export class CopyProblem extends Error {}

/**
 * Opens a copy without changing a byte of it and checks it is a whole database of this site:
 * `PRAGMA integrity_check` says ok and the site's tables are there. `name` is how messages call it.
 */
export async function checkCopy(path: string, name = path): Promise<CheckedCopy> {
  const problem = (message: string): never => {
    throw new CopyProblem(message);
  };
  if (!existsSync(path)) problem(`${name}: no such file.`);
  const client = openLibsqlFile(path);
  try {
    const integrity = await integrityCheck(client).catch((error: Error) => error.message);
    if (integrity !== "ok")
      problem(`${name} is damaged or not a database: integrity_check says ${integrity.split("\n")[0]}`);
    const tables = await client.execute(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('__drizzle_migrations', 'users', 'purchases')",
    );
    if (Number(tables.rows[0]?.[0]) !== 3)
      problem(`${name} is a database, but not this site's (no users, purchases or migrations table).`);
    const counts = await client.execute(
      "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM purchases), (SELECT count(*) FROM __drizzle_migrations)",
    );
    const row = counts.rows[0];
    const [players, purchases, migrations] = [0, 1, 2].map((index) => Number(row?.[index] ?? 0));
    return { players: players ?? 0, purchases: purchases ?? 0, migrations: migrations ?? 0 };
  } finally {
    client.close();
  }
}

export const describeCopy = (copy: CheckedCopy) =>
  `integrity ok; ${copy.players} players, ${copy.purchases} purchases, ${copy.migrations} migrations applied`;
