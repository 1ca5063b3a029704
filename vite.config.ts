import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Browser tests and benchmarks serve the build with their own local D1/KV state.
const stateDir = process.env.SITE_STATE_DIR;
// SITE_RUNTIME=node: the same pages built for Node, with worker/node/server.ts as the server's entry.
const node = process.env.SITE_RUNTIME === "node";

export default defineConfig(
  node
    ? {
        // React Router takes the SSR environment's input as the server build's entry.
        environments: { ssr: { build: { rolldownOptions: { input: "./worker/node/server.ts" } } } },
        plugins: [reactRouter()],
      }
    : {
        plugins: [
          cloudflare({ viteEnvironment: { name: "ssr" }, persistState: stateDir ? { path: stateDir } : true }),
          reactRouter(),
        ],
      },
);
