import type { Deps } from "./deps.ts";

export type AppEnv = {
  // Whatever the runtime passes (the Worker's bindings, nothing on Node): only the entry reads it.
  Bindings: object;
  Variables: { deps: Deps; requestId: string };
};
