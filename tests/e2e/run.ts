// `npm run test:e2e`: build, serve with fresh seeded state, run every
// tests/e2e/*.test.ts with Node's test runner, stop the server.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { NODE_TEST_ARGS } from "../support/node-test-args.ts";
import { buildSite, d1File, E2E_EXPORT_ROWS_PER_FILE, fireCron, freshState, serveSite, stopSite } from "./site.ts";

const only = process.argv.slice(2);
const files = (only.length ? only : readdirSync("tests/e2e").filter((file) => file.endsWith(".test.ts"))).map((file) =>
  file.startsWith("tests/") ? file : `tests/e2e/${file}`,
);

buildSite({ exportRowsPerFile: E2E_EXPORT_ROWS_PER_FILE });
const stateDir = freshState(".e2e-state");
const server = await serveSite(stateDir);
let status = 1;
try {
  await fireCron();
  const result = spawnSync(process.execPath, [...NODE_TEST_ARGS, ...files], {
    stdio: "inherit",
    // The signedIn fixture (signed-in.ts) writes its sessions into the site's own database.
    env: { ...process.env, E2E_DATABASE_URL: d1File(stateDir) },
  });
  status = result.status ?? 1;
} finally {
  stopSite(server);
}
process.exit(status);
