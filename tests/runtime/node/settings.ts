// The tests' settings on Node: the same "vars" the Worker's tests get from tests/wrangler.test.jsonc.
import { readFileSync } from "node:fs";
import type { Settings } from "#worker/settings.ts";

const jsonc = readFileSync("tests/wrangler.test.jsonc", "utf8").replace(/^\s*\/\/.*$/gm, "");
export const testSettings: Settings = JSON.parse(jsonc).vars;
