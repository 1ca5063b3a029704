// The README's lines to try the site locally set DATABASE_URL=file:data/try.db for the seed and
// the start; the commands typed after them in the same shell must be back on the site's own
// database (issue 34: an `export` left them on the try database). Runs the lines as written, in
// one shell, with the build left out and `npm start` replaced by `true`, then `npm run db:migrate`.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readmeShellBlocks, run, siteFolder } from "./owner-site.ts";

describe("the README's try-it lines", () => {
  it("seed data/try.db and leave the shell's later commands on the site's database", async () => {
    const block = readmeShellBlocks("Your own server", 2).find((lines) => lines.join("\n").includes("data/try.db"));
    assert.ok(block, "the README shows how to try the site on data/try.db");
    const script = block
      .filter((line) => line !== "npm run build:node")
      .join("\n")
      .replace(/\bnpm start\b/, "true");
    assert.notEqual(script, block.join("\n"), "the lines end with npm start");
    const site = siteFolder();
    const result = await run(`${script}\nnpm run --silent db:migrate`, site);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Seeded file:data\/try\.db\./);
    assert.match(result.stdout, /\nApplied \d+ migrations to file:data\/site\.db: 0000_init, /);
    assert.ok(existsSync(join(site, "data/try.db")));
    assert.ok(existsSync(join(site, "data/site.db")));
  });
});
