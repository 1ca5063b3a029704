import type { Deps } from "../../deps.ts";
import { hmacHex } from "./keys.ts";

// The site's side of the doorbell (decision 146). A ring means only "poll now": it is sent after the
// write that made a delivery or a revoke due has committed, and never holds up or fails the answer
// of the player or operator who made it (on Workers through waitUntil; on Node it runs on its own).

/** One ring frame as the plugin reads it: a counter per socket, our clock, and the signature over both. */
export interface RingFrame {
  ring: number;
  t: number;
  sig: string;
}

/** What a ring's signature covers: `doorbell\n${serverId}\n${ring}\n${t}`, HMAC'd with the server's request key. */
export async function signedRing(key: CryptoKey, serverId: number, ring: number, t: number): Promise<RingFrame> {
  return { ring, t, sig: await hmacHex(key, `doorbell\n${serverId}\n${ring}\n${t}`) };
}

/** Rings the connected servers of each type once, in the background; a failure is logged, never thrown. */
export function ringDoorbell(deps: Pick<Deps, "waitUntil" | "doorbell">, serverTypes: Iterable<string>): void {
  for (const serverType of new Set(serverTypes)) {
    deps.waitUntil(
      deps.doorbell
        .ring(serverType)
        .catch((error) =>
          console.error(JSON.stringify({ event: "doorbell_ring_failed", serverType, error: String(error) })),
        ),
    );
  }
}
