// The previous release (releases.json's newest entry), built from git as an owner's checkout of it
// builds (decision 136): its files at that commit in a folder of their own, this checkout's
// node_modules when its package-lock.json is the same (else `npm ci` there), then `npm run build:node`.
// The folder is kept in the temporary directory by commit, so a second run reuses the build.
import assert from "node:assert/strict";
import { execFileSync, execSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./owner-site.ts";

interface Release {
  commit: string;
  date: string;
  newestMigration: string;
}

export function releases(): Release[] {
  return (JSON.parse(readFileSync(join(root, "releases.json"), "utf8")) as { releases: Release[] }).releases;
}

export function previousRelease(): Release {
  const release = releases().at(-1);
  assert.ok(release, "releases.json lists a release");
  return release;
}

const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

function hasCommit(commit: string): boolean {
  try {
    git("cat-file", "-e", `${commit}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

/** The previous release's checkout, built for Node: a folder with build-node/, migrations/ and node_modules/. */
export function buildPreviousRelease(): string {
  const { commit } = previousRelease();
  const folder = join(tmpdir(), `site-release-${commit}`);
  const built = join(folder, ".built");
  // Built before, and the node_modules it links to still there (a checkout removed since leaves a dangling link).
  if (existsSync(built) && existsSync(join(folder, "node_modules", "react-router"))) return folder;
  if (!hasCommit(commit)) {
    // A shallow clone (some CI checkouts): ask the clone's origin for that one commit.
    try {
      git("fetch", "--quiet", "--depth=1", "origin", commit);
    } catch {
      // said below
    }
  }
  assert.ok(
    hasCommit(commit),
    `releases.json's ${commit} is not in this clone: the rollback test needs the history (git fetch --unshallow)`,
  );
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  execSync(`git archive ${commit} | tar -x -C ${JSON.stringify(folder)}`, { cwd: root, stdio: "inherit" });
  if (installedHere(join(folder, "package-lock.json"), join(root, "package-lock.json")))
    symlinkSync(join(root, "node_modules"), join(folder, "node_modules"));
  else execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: folder, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("npm", ["run", "--silent", "build:node"], { cwd: folder, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(built, `${commit}\n`);
  return folder;
}

/**
 * Whether this checkout's node_modules has every package the release's lockfile names, at its version
 * and place: then the release builds and runs on it (a dependency added since is only more), and no
 * second `npm ci` is spent.
 */
function installedHere(releaseLock: string, currentLock: string): boolean {
  type Lock = { packages: Record<string, { version?: string }> };
  const release = (JSON.parse(readFileSync(releaseLock, "utf8")) as Lock).packages;
  const current = (JSON.parse(readFileSync(currentLock, "utf8")) as Lock).packages;
  return Object.entries(release).every(([path, entry]) => path === "" || current[path]?.version === entry.version);
}
