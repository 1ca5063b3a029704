import { createContext, createRequestHandler, RouterContextProvider } from "react-router";

export const envContext = createContext();

const handler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  fetch(request, env) {
    const context = new RouterContextProvider();
    context.set(envContext, env);
    return handler(request, context);
  },
};
