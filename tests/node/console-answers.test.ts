import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";

// Every console action answers a refusal one way (issue 49): `invalidForm` for a form that failed its
// schema, `refused` for a service's no, `dispatchIntent` for the intents (an unknown one is 400 and
// runs nothing). Two merges once wrote the answer by hand again; this test fails when one does.

const routes = readdirSync("app/routes")
  .filter((file) => file.startsWith("admin") && file.endsWith(".tsx"))
  .map((file) => ({ file, source: readFileSync(`app/routes/${file}`, "utf8") }));

const BY_HAND: [RegExp, string][] = [
  [/data(<[^>]*>)?\(\s*\{\s*ok:\s*false/, "a refusal answered by hand: use refused() or invalidForm()"],
  [/\.issues\[0\]/, "a schema's first message read by hand: use invalidForm() or invalidFormError()"],
  [/form\.intent\s*===|form\.get\("intent"\)/, "an intent compared by hand: use dispatchIntent()"],
  [/z\.coerce\.number\(\)\.int\(\)\.positive\(\)\.safeParse/, "an id schema written again: use positiveIdText"],
];

describe("the console's actions", () => {
  it("reads every console route", () => assert.ok(routes.length > 10));

  for (const { file, source } of routes) {
    it(`${file} answers refusals through console-answers`, () => {
      for (const [pattern, why] of BY_HAND) {
        const line = source.split("\n").findIndex((text) => pattern.test(text));
        assert.equal(line, -1, `app/routes/${file}:${line + 1}: ${why}`);
      }
    });
  }
});
