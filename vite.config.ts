import { readFileSync } from "node:fs";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// `.env` is the owner's own server's production settings (README "Running on your own server"); the
// Worker's local settings are wrangler.jsonc's vars and `.dev.vars` only. Without this the Cloudflare
// plugin reads `.env` into `vite dev` and copies its secrets into build/server/.dev.vars, which
// `vite preview` then serves with (issue 45).
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV = "false";
// Browser tests and benchmarks serve the build with their own local D1/KV state.
const stateDir = process.env.SITE_STATE_DIR;
// SITE_RUNTIME=node: the same pages built for Node, with worker/node/server.ts as the server's entry.
const node = process.env.SITE_RUNTIME === "node";
// The e2e build's URLs (wrangler.jsonc env "e2e") name port 8788; E2E_PORT builds it for another port,
// so a benchmark can run beside someone else's browser tests (tests/e2e/site.ts serves it there).
const e2ePort = process.env.CLOUDFLARE_ENV === "e2e" ? process.env.E2E_PORT : undefined;
// The browser tests' build holds few rows a CSV file, so their exports come in parts (decision 115).
const e2eExportRows = process.env.CLOUDFLARE_ENV === "e2e" ? process.env.E2E_EXPORT_ROWS_PER_FILE : undefined;
// The production-shaped Worker of tests/server/production-shape.test.ts: production's settings (JSON) in
// place of the e2e build's, served over TLS as Cloudflare's edge serves it (a certificate and key in PEM).
const e2eVars: Record<string, string> | undefined =
  process.env.CLOUDFLARE_ENV === "e2e" && process.env.E2E_VARS ? JSON.parse(process.env.E2E_VARS) : undefined;
const previewTls = process.env.E2E_TLS_CERT && process.env.E2E_TLS_KEY;
// workerd's inspector (bench/profile.ts samples through it): the first free port from 9229 unless named,
// so a profile beside someone else's preview reaches its own Worker.
const inspectorPort = process.env.SITE_INSPECTOR_PORT ? Number(process.env.SITE_INSPECTOR_PORT) : undefined;

// The browser's code in a few files, not twenty: React and React Router in one, the site's shared modules
// in another (the console's apart, so players never load it), then each page's own. Each file is one
// more modulepreload link every page renders and one more request (docs/PERFORMANCE.md run 11).
const siteModule = (id: string) => /[\\/](app|core)[\\/]/.test(id);
const consoleModule = (id: string) => siteModule(id) && /[\\/]admin[\\/.-]/.test(id);
const clientBuild = {
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules[\\/]/, minShareCount: 2, priority: 3 },
            // Before the console's group: a group also takes in what its modules import, so a module the
            // console shares with players' pages (the notice line) must already be in "shared".
            {
              name: "shared",
              test: (id: string) => siteModule(id) && !consoleModule(id),
              minShareCount: 2,
              priority: 2,
            },
            { name: "console", test: consoleModule, minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
};

export default defineConfig(
  node
    ? {
        // React Router takes the SSR environment's input as the server build's entry.
        environments: {
          client: clientBuild,
          ssr: { build: { rolldownOptions: { input: "./worker/node/server.ts" } } },
        },
        plugins: [reactRouter()],
      }
    : {
        environments: { client: clientBuild },
        ...(previewTls
          ? {
              preview: {
                https: {
                  cert: readFileSync(process.env.E2E_TLS_CERT ?? ""),
                  key: readFileSync(process.env.E2E_TLS_KEY ?? ""),
                },
              },
            }
          : {}),
        plugins: [
          cloudflare({
            viteEnvironment: { name: "ssr" },
            persistState: stateDir ? { path: stateDir } : true,
            inspectorPort,
            config:
              e2ePort || e2eExportRows || e2eVars
                ? (config) => {
                    for (const [name, value] of Object.entries(config.vars ?? {})) {
                      if (e2ePort && typeof value === "string")
                        config.vars[name] = value.replace(":8788", `:${e2ePort}`);
                    }
                    if (e2eExportRows) config.vars.EXPORT_ROWS_PER_FILE = e2eExportRows;
                    if (e2eVars) config.vars = e2eVars;
                  }
                : undefined,
          }),
          reactRouter(),
        ],
      },
);
