// `npm run db:restore -- FILE`: puts a backup made by `npm run db:backup` in place of the Node
// server's embedded database (DATABASE_URL, from the environment or .env; default
// file:data/site.db). Refused while anything holds the database open (the server, a script): the
// site must be stopped first. The backup is checked before anything changes; the current database
// is kept beside it as <file>.before-restore-<time>, and the -wal/-shm files of the old one are
// removed, so SQLite can't pair the restored file with the old file's log.
import { chownSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openLibsqlFile, takeSoleHold } from "../worker/adapters/libsql.ts";
import { walFilesOf } from "../worker/node/database-file.ts";
import { holdersOf } from "../worker/node/file-holders.ts";
import { RESTORE_MARKER_KEY } from "../worker/services/payments/restore-marker.ts";
import {
  answerAccessErrors,
  CopyProblem,
  checkCopy,
  describeCopy,
  fail,
  requireAccess,
  requireSiteUser,
  requireWritableFolder,
  siteDatabaseFile,
} from "./database-copies.ts";

answerAccessErrors();

const usage = `Usage: npm run db:restore -- FILE
Stop the site first. Checks the backup FILE (PRAGMA integrity_check), keeps the current database
as <database>.before-restore-<time>, removes its -wal and -shm files and puts the backup in its
place (DATABASE_URL, also read from .env; default file:data/site.db).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { help: { type: "boolean", short: "h", default: false } },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const [backup] = positionals;
if (!backup || positionals.length > 1) fail(`Give the backup file to restore.\n\n${usage}`);
if (!existsSync(backup)) fail(`${backup}: no such file.`);

const { path } = siteDatabaseFile();
requireSiteUser(path, `npm run db:restore -- ${backup}`);
requireAccess(backup, "read");
requireWritableFolder(dirname(resolve(path)), `The database's folder ${dirname(resolve(path))}`);
mkdirSync(dirname(path), { recursive: true });

// The backup is copied next to the database first and the copy checked: what is checked is what
// goes in place, and the rename at the end is atomic on one file system.
const incoming = `${path}.restoring`;
const removeIncoming = () => {
  for (const file of [incoming, ...walFilesOf(incoming)]) rmSync(file, { force: true });
};
removeIncoming();
copyFileSync(backup, incoming);
const copy = await checkCopy(incoming, backup).catch((error) => {
  removeIncoming();
  if (error instanceof CopyProblem) fail(`${error.message} Nothing was changed.`);
  throw error;
});

let keptAs: string | null = null;
if (existsSync(path)) {
  // SQLite's own lock answers whether a server still has the file open (see takeSoleHold); when
  // nobody does, the old database gets its WAL folded in, so the file kept aside is whole.
  const current = openLibsqlFile(path);
  const sole = await takeSoleHold(current).finally(() => current.close());
  if (!sole) {
    removeIncoming();
    const holders = holdersOf([path, ...walFilesOf(path)]).map(({ pid, command }) => `PID ${pid}: ${command}`);
    fail(
      `${path} is open in a running site or script${holders.length > 0 ? ` (${holders.join("; ")})` : ""}; stop it first (e.g. systemctl stop rust-site), then run this again. Nothing was changed.`,
    );
  }
  const { uid, gid } = statSync(path);
  keptAs = `${path}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(path, keptAs);
  // The restored file belongs to whoever owned the database (the service's user), not to root.
  try {
    chownSync(incoming, uid, gid);
  } catch {
    // not root: the file is this user's, as the old one was
  }
}
for (const file of walFilesOf(path)) rmSync(file, { force: true });
renameSync(incoming, path);
removeIncoming();
// The backup has forgotten what the game servers delivered since it was made: each plugin sends it
// again, and deliveries wait until all servers of their type have (decision 124). A backup from
// before that column is marked when it is migrated and a plugin first polls.
const restored = openLibsqlFile(path);
const marked = await restored
  .execute("UPDATE servers SET needs_resync = 1")
  .then((result) => result.rowsAffected)
  .catch(() => null);
// The backup has forgotten the top-ups paid since it was made, and the provider, answered 200 for
// each, won't notify again: the site's minutely job asks the provider for them (decision 135). Its
// marker is a key-value row, which on Node lives in this file.
const paymentsMarked = await restored
  .execute({
    sql: "INSERT INTO key_values (key, value, expires_at) VALUES (?, ?, NULL) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = NULL",
    args: [RESTORE_MARKER_KEY, JSON.stringify({ markedAt: Date.now() })],
  })
  .then(() => true)
  .catch(() => false)
  .finally(() => restored.close());
console.log(`Restored ${backup} into ${path} (${describeCopy(copy)}).`);
if (marked !== null && marked > 0) {
  console.log(
    `${marked} game server(s) will send again what they delivered since the backup; deliveries wait until they have.`,
  );
}
if (paymentsMarked) {
  console.log(
    "On start the site asks the payment provider for the top-ups paid since the backup and credits those it lacks, once each.",
  );
}
if (keptAs) console.log(`The database it replaced is kept as ${keptAs}.`);
console.log("Start the site; a backup from an older version needs `npm run db:migrate` (or MIGRATE_ON_START=1) first.");
