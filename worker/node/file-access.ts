import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname } from "node:path";

// Who may read or write the site's files, and the one command that fixes it when a user can't:
// `chmod` when the user owns the file and its mode is wrong, `chown` when someone else owns it.
// The start refusals, the backup and the restore answer a permission problem with this one line
// instead of an EACCES stack.

export interface Account {
  name: string;
  uid: number;
}

/** What the file is, as `stat` says; only what the choice of fix needs. */
export interface FileStatus {
  uid: number;
  mode: number;
  isDirectory: boolean;
}

export type Need = "read" | "write";

export interface AccessProblem {
  /** "can't be written by user nobody (it belongs to root, mode 644)" */
  reason: string;
  /** "give it to user nobody: sudo chown -R nobody /srv/site/data", "chmod u+rw data/site.db", … */
  fix: string;
}

export interface FixOptions {
  /** The folder that belongs wholly to the site's user (data/, backups/): a chown takes all of it. */
  folder?: string;
  /**
   * The site's user when it is not the one running (the owner of the folder the site's files are in,
   * root aside): the fix is to run as that user, never to give the site's files to whoever ran this.
   */
  siteUser?: Account;
}

export function currentAccount(): Account {
  const uid = process.getuid?.() ?? -1;
  try {
    return { name: userInfo().username, uid };
  } catch {
    return { name: `uid ${uid}`, uid };
  }
}

/** The user's name for a uid, from /etc/passwd; "uid N" when it has none. */
export function accountName(uid: number): string {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[2] === String(uid));
    if (line) return line.split(":")[0] ?? `uid ${uid}`;
  } catch {
    // no passwd file: the uid will do
  }
  return `uid ${uid}`;
}

/** The owner's permission bits a need takes: a folder is also searched (x), and written to make files in it. */
function ownerBits(need: Need, isDirectory: boolean): { bits: number; symbolic: string } {
  if (isDirectory) return need === "write" ? { bits: 0o700, symbolic: "u+rwx" } : { bits: 0o500, symbolic: "u+rx" };
  return need === "write" ? { bits: 0o600, symbolic: "u+rw" } : { bits: 0o400, symbolic: "u+r" };
}

/**
 * The fix for `account` not being able to `need` the file at `path`: chmod when it owns the file
 * already (the mode is wrong), chown when it doesn't (the owner is wrong), both when the new owner
 * would still lack the bits.
 */
export function accessFix(
  path: string,
  status: FileStatus,
  account: Account,
  need: Need,
  options: FixOptions = {},
): string {
  const { bits, symbolic } = ownerBits(need, status.isDirectory);
  const chmod = `chmod ${symbolic} ${path}`;
  if (status.uid === account.uid) return `let its owner ${need} it: ${chmod}`;
  const target = options.folder ?? path;
  const chownTo = (name: string) =>
    `sudo chown ${target === path && !status.isDirectory ? "" : "-R "}${name} ${target}`;
  const ownerCan = (status.mode & bits) === bits;
  const site = options.siteUser;
  if (site && site.uid !== account.uid) {
    const runAs = `run it as ${site.name}, the site's user: sudo -u ${site.name} …`;
    return status.uid === site.uid ? runAs : `give it to the site's user: ${chownTo(site.name)}, then ${runAs}`;
  }
  return `give it to user ${account.name}: ${chownTo(account.name)}${ownerCan ? "" : ` && sudo ${chmod}`}`;
}

/** Why `account` can't `need` the existing file or folder `path`, and the fix; null when it can. */
export function accessProblem(
  path: string,
  need: Need,
  options: FixOptions & { account?: Account } = {},
): AccessProblem | null {
  const account = options.account ?? currentAccount();
  try {
    accessSync(path, need === "write" ? constants.W_OK : constants.R_OK);
    if (statSync(path).isDirectory()) accessSync(path, constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EROFS") {
      return {
        reason: "is on a read-only file system",
        fix: "with systemd's ProtectSystem, list it in the unit's ReadWritePaths=",
      };
    }
    if (code !== "EACCES" && code !== "EPERM") throw error;
  }
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    // The folder it is in can't be searched: that folder is the problem.
    const folder = dirname(path);
    if (folder === path) throw new Error(`${path}: permission denied`);
    const problem = accessProblem(folder, "read", { ...options, folder: undefined, account });
    if (problem === null) throw new Error(`${path}: permission denied`);
    return { reason: `can't be reached: ${folder} ${problem.reason}`, fix: problem.fix };
  }
  const status = { uid: stats.uid, mode: stats.mode, isDirectory: stats.isDirectory() };
  const siteUser = options.siteUser ?? siteAccountOf(dirname(options.folder ?? path), account);
  return {
    reason: `can't be ${need === "write" ? "written" : "read"} by user ${account.name} (it belongs to ${accountName(status.uid)}, mode ${(status.mode & 0o777).toString(8)})`,
    fix: accessFix(path, status, account, need, { ...options, siteUser }),
  };
}

/** The owner of `folder` when it is another user than `account` and not root: then the site's user. */
function siteAccountOf(folder: string, account: Account): Account | undefined {
  try {
    const { uid } = statSync(folder);
    return uid === 0 || uid === account.uid ? undefined : { uid, name: accountName(uid) };
  } catch {
    return undefined;
  }
}

/** An access error's path, for a last-resort one line: the error code without a stack. */
export function isAccessError(error: unknown): error is NodeJS.ErrnoException & { path: string } {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  return (code === "EACCES" || code === "EPERM") && typeof path === "string";
}

/**
 * Who a folder about to be made is for: the owner of the nearest folder that exists (the site's
 * user owns the site's folder, README "Your own server"), not whoever ran the command; the current
 * user when that folder is root's.
 */
export function siteUserFor(path: string): string {
  let parent = dirname(path);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  try {
    const { uid } = statSync(parent);
    return uid === 0 ? currentAccount().name : accountName(uid);
  } catch {
    return currentAccount().name; // not even its owner can be read: the advice names this user, as before
  }
}
