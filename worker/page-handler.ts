import { createRequestHandler, type ServerBuild } from "react-router";
import type { PageHandler } from "./app.ts";

/**
 * React Router's request handler over the server build, made once. Handed the build as a function,
 * React Router imports it again and rebuilds its route tables on every request (a tenth of a
 * rendered page's CPU); in development that is wanted, since Vite replaces the build as files change.
 */
export function pageHandlerOf(loadBuild: () => Promise<ServerBuild>, mode: string): PageHandler {
  if (mode === "development") {
    const handler = createRequestHandler(loadBuild, mode);
    return (request, context) => handler(request, context);
  }
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  return async (request, context) => {
    handler ??= loadBuild().then(
      (build) => createRequestHandler(build, mode),
      (error: unknown) => {
        handler = undefined; // the next request tries again
        throw error;
      },
    );
    return (await handler)(request, context);
  };
}
