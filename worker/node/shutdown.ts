import type { ServerType } from "@hono/node-server";

/** In-flight requests get this long to finish after SIGTERM before their connections are cut. */
const GRACE_MS = 10_000;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (idle keep-alive
 * connections close at once), run `cleanup`, then exit 0.
 */
export function shutdownOnSignals(server: ServerType, cleanup: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
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
