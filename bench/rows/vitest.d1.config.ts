// The rows bench on D1 (workerd's local D1, whose `meta` carries D1's own row counters): bench/rows/run.ts.
import { resolve } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = resolve(import.meta.dirname, "../..");

export default defineConfig(async () => ({
  root,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: resolve(root, "bench/rows/wrangler.jsonc") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(resolve(root, "migrations")),
          ROWS_OPTIONS: process.env.ROWS_OPTIONS ?? "{}",
        },
      },
    }),
  ],
  test: { include: ["tests/rows/d1.rows.ts"], testTimeout: 60 * 60_000, hookTimeout: 60 * 60_000 },
}));
