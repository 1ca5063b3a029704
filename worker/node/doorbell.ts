// The doorbell on Node (decision 146): the plugin's WebSocket, upgraded by `ws` from the HTTP server's
// 'upgrade' event after the site's own app verified the signed request at GET /api/game/doorbell, as a
// poll's is. Sockets live in this process's memory: with two instances a ring reaches only the plugins
// connected to the instance that made the change, and the others find it at their safety poll.

import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, Server } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { type Doorbell, type DoorbellServer, noDoorbell, REPLACED } from "../ports/doorbell.ts";
import { signedRing } from "../services/game/doorbell.ts";
import { importSigningKey } from "../services/game/keys.ts";

/** An upgrade request on its way through the app: the route's `connect` takes its socket. */
interface PendingUpgrade {
  request: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  taken: boolean;
}

interface Connected {
  socket: WebSocket;
  serverType: string;
  key: CryptoKey;
  rings: number;
}

type AppFetch = (request: Request, env: { incoming: IncomingMessage }) => Response | Promise<Response>;

export interface NodeDoorbellOptions {
  /**
   * A server's socket closed, neither replaced by its newer one nor at the site's stop (decision 151):
   * start.ts marks its heartbeat's doorbell 0. Not awaited; a failure is logged.
   */
  closed?: (serverId: number) => Promise<void>;
}

export function nodeDoorbell(options: NodeDoorbellOptions = {}) {
  const upgrades = new AsyncLocalStorage<PendingUpgrade>();
  // A plugin sends only `ping`: a larger frame closes its socket (1009) instead of filling memory.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const connected = new Map<number, Connected>();

  function keep(socket: WebSocket, server: DoorbellServer, key: CryptoKey) {
    connected.get(server.id)?.socket.close(REPLACED.code, REPLACED.reason);
    const entry: Connected = { socket, serverType: server.serverType, key, rings: 0 };
    connected.set(server.id, entry);
    socket.on("message", (data, isBinary) => {
      if (!isBinary && data.toString() === "ping") socket.send("pong");
    });
    socket.on("close", () => {
      // Replaced by the server's newer socket, or let go by close() (the site stopping): nothing to tell.
      if (connected.get(server.id) !== entry) return;
      connected.delete(server.id);
      options
        .closed?.(server.id)
        .catch((error) => console.error(JSON.stringify({ event: "doorbell_close_mark_failed", error: String(error) })));
    });
    socket.on("error", () => socket.terminate());
  }

  const doorbell: Doorbell = {
    async connect(request, server) {
      const pending = upgrades.getStore();
      const key = await importSigningKey(server.keyHash);
      // Not through the 'upgrade' event (a plain request that says Upgrade): nothing to upgrade.
      if (!pending || pending.taken || !key) return noDoorbell.connect(request, server);
      pending.taken = true;
      sockets.handleUpgrade(pending.request, pending.socket, pending.head, (socket) => keep(socket, server, key));
      return new Response(null, { status: 204 });
    },
    async ring(serverType) {
      const t = Math.floor(Date.now() / 1000);
      for (const [serverId, entry] of connected) {
        if (entry.serverType !== serverType || entry.socket.readyState !== entry.socket.OPEN) continue;
        entry.rings += 1;
        entry.socket.send(JSON.stringify(await signedRing(entry.key, serverId, entry.rings, t)));
      }
    },
  };

  /** Sends the HTTP server's upgrade requests through the app; one it refused gets its answer, then the socket closes. */
  function listen(server: Server, fetch: AppFetch) {
    server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on("error", () => socket.destroy());
      const pending: PendingUpgrade = { request, socket, head, taken: false };
      void upgrades
        .run(pending, async () => fetch(requestOf(request), { incoming: request }))
        .then(async (response) => {
          if (!pending.taken) writeRefusal(socket, response.status, await response.text());
        })
        .catch((error) => {
          console.error(JSON.stringify({ event: "doorbell_upgrade_failed", error: String(error) }));
          if (!pending.taken) socket.destroy();
        });
    });
  }

  /** Closes every socket: the server is stopping. Cleared first, so their close events mark nothing. */
  function close() {
    const open = [...connected.values()];
    connected.clear();
    for (const { socket } of open) socket.terminate();
    sockets.close();
  }

  return { doorbell, listen, close };
}

/** The upgrade request as the app reads any other: the Host's URL, the headers as sent, no body. */
function requestOf(request: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    headers.append(request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string);
  }
  return new Request(`http://${request.headers.host ?? "localhost"}${request.url ?? "/"}`, {
    method: request.method,
    headers,
  });
}

/** The app's refusal (the poll's status and JSON error), written on the raw socket, which then closes. */
function writeRefusal(socket: Duplex, status: number, body: string) {
  const length = Buffer.byteLength(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`,
  );
}
