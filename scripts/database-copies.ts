// What `npm run db:backup` and `npm run db:restore` share: the embedded database file of
// DATABASE_URL, and a backup's checks.
import { existsSync } from "node:fs";
import { integrityCheck, openLibsqlFile } from "../worker/adapters/libsql.ts";
import { databaseFilePath } from "../worker/node/database-file.ts";
import { databaseUrlFromEnv } from "./libsql-env.ts";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
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
