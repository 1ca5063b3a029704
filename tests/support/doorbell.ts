// The plugin's side of the doorbell (decision 146) for the tests: the signed upgrade's headers and the
// check of a ring frame, as the protocol has them (the plugin in plugins/oxide does the same).
import { hmacHex } from "./plugin-simulator.ts";

export const DOORBELL_PATH = "/api/game/doorbell";

const lastTimestamp = new Map<number, number>();

/**
 * Now, in unix seconds, but past the last connect of the server made here: a connect is recorded
 * (decision 146), so two in one second would be one request sent twice, which the site refuses.
 */
function nextTimestamp(serverId: number): number {
  const timestamp = Math.max(Math.floor(Date.now() / 1000), (lastTimestamp.get(serverId) ?? 0) + 1);
  lastTimestamp.set(serverId, timestamp);
  return timestamp;
}

/** The upgrade request's signature headers: a GET of the doorbell's path with an empty body. */
export async function doorbellHeaders(
  serverId: number,
  serverKey: string,
  timestamp = nextTimestamp(serverId),
): Promise<Record<string, string>> {
  return {
    "X-Server-Id": String(serverId),
    "X-Timestamp": String(timestamp),
    "X-Signature": await hmacHex(serverKey, `${timestamp}\nGET\n${DOORBELL_PATH}\n`),
  };
}

/**
 * The plugin's probe after an upgrade signed at `upgradeSignedAt` was answered without upgrading
 * (decision 149): a plain GET whose signature covers the query, signed now.
 */
export async function probeRequest(
  serverId: number,
  serverKey: string,
  upgradeSignedAt: number,
): Promise<{ path: string; headers: Record<string, string> }> {
  const path = `${DOORBELL_PATH}?probe=${upgradeSignedAt}`;
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    path,
    headers: {
      "X-Server-Id": String(serverId),
      "X-Timestamp": String(timestamp),
      "X-Signature": await hmacHex(serverKey, `${timestamp}\nGET\n${path}\n`),
    },
  };
}

export interface Ring {
  ring: number;
  t: number;
  sig: string;
}

/** Whether a ring frame is the site's, signed with this server's key. */
export async function ringVerifies(serverKey: string, serverId: number, frame: Ring): Promise<boolean> {
  return frame.sig === (await hmacHex(serverKey, `doorbell\n${serverId}\n${frame.ring}\n${frame.t}`));
}
