import { createContext, RouterContextProvider } from "react-router";
import type { Deps } from "#worker/deps.ts";

// The services' dependencies, handed to every loader and action.
export const depsContext = createContext<Deps>();

// This response's Content-Security-Policy nonce (worker/app.ts), for entry.server.tsx to put on the inline scripts.
export const cspNonceContext = createContext<string | undefined>(undefined);

export function createRouterContext(deps: Deps, cspNonce?: string): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(depsContext, deps);
  context.set(cspNonceContext, cspNonce);
  return context;
}
