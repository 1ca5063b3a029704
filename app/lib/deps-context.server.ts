import { createContext, RouterContextProvider } from "react-router";
import type { Deps } from "#worker/deps.ts";

// The services' dependencies, handed to every loader and action.
export const depsContext = createContext<Deps>();

export function createRouterContext(deps: Deps): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(depsContext, deps);
  return context;
}
