// `npm run build:node` builds beside the running build and switches a link (decision 137): the folder
// a running server started from is left as it is, and the new build carries the previous build's
// hashed files, so a page the old version rendered still loads its scripts and styles after the switch.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { root } from "./owner-site.ts";

const build = (site: string) =>
  execFileSync(process.execPath, [join(root, "scripts/build-node.ts"), site], { cwd: root, stdio: "ignore" });

describe("npm run build:node beside a running build", () => {
  it("leaves the running build's folder alone and keeps one build's hashed files back", () => {
    // A checkout built before decision 137: build-node/ is a folder, with files of that version's own.
    const site = mkdtempSync(join(tmpdir(), "site-build-"));
    for (const sub of ["client/assets", "server/assets"]) mkdirSync(join(site, "build-node", sub), { recursive: true });
    writeFileSync(join(site, "build-node/client/assets/root-OLDHASH.css"), "body{}");
    writeFileSync(join(site, "build-node/server/assets/server-build-OLDHASH.js"), "export {};");

    build(site);
    const first = readlinkSync(join(site, "build-node"));
    assert.match(first, /^build-node\.\d{17}$/);
    assert.ok(existsSync(join(site, first, "server/index.js")));
    assert.ok(existsSync(join(site, first, "client/assets/root-OLDHASH.css")), "the old pages' styles");
    assert.ok(existsSync(join(site, first, "server/assets/server-build-OLDHASH.js")), "the old server's chunk");
    const aside = readdirSync(site).find((name) => name.startsWith("build-node.before-"));
    assert.ok(aside && existsSync(join(site, aside, "client/assets/root-OLDHASH.css")), "the old folder, whole");

    build(site);
    const second = readlinkSync(join(site, "build-node"));
    assert.notEqual(second, first);
    assert.ok(lstatSync(join(site, "build-node")).isSymbolicLink());
    assert.deepEqual(
      readdirSync(site)
        .filter((name) => name.startsWith("build-node."))
        .sort(),
      [first, second].sort(),
      "the previous build is kept, the one before it removed",
    );
    const firstOwn = readdirSync(join(site, first, "client/assets")).filter((name) => !name.includes("OLDHASH"));
    for (const name of firstOwn) assert.ok(existsSync(join(site, second, "client/assets", name)), name);
    assert.ok(!existsSync(join(site, second, "client/assets/root-OLDHASH.css")), "two builds back is dropped");
  });
});
