// The doorbell on Workers (decision 146): one Durable Object per server type (`idFromName(type)`), a
// SQLite-backed class as the free plan requires, holding its plugins' WebSockets through the
// Hibernation API: an idle socket costs no duration, and the plugin's `ping` is answered `pong` by the
// runtime itself (setWebSocketAutoResponse) without waking the object. Each socket is tagged with its
// server's id and carries the server's key hash and ring counter in its attachment, which survives
// hibernation. The Worker verified the upgrade before it got here; the object only keeps and rings.
import { DurableObject } from "cloudflare:workers";
import { d1Database } from "../adapters/cloudflare.ts";
import { DOORBELL_SERVER_HEADER } from "../adapters/cloudflare-doorbell.ts";
import { type DoorbellServer, REPLACED } from "../ports/doorbell.ts";
import { signedRing } from "../services/game/doorbell.ts";
import { markDoorbellClosed } from "../services/game/heartbeat.ts";
import { importSigningKey } from "../services/game/keys.ts";

interface Attachment {
  serverId: number;
  keyHash: string;
  rings: number;
}

export class GameDoorbell extends DurableObject<{ DB: D1Database }> {
  constructor(ctx: DurableObjectState, env: { DB: D1Database }) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** The upgrade: the server's older socket, if any, is closed (4000 replaced) and this one kept. */
  override async fetch(request: Request): Promise<Response> {
    const server = JSON.parse(request.headers.get(DOORBELL_SERVER_HEADER) ?? "null") as DoorbellServer | null;
    if (!server) return new Response(null, { status: 400 });
    const tag = String(server.id);
    for (const older of this.ctx.getWebSockets(tag)) older.close(REPLACED.code, REPLACED.reason);
    const [client, socket] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(socket, [tag]);
    socket.serializeAttachment({ serverId: server.id, keyHash: server.keyHash, rings: 0 } satisfies Attachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** One signed ring to every socket of the type. */
  async ring(): Promise<void> {
    const t = Math.floor(Date.now() / 1000);
    for (const socket of this.ctx.getWebSockets()) {
      const attachment = socket.deserializeAttachment() as Attachment | null;
      const key = attachment ? await importSigningKey(attachment.keyHash) : null;
      if (!attachment || !key) continue;
      const rings = attachment.rings + 1;
      socket.serializeAttachment({ ...attachment, rings } satisfies Attachment);
      try {
        socket.send(JSON.stringify(await signedRing(key, attachment.serverId, rings, t)));
      } catch {
        // Closing as we ring: it reconnects and polls.
      }
    }
  }

  /** A `ping` the auto-response missed (it answers only that exact frame); anything else is ignored. */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "ping") socket.send("pong");
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    try {
      socket.close(code, reason);
    } catch {
      // Already closed by the runtime.
    }
    if (code !== REPLACED.code) await this.gone(socket);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    await this.gone(socket);
  }

  /** A server's socket ended, not replaced by its newer one: its heartbeat no longer says «doorbell» (decision 151). */
  private async gone(socket: WebSocket): Promise<void> {
    const attachment = socket.deserializeAttachment() as Attachment | null;
    if (!attachment) return;
    const newer = this.ctx
      .getWebSockets(String(attachment.serverId))
      .some((other) => other !== socket && other.readyState === WebSocket.OPEN);
    if (newer) return;
    try {
      await markDoorbellClosed(d1Database(this.env.DB), attachment.serverId, Date.now());
    } catch (error) {
      console.error(JSON.stringify({ event: "doorbell_close_mark_failed", error: String(error) }));
    }
  }
}
