// The rows bench on Node over a libSQL file (bench/rows/run.ts).
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: resolve(import.meta.dirname, "../.."),
  test: {
    name: "rows-libsql",
    environment: "node",
    include: ["tests/runtime/node/libsql.rows.ts"],
    testTimeout: 60 * 60_000,
  },
});
