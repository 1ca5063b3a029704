import type { ServerType } from "@hono/node-server";

/** In-flight requests get this long to finish after SIGTERM before their connections are cut. */
const GRACE_MS = 10_000;

/**
 * On SIGTERM or SIGINT: stop accepting connections, close the idle ones, and answer everything
 * still arriving on open keep-alive connections with `Connection: close`, so a client or proxy
 * opens its next request elsewhere instead of sending it down a connection we are about to cut.
 * Once in-flight requests are done (10 s at most), run `cleanup`, then exit 0.
 */
export function shutdownOnSignals(server: ServerType, cleanup: () => Promise<void>): void {
  let stopping = false;
  // Answers not yet written: when the stop comes, each gets `Connection: close` before it goes out.
  const unanswered = new Set<{ headersSent: boolean; setHeader(name: string, value: string): unknown }>();
  const closeAfter = (response: typeof unanswered extends Set<infer T> ? T : never) => {
    if (!response.headersSent) response.setHeader("Connection", "close");
  };
  // Registered before the app's handler, so the header is set before any answer is written.
  server.prependListener("request", (_request, response) => {
    if (!("setHeader" in response)) return;
    if (stopping) return closeAfter(response);
    unanswered.add(response);
    response.once("finish", () => unanswered.delete(response));
    response.once("close", () => unanswered.delete(response));
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const response of unanswered) closeAfter(response);
    console.log(JSON.stringify({ event: "shutting_down", signal }));
    const cut = setTimeout(() => "closeAllConnections" in server && server.closeAllConnections(), GRACE_MS);
    cut.unref();
    server.close(async () => {
      await cleanup();
      console.log(JSON.stringify({ event: "stopped" }));
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
