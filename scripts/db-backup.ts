// `npm run db:backup -- FILE`: an online, consistent copy of the Node server's embedded database
// (DATABASE_URL, from the environment or .env; default file:data/site.db) into FILE, taken through
// libSQL while the site runs (`VACUUM INTO` reads one snapshot; purchases go on meanwhile), then
// checked. No sqlite3 tool needed. FILE must not exist yet: a backup never overwrites one.
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { copyDatabaseInto, openLibsql } from "../worker/adapters/libsql.ts";
import {
  answerAccessErrors,
  CopyProblem,
  checkCopy,
  describeCopy,
  fail,
  requireDatabaseAccess,
  requireSiteUser,
  requireWritableFolder,
  siteDatabaseFile,
} from "./database-copies.ts";

answerAccessErrors();

const usage = `Usage: npm run db:backup -- FILE
Copies the site's database (DATABASE_URL, also read from .env; default file:data/site.db) into
FILE while the site runs, then checks the copy (PRAGMA integrity_check). FILE must not exist.
Restore it with: npm run db:restore -- FILE`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { help: { type: "boolean", short: "h", default: false } },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const [target] = positionals;
if (!target || positionals.length > 1) fail(`Give one file to write the backup to.\n\n${usage}`);

const { url, path } = siteDatabaseFile();
if (!existsSync(path)) fail(`There is no database at ${path} (DATABASE_URL=${url}) to back up.`);
requireSiteUser(path, `npm run db:backup -- ${target}`);
requireDatabaseAccess(path);
const file = resolve(target);
if (existsSync(file)) fail(`${target} already exists; a backup never overwrites a file. Choose a new name.`);
requireWritableFolder(dirname(file), `The backups' folder ${dirname(file)}`);
mkdirSync(dirname(file), { recursive: true });

// Written under another name and renamed once checked, so FILE is only ever a whole, checked copy.
const partial = `${file}.partial`;
rmSync(partial, { force: true });
const client = await openLibsql({ url });
try {
  await copyDatabaseInto(client, partial);
} catch (error) {
  rmSync(partial, { force: true });
  fail(`The copy failed: ${(error as Error).message}`);
} finally {
  client.close();
}
const copy = await checkCopy(partial, `The copy (${partial})`).catch((error) => {
  rmSync(partial, { force: true });
  if (error instanceof CopyProblem) fail(`${error.message} Nothing was kept; try again.`);
  throw error;
});
// Players' Steam ids, balances and history: readable by the site's user only.
chmodSync(partial, 0o600);
renameSync(partial, file);
console.log(`Backed up ${path} to ${target} (${Math.ceil(statSync(file).size / 1024)} KB; ${describeCopy(copy)}).`);
