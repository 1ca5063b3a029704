import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Browser tests and benchmarks serve the build with their own local D1/KV state.
const stateDir = process.env.SITE_STATE_DIR;
// SITE_RUNTIME=node: the same pages built for Node, with worker/node/server.ts as the server's entry.
const node = process.env.SITE_RUNTIME === "node";
// Browser tests on another port than wrangler.jsonc's e2e one (E2E_PORT): the site's own URLs follow.
const e2ePort = process.env.E2E_PORT;
const onE2ePort = (vars: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [
      name,
      value.replace("http://localhost:8788", `http://localhost:${e2ePort}`),
    ]),
  );

export default defineConfig(
  node
    ? {
        // React Router takes the SSR environment's input as the server build's entry.
        environments: { ssr: { build: { rolldownOptions: { input: "./worker/node/server.ts" } } } },
        plugins: [reactRouter()],
      }
    : {
        plugins: [
          cloudflare({
            viteEnvironment: { name: "ssr" },
            persistState: stateDir ? { path: stateDir } : true,
            config: e2ePort ? (config) => ({ vars: onE2ePort(config.vars as Record<string, string>) }) : undefined,
          }),
          reactRouter(),
        ],
      },
);
