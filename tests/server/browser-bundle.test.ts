// What the browser downloads must be the pages' own code: no server module slips into it through a
// route component's import (the import-graph test can't see which of a route's imports the component
// uses). Reads the Node build's client assets, which `npm run test:server` builds first.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

const BUILD = resolve(import.meta.dirname, "../../build-node");
const ASSETS = join(BUILD, "client/assets");
/**
 * The scripts this build made itself: `npm run build:node` also keeps the previous build's hashed
 * files beside them for pages the old version rendered (decision 137), which are not this build's code.
 */
const OWN: string[] | null = existsSync(join(BUILD, "own-assets.json"))
  ? ((JSON.parse(readFileSync(join(BUILD, "own-assets.json"), "utf8")) as Record<string, string[]>)["client/assets"] ??
    null)
  : null;

// Marks of code that only the server may run: zod's internals (the input schemas), drizzle and SQL.
const SERVER_ONLY = [/\bZodError\b/, /\bdrizzle-orm\b/, /\bINSERT INTO\b/, /\bSELECT .* FROM\b/];

describe("the browser bundle", () => {
  const files = (OWN ?? readdirSync(ASSETS)).filter((name) => name.endsWith(".js"));

  it("is there to read", () => {
    assert.ok(files.length > 10, `only ${files.length} scripts in ${ASSETS}`);
  });

  it("carries no input schemas, database code or SQL", () => {
    const leaks = files.flatMap((name) => {
      const text = readFileSync(join(ASSETS, name), "utf8");
      return SERVER_ONLY.filter((mark) => mark.test(text)).map((mark) => `${name}: ${mark}`);
    });
    assert.deepEqual(leaks, []);
  });

  it("keeps the console's code out of every player's page", () => {
    // Rolldown's groups take in what their modules import; a module the console shares with a player's
    // page must stay in the shared file, or that page loads the console's file too.
    const consoleFiles = files.filter((name) => name.startsWith("console-"));
    assert.equal(consoleFiles.length, 1, `the console's own file: ${consoleFiles.join(", ")}`);
    const loadingConsole = files
      .filter((name) => !name.startsWith("admin") && !name.startsWith("console-"))
      .filter((name) => readFileSync(join(ASSETS, name), "utf8").includes(`"./${consoleFiles[0]}"`));
    assert.deepEqual(loadingConsole, []);
  });
});
