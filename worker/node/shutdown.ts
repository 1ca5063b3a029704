import { Server as NetServer } from "node:net";
import type { ServerType } from "@hono/node-server";

/** In-flight requests get this long to finish after SIGTERM before their connections are cut. */
const GRACE_MS = 10_000;
/**
 * How long after SIGTERM a kept-alive connection with no request in progress stays open. One that
 * looks idle may already hold the client's next request, unread; closing it at once would cut
 * that request. Given a moment, the request is read and answered with `Connection: close`.
 */
const IDLE_CLOSE_MS = 1_000;

interface Answer {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

const closeAfter = (response: Answer) => {
  if (!response.headersSent) response.setHeader("Connection", "close");
};

/**
 * On SIGTERM or SIGINT: stop accepting connections, and answer everything in flight or still
 * arriving on open keep-alive connections with `Connection: close`, so a client or proxy sends its
 * next request on a new connection (to the next instance) instead of down one about to close.
 * Connections left idle are closed after a moment; once every connection is done (10 s at most),
 * run `cleanup`, then exit 0. `onStop` runs first: what holds a connection open past any request (the
 * doorbell's WebSockets, which the server no longer tracks once upgraded) lets go of it there.
 */
export function shutdownOnSignals(server: ServerType, cleanup: () => Promise<void>, onStop = () => {}): void {
  let stopping = false;
  // Answers not yet written: when the stop comes, each gets `Connection: close` before it goes out.
  const unanswered = new Set<Answer>();
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
    console.log(JSON.stringify({ event: "shutting_down", signal }));
    onStop();
    for (const response of unanswered) closeAfter(response);
    const cut = setTimeout(() => "closeAllConnections" in server && server.closeAllConnections(), GRACE_MS);
    cut.unref();
    const idle = setInterval(() => "closeIdleConnections" in server && server.closeIdleConnections(), IDLE_CLOSE_MS);
    idle.unref();
    // net's close, not http's: http's would also close every connection that looks idle right now.
    NetServer.prototype.close.call(server, async () => {
      clearInterval(idle);
      await cleanup();
      console.log(JSON.stringify({ event: "stopped" }));
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
