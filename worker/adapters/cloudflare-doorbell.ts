import type { GameDoorbell } from "../cloudflare/doorbell-object.ts";
import type { Doorbell } from "../ports/doorbell.ts";

// The doorbell port over the Durable Object namespace (worker/cloudflare/doorbell-object.ts): one
// object per server type. A ring is one RPC call to the type's object, one Durable Object request.

/** The verified server, as the Worker hands it to the object with the upgrade request (set here, never the client's). */
export const DOORBELL_SERVER_HEADER = "x-doorbell-server";

export function durableObjectDoorbell(namespace: DurableObjectNamespace<GameDoorbell>): Doorbell {
  const objectOf = (serverType: string) => namespace.get(namespace.idFromName(serverType));
  return {
    async connect(request, server) {
      const headers = new Headers(request.headers);
      headers.set(DOORBELL_SERVER_HEADER, JSON.stringify(server));
      const answer = await objectOf(server.serverType).fetch(new Request(request.url, { headers }));
      // A stub's answer has immutable headers; the app's middleware adds its own.
      return new Response(answer.body, {
        status: answer.status,
        headers: answer.headers,
        webSocket: answer.webSocket,
      });
    },
    async ring(serverType) {
      await objectOf(serverType).ring();
    },
  };
}
