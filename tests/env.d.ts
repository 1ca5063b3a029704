import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env } from "../worker/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends ProjectEnv {}
  }
}

interface ProjectEnv extends Env {
  TEST_MIGRATIONS: D1Migration[];
}
