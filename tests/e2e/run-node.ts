// `npm run test:e2e:node`: the browser tests against the Node server (build-node/, libSQL) instead of
// the Worker build, but for WORKER_BUILD_ONLY. Port: E2E_NODE_PORT (default 8790). Usage: node tests/e2e/run-node.ts [files…]
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { NODE_TEST_ARGS } from "../support/node-test-args.ts";
import { buildNodeSite, freshNodeDatabase, localSiteEnv, serveNodeSite } from "./node-site.ts";
import { E2E_EXPORT_ROWS_PER_FILE, stopSite } from "./site.ts";

/**
 * Browser tests whose subject is what a page shows (its layout, its words, its accessibility), rendered
 * by the same React code on both runtimes: they run against the Worker build only (decision 145). Every
 * other file, a new one too, runs here as well: sign-in, money, gifts, returns, the console's actions,
 * the headers and the scripts the Node server serves.
 */
export const WORKER_BUILD_ONLY = [
  "admin-operators.test.ts",
  "axe.test.ts",
  "categories.test.ts",
  "home.test.ts",
  "layout-375.test.ts",
  "pages.test.ts",
  "price-shown.test.ts",
  "sales.test.ts",
  "shop.test.ts",
  "wipe-console-and-gifts.test.ts",
  "wipe-reading-more.test.ts",
  "wipe-reading.test.ts",
];

const port = Number(process.env.E2E_NODE_PORT ?? 8790);
const only = process.argv.slice(2);
const files = (
  only.length
    ? only
    : readdirSync("tests/e2e").filter((file) => file.endsWith(".test.ts") && !WORKER_BUILD_ONLY.includes(file))
).map((file) => (file.startsWith("tests/") ? file : `tests/e2e/${file}`));

buildNodeSite();
const databaseUrl = freshNodeDatabase(".e2e-node-state");
// The server runs the minutely jobs once on start, as fireCron does for the Worker build.
const server = await serveNodeSite({
  ...localSiteEnv(port, databaseUrl),
  EXPORT_ROWS_PER_FILE: String(E2E_EXPORT_ROWS_PER_FILE),
});
let status = 1;
try {
  const result = spawnSync(process.execPath, [...NODE_TEST_ARGS, ...files], {
    stdio: "inherit",
    env: { ...process.env, E2E_PORT: String(port), E2E_DATABASE_URL: databaseUrl },
  });
  status = result.status ?? 1;
} finally {
  stopSite(server.process);
}
process.exit(status);
