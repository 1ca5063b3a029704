import { GAME_ERRORS } from "#core/messages/game.ts";

// The doorbell (issue 48, decision 146): a WebSocket a game server's plugin keeps open so the site can
// tell it "poll now" the moment a delivery for its type becomes due. A ring carries nothing but
// timing: every delivery still goes through the signed poll, lease and ack.

/** A plugin whose signed upgrade request the site verified. */
export interface DoorbellServer {
  id: number;
  serverType: string;
  /** SHA-256 hex of the server's key: the HMAC key both sides sign with, here for the rings. */
  keyHash: string;
}

export interface Doorbell {
  /** Takes the verified upgrade request of `server`; the answer is the runtime's (101 when it upgraded). */
  connect(request: Request, server: DoorbellServer): Promise<Response>;
  /** Rings every connected server of the type: each gets one signed ring frame. */
  ring(serverType: string): Promise<void>;
}

/** How a server's older socket is closed when it connects again (the protocol's, docs/delivery.md): not the server gone. */
export const REPLACED = { code: 4000, reason: "replaced" } as const;

/** A runtime without a doorbell: upgrades are refused, rings go nowhere, plugins poll as before. */
export const noDoorbell: Doorbell = {
  connect: async () =>
    new Response(JSON.stringify({ error: GAME_ERRORS.doorbellUnavailable }), {
      status: 426,
      headers: { "content-type": "application/json" },
    }),
  ring: async () => {},
};
