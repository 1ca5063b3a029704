import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { accessProblem, currentAccount, siteUserFor } from "./file-access.ts";
import { SettingError } from "./settings.ts";

// The embedded database is a file the process must be able to write, with its folder: SQLite
// writes the -wal and -shm files beside it. Checked before opening it, so a unit running as
// another user than the one that migrated stops with what to run, instead of starting and
// failing every write with SQLITE_READONLY.

/** The file behind a `file:` DATABASE_URL (null for a libSQL server or `:memory:`). */
export function databaseFilePath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const path = url.slice("file:".length).split("?")[0] ?? "";
  return path && path !== ":memory:" ? path : null;
}

/**
 * The witness of the site's progress (decision 133), kept outside the database: beside the file, so
 * every instance on one file shares it; over a libSQL server, in this instance's data folder (each
 * instance keeps its own, and the one that finds a restore tells the others through the database).
 */
export function witnessPathFor(url: string): string {
  const path = databaseFilePath(url);
  if (path !== null) return `${path}.witness`;
  mkdirSync("data", { recursive: true });
  return resolve("data", "libsql-server.witness");
}

/** SQLite's companions of a database file in WAL mode. */
export const walFilesOf = (path: string) => [`${path}-wal`, `${path}-shm`];

/** An embedded database is created on first start: its folder must exist and be writable, and the file too. */
export function prepareFileDatabase(url: string): void {
  const path = databaseFilePath(url);
  if (path === null) return;
  const folder = dirname(resolve(path));
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const siteUser = siteUserFor(folder);
    throw new SettingError(
      `DATABASE_URL: can't create the folder ${folder} for ${url} as user ${currentAccount().name} (${codeOf(error)}); ` +
        `create it and give it to the site's user: sudo mkdir -p ${folder} && sudo chown ${siteUser} ${folder}`,
    );
  }
  const problem = databaseAccessProblem(path);
  if (problem !== null) throw new SettingError(`DATABASE_URL: ${problem}`);
}

/**
 * What keeps this user from writing the database at `path` (its folder, the file, its -wal and
 * -shm: SQLite writes them all, a reader too), as "the database file data/site.db can't be written
 * by user … ; <the fix>"; null when nothing does.
 */
export function databaseAccessProblem(path: string): string | null {
  const folder = dirname(resolve(path));
  for (const target of [folder, ...[path, ...walFilesOf(path)].filter((file) => existsSync(file))]) {
    // The folder and its files are the site user's: a wrong owner is fixed for all of them at once.
    const problem = accessProblem(target, "write", { folder });
    if (problem !== null) {
      const what = target === folder ? `the folder ${folder}` : `the database file ${target}`;
      return `${what} ${problem.reason}; ${problem.fix}`;
    }
  }
  return null;
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
