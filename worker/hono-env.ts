import type { Deps } from "./deps.ts";

export type AppEnv = {
  // Whatever the runtime passes (the Worker's bindings, nothing on Node): only the entry reads it.
  Bindings: object;
  // secureHeadersNonce: the Content-Security-Policy nonce worker/security-headers.ts made for this answer.
  Variables: { deps: Deps; requestId: string; secureHeadersNonce?: string };
};
