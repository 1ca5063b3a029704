// Who owns what on an owner's server (README "Your own server"): the site's user owns the site's
// folder, so data/ and backups/ are its own, and the README's nightly backup timer, run as that
// user, works. A backup or restore that meets a file or folder its user can't use stops with ONE
// line naming the exact fix: `chmod` when the mode is wrong, `chown` when the owner is (issue 34:
// a 15-line EACCES stack, and a refusal that said chown for a wrong mode). Root can use any file,
// so as root the scripts run as `nobody`; anyone else runs them as themselves, where only the
// wrong-mode cases can be made.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { root, siteFolder } from "./owner-site.ts";

const asRoot = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };
/** Another user than the site's, for a backup run by the wrong one. */
const DAEMON = { uid: 1, gid: 1 };
/** The user the scripts run as, and its name in their lines. */
const SITE_USER = asRoot ? NOBODY : undefined;
const SITE_USER_NAME = asRoot ? "nobody" : userInfo().username;
/** systemd's PATH for a unit. */
const UNIT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** A site folder that is the site user's, with a migrated database in data/. */
function ownedSite(): string {
  const site = siteFolder();
  mkdirSync(join(site, "data"));
  execFileSync(process.execPath, [join(root, "scripts/migrate.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `file:${join(site, "data/site.db")}` },
    stdio: "ignore",
  });
  if (asRoot) {
    for (const path of [site, join(site, "package.json"), join(site, "data"), join(site, "data/site.db")]) {
      chownSync(path, NOBODY.uid, NOBODY.gid);
    }
  }
  chmodSync(site, 0o755);
  return site;
}

/** Runs a command in the site's folder as `as` (the site's user by default); its exit code and output. */
async function runAs(
  command: string,
  args: string[],
  site: string,
  as: { uid: number; gid: number } | undefined = SITE_USER,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; lines: string[] }> {
  const child = spawn(command, args, {
    cwd: site,
    env: { PATH: process.env.PATH, HOME: site, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(as ?? {}),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  return { code, stdout, lines: stderr.trim().split("\n") };
}

const backup = (site: string, file: string, as = SITE_USER) =>
  runAs(process.execPath, [join(site, "scripts/db-backup.ts"), file], site, as);
const restore = (site: string, file: string, as = SITE_USER) =>
  runAs(process.execPath, [join(site, "scripts/db-restore.ts"), file], site, as);

/** Exit 1 and exactly one line on stderr, matching. */
function assertOneLine(result: { code: number | null; lines: string[] }, pattern: RegExp) {
  assert.equal(result.code, 1, result.lines.join("\n"));
  assert.equal(result.lines.length, 1, result.lines.join("\n"));
  assert.match(result.lines[0] ?? "", pattern);
}

describe("the README's nightly backup, as the site's user", () => {
  it("runs the timer's commands as written and keeps the backup in backups/", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const unit = readme.slice(readme.indexOf("# rust-site-backup.service"), readme.indexOf("# rust-site-backup.timer"));
    assert.match(unit, /^User=rust-site$/m, "the timer runs as the site's user");
    const line = (key: string) => {
      const value = unit.match(new RegExp(`^${key}=(.*)$`, "m"))?.[1];
      assert.ok(value, `the unit has ${key}`);
      return value;
    };
    const site = ownedSite();
    // systemd's own escapes (%% is %), and the owner's folder here.
    const asHere = (text: string) => text.replaceAll("%%", "%").replaceAll("/srv/rust-site", site);
    assert.equal(asHere(line("WorkingDirectory")), site);
    for (const key of ["ExecStart", "ExecStartPost"]) {
      const [command, ...args] =
        asHere(line(key))
          .match(/'[^']*'|\S+/g)
          ?.map((word) => word.replace(/^'|'$/g, "")) ?? [];
      const result = await runAs(command ?? "", args, site, SITE_USER, { PATH: UNIT_PATH });
      assert.equal(result.code, 0, `${key}: ${result.lines.join("\n")}`);
    }
    const made = readdirSync(join(site, "backups"));
    assert.equal(made.length, 1, String(made));
    assert.match(made[0] ?? "", /^site-\d{8}-\d{6}\.db$/);
  });
});

describe("a backup or restore its user can't do", () => {
  it("with backups/ of another owner: one line, chown", async () => {
    const site = ownedSite();
    mkdirSync(join(site, "backups"));
    if (!asRoot) chmodSync(join(site, "backups"), 0o555);
    const result = await backup(site, "backups/a.db");
    assertOneLine(
      result,
      asRoot
        ? /^The backups' folder \/\S+\/backups can't be written by user nobody \(it belongs to root, mode 755\); give it to user nobody: sudo chown -R nobody \/\S+\/backups\.$/
        : /^The backups' folder \/\S+\/backups can't be written by user \S+ \(it belongs to \S+, mode 555\); let its owner write it: chmod u\+rwx \/\S+\/backups\.$/,
    );
  });

  it("with backups/ its own but not writable: one line, chmod", async () => {
    const site = ownedSite();
    mkdirSync(join(site, "backups"));
    if (asRoot) chownSync(join(site, "backups"), NOBODY.uid, NOBODY.gid);
    chmodSync(join(site, "backups"), 0o555);
    const result = await backup(site, "backups/a.db");
    assertOneLine(
      result,
      new RegExp(
        `^The backups' folder /\\S+/backups can't be written by user ${SITE_USER_NAME} \\(it belongs to ${SITE_USER_NAME}, mode 555\\); let its owner write it: chmod u\\+rwx /\\S+/backups\\.$`,
      ),
    );
  });

  it("with no backups/ in a folder it can't write: one line, mkdir and chown", async () => {
    const site = ownedSite();
    if (asRoot) chownSync(site, 0, 0);
    else chmodSync(site, 0o555);
    const result = await backup(site, "backups/a.db");
    chmodSync(site, 0o755);
    assertOneLine(
      result,
      new RegExp(
        `^The backups' folder /\\S+/backups doesn't exist and can't be made: /\\S+ can't be written by user ${SITE_USER_NAME} .*; make it for user ${SITE_USER_NAME}: sudo mkdir -p /\\S+/backups && sudo chown ${SITE_USER_NAME} /\\S+/backups\\.$`,
      ),
    );
  });

  it("with the database read-only to its owner: one line, chmod (not chown)", async () => {
    const site = ownedSite();
    chmodSync(join(site, "data/site.db"), 0o444);
    const result = await backup(site, "backups/a.db");
    assertOneLine(
      result,
      new RegExp(
        `^The database file data/site\\.db can't be written by user ${SITE_USER_NAME} \\(it belongs to ${SITE_USER_NAME}, mode 444\\); let its owner write it: chmod u\\+rw data/site\\.db\\.$`,
      ),
    );
    assert.equal(existsSync(join(site, "backups")), false, "nothing was made");
  });

  it("run by another user than the site's: one line, run it as the site's user", async () => {
    const site = ownedSite();
    if (asRoot) {
      const result = await backup(site, "backups/a.db", DAEMON);
      assertOneLine(
        result,
        /^\/\S+\/data belongs to nobody, the site's user, not to daemon: run it as nobody: sudo -u nobody npm run db:backup -- backups\/a\.db$/,
      );
      // Root too: its backups/ would be root's, which the site's user and the nightly timer can't write.
      const asRootResult = await backup(site, "backups/a.db", { uid: 0, gid: 0 });
      assertOneLine(
        asRootResult,
        /^\/\S+\/data belongs to nobody, the site's user, not to root: run it as nobody: sudo -u nobody npm run db:backup -- backups\/a\.db$/,
      );
      assert.equal(existsSync(join(site, "backups")), false, "no backups/ of root's was made");
    } else {
      // Only root can make a folder of another user's: the backup of one's own goes through.
      assert.equal((await backup(site, "backups/a.db")).code, 0);
    }
  });

  it("a restore of a backup its user can't read: one line naming the fix, nothing changed", async () => {
    const site = ownedSite();
    assert.equal((await backup(site, "backups/a.db")).code, 0);
    if (asRoot) chownSync(join(site, "backups/a.db"), 0, 0);
    else chmodSync(join(site, "backups/a.db"), 0o200);
    const result = await restore(site, "backups/a.db");
    assertOneLine(
      result,
      asRoot
        ? /^backups\/a\.db can't be read by user nobody \(it belongs to root, mode 600\); give it to user nobody: sudo chown nobody backups\/a\.db\.$/
        : /^backups\/a\.db can't be read by user \S+ \(it belongs to \S+, mode 200\); let its owner read it: chmod u\+r backups\/a\.db\.$/,
    );
    assert.deepEqual(
      readdirSync(join(site, "data")).filter((name) => !/-(wal|shm)$/.test(name)),
      ["site.db"],
    );
  });

  it("a restore into a database folder it can't write: one line naming the fix", async () => {
    const site = ownedSite();
    assert.equal((await backup(site, "backups/a.db")).code, 0);
    if (asRoot) chownSync(join(site, "data"), 0, 0);
    else chmodSync(join(site, "data"), 0o555);
    const result = await restore(site, "backups/a.db");
    chmodSync(join(site, "data"), 0o755);
    assertOneLine(
      result,
      asRoot
        ? /^The database's folder \/\S+\/data can't be written by user nobody \(it belongs to root, mode 755\); give it to user nobody: sudo chown -R nobody \/\S+\/data\.$/
        : /^The database's folder \/\S+\/data can't be written by user \S+ \(it belongs to \S+, mode 555\); let its owner write it: chmod u\+rwx \/\S+\/data\.$/,
    );
  });
});
