import type { Deps } from "./deps.ts";
import type { Env } from "./env.ts";

export type AppEnv = {
  Bindings: Env;
  Variables: { deps: Deps; requestId: string };
};
