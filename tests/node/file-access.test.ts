// The fix a permission problem names (worker/node/file-access.ts), chosen from what `stat` says:
// chmod when the user owns the file and its mode is wrong, chown when another user owns it (issue
// 34: the read-only refusal said chown when the mode was wrong).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accessFix } from "../../worker/node/file-access.ts";

const site = { name: "rust-site", uid: 4242 };
const file = (uid: number, mode: number) => ({ uid, mode, isDirectory: false });
const folder = (uid: number, mode: number) => ({ uid, mode, isDirectory: true });

describe("the fix for a file or folder its user can't use", () => {
  it("is chmod when the user owns it: the mode is what's wrong", () => {
    assert.equal(
      accessFix("data/site.db", file(4242, 0o444), site, "write"),
      "let its owner write it: chmod u+rw data/site.db",
    );
    assert.equal(
      accessFix("/srv/rust-site/backups", folder(4242, 0o555), site, "write"),
      "let its owner write it: chmod u+rwx /srv/rust-site/backups",
    );
    assert.equal(
      accessFix("backups/a.db", file(4242, 0o200), site, "read"),
      "let its owner read it: chmod u+r backups/a.db",
    );
  });

  it("is chown when another user owns it, of the whole folder that is the site's", () => {
    assert.equal(
      accessFix("/srv/rust-site/backups", folder(0, 0o755), site, "write"),
      "give it to user rust-site: sudo chown -R rust-site /srv/rust-site/backups",
    );
    assert.equal(
      accessFix("data/site.db", file(0, 0o644), site, "write", { folder: "/srv/rust-site/data" }),
      "give it to user rust-site: sudo chown -R rust-site /srv/rust-site/data",
    );
    assert.equal(
      accessFix("backups/a.db", file(0, 0o600), site, "read"),
      "give it to user rust-site: sudo chown rust-site backups/a.db",
    );
  });

  it("is to run it as the site's user when another user ran it, never to give the site's files away", () => {
    const admin = { name: "alice", uid: 1000 };
    assert.equal(
      accessFix("data/site.db", file(4242, 0o644), admin, "write", { folder: "/srv/rust-site/data", siteUser: site }),
      "run it as rust-site, the site's user: sudo -u rust-site …",
    );
    // A file root left behind goes to the site's user, not to whoever ran the command.
    assert.equal(
      accessFix("/srv/rust-site/backups", folder(0, 0o755), admin, "write", { siteUser: site }),
      "give it to the site's user: sudo chown -R rust-site /srv/rust-site/backups, then run it as rust-site, the site's user: sudo -u rust-site …",
    );
  });

  it("is chown then chmod when the owner is wrong and the mode would still be", () => {
    assert.equal(
      accessFix("/srv/rust-site/backups", folder(0, 0o555), site, "write"),
      "give it to user rust-site: sudo chown -R rust-site /srv/rust-site/backups && sudo chmod u+rwx /srv/rust-site/backups",
    );
  });
});
