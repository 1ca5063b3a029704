// npm 12 runs a dependency's install scripts only when package.json's `allowScripts` lists it. The
// project needs three: the `node` package (it downloads the Node 22 that every script runs on),
// workerd (the Worker's runtime, for dev and the tests) and esbuild (Vite's and wrangler's
// bundler). The list must be exactly the lockfile's packages with install scripts: one missing is a
// fresh install without Node 22 or workerd; one too many is a script nobody reviewed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

const root = resolve(import.meta.dirname, "../..");
const read = (name: string) => JSON.parse(readFileSync(join(root, name), "utf8"));
const manifest = read("package.json") as { allowScripts?: Record<string, boolean> };
const lockfile = read("package-lock.json") as {
  packages: Record<string, { hasInstallScript?: boolean; version?: string }>;
};

/** "node_modules/wrangler/node_modules/workerd" → "workerd"; scoped names keep their scope. */
const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

describe("allowScripts in package.json", () => {
  it("allows exactly the install scripts in the lockfile, by name, so every version of each runs", () => {
    const withScripts = new Set(
      Object.entries(lockfile.packages)
        .filter(([path, entry]) => path !== "" && entry.hasInstallScript)
        .map(([path]) => nameOf(path)),
    );
    assert.deepEqual([...withScripts].sort(), ["esbuild", "node", "workerd"]);
    assert.deepEqual(manifest.allowScripts, { esbuild: true, node: true, workerd: true });
  });
});
