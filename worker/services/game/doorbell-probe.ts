import { GAME_ERRORS } from "#core/messages/game.ts";
import type { Deps } from "../../deps.ts";
import { noDoorbell } from "../../ports/doorbell.ts";
import { hmacHex } from "./keys.ts";
import {
  canonicalRequest,
  isFresh,
  TIMESTAMP_PATTERN,
  type VerifiedGameRequest,
  withinSignatureWindow,
} from "./signature.ts";

// The doorbell's probe (decision 149). A plugin's ClientWebSocket can't say how an upgrade was answered
// without upgrading, so the plugin asks with a plain signed GET /api/game/doorbell?probe=<the upgrade's
// X-Timestamp>. The answer says whether the site would have taken that upgrade: 204 if so (then
// something on the way refused it), else the refusal the upgrade itself got or would get.

export type ProbeAnswer = { status: 204 } | { status: 400 | 401 | 409 | 426; error: string };

/**
 * Whether the upgrade this server signed at `upgradeSignedAt` (unix seconds, as the `probe` parameter
 * says) for `path` (the probe's own path, the doorbell's, with no query) would have been taken: the server has a type, the time is within the window, the upgrade was
 * not recorded already (a copy of it, or the plugin's own second connect in that second) nor older
 * than the server's newest recorded request, and the site has a doorbell.
 */
export async function probeUpgrade(
  deps: Pick<Deps, "doorbell" | "now">,
  game: VerifiedGameRequest,
  path: string,
  upgradeSignedAt: string,
): Promise<ProbeAnswer> {
  if (!TIMESTAMP_PATTERN.test(upgradeSignedAt)) return { status: 400, error: GAME_ERRORS.badRequest };
  if (!game.server.serverType) return { status: 401, error: GAME_ERRORS.badSignature };
  const signedAt = Number(upgradeSignedAt);
  if (!withinSignatureWindow(deps, signedAt)) {
    return { status: 401, error: GAME_ERRORS.timestampOutOfWindow };
  }
  const upgradeSignature = await hmacHex(game.key, canonicalRequest(upgradeSignedAt, "GET", path, ""));
  if (!isFresh(game.marks, game.heartbeat?.signedAt ?? 0, signedAt, upgradeSignature)) {
    return { status: 409, error: GAME_ERRORS.replayed };
  }
  if (deps.doorbell === noDoorbell) return { status: 426, error: GAME_ERRORS.doorbellUnavailable };
  return { status: 204 };
}
