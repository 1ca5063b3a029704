import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, resolve } from "node:path";
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
    throw new SettingError(
      `DATABASE_URL: can't create the folder ${folder} for ${url} as user ${currentUser()} (${codeOf(error)}); ` +
        `create it and give it to this user: mkdir -p ${folder} && chown ${currentUser()} ${folder}`,
    );
  }
  for (const target of [folder, ...[path, ...walFilesOf(path)].filter((file) => existsSync(file))]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = codeOf(error);
      const what = target === folder ? `the folder ${folder}` : `the database file ${target}`;
      throw new SettingError(
        code === "EROFS"
          ? `DATABASE_URL: ${what} is on a read-only file system; the site writes there (with systemd's ProtectSystem, list it in ReadWritePaths=)`
          : `DATABASE_URL: ${what} can't be written by user ${currentUser()} (it belongs to ${ownerOf(target)}); ` +
              `give the folder and its files to the user the site runs as: chown -R ${currentUser()} ${folder}`,
      );
    }
  }
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? "?"}`;
  }
}

/** "root, mode 644": who owns the file, by name when /etc/passwd knows the uid. */
function ownerOf(path: string): string {
  const { uid, mode } = statSync(path);
  let name = `uid ${uid}`;
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[2] === String(uid));
    if (line) name = line.split(":")[0] ?? name;
  } catch {
    // no passwd file: the uid will do
  }
  return `${name}, mode ${(mode & 0o777).toString(8)}`;
}
