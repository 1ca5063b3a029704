import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./tests/wrangler.test.jsonc" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      include: ["tests/**/*.test.ts"],
      exclude: ["tests/e2e/**", "tests/node/**", "tests/server/**", "tests/plugin/**", "tests/runtime/node/**"],
      setupFiles: ["./tests/setup.ts"],
      // One workerd for the files in turn, each begun on an empty site by tests/setup.ts: a workerd
      // per file spent about 2.5 s starting, more than most files' tests take.
      isolate: false,
    },
  };
});
