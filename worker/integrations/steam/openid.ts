// Steam OpenID 2.0, the relying-party side, validated the way xPaw/SteamOpenID
// does it (https://github.com/xPaw/SteamOpenID.php), plus a replay check.
// Network goes through `deps.fetch` only, so it runs on Workers and tests fake
// Steam at the network boundary.
import { openidNonces } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";

export const OPENID_NS = "http://specs.openid.net/auth/2.0";
export const IDENTIFIER_SELECT = "http://specs.openid.net/auth/2.0/identifier_select";
export const EXPECTED_SIGNED = "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle";
/** Steam's identities, also produced by the local stand-in so the pattern stays strict everywhere. */
export const STEAM_IDENTITY_PATTERN = /^https:\/\/steamcommunity\.com\/openid\/id\/(7656119\d{10})$/;
export const STEAM_IDENTITY_PREFIX = "https://steamcommunity.com/openid/id/";
export const NONCE_MAX_AGE_MS = 5 * 60 * 1000;

export type OpenIdFailure =
  | "cancelled"
  | "state"
  | "missing_param"
  | "repeated_param"
  | "mode"
  | "ns"
  | "signed"
  | "op_endpoint"
  | "claimed_id"
  | "identity"
  | "return_to"
  | "nonce_format"
  | "nonce_stale"
  | "nonce_replayed"
  | "not_valid"
  | "provider_unavailable";

/** Why a Steam OpenID answer was refused. `reason` is for logs and tests; users see a Russian text by kind. */
export class SteamOpenIdError extends Error {
  constructor(
    readonly reason: OpenIdFailure,
    detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = "SteamOpenIdError";
  }
}

/** The address that sends the browser to the provider (`checkid_setup`). */
export function steamLoginUrl(endpoint: string, returnTo: string, realm: string): string {
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    "openid.ns": OPENID_NS,
    "openid.mode": "checkid_setup",
    "openid.return_to": returnTo,
    "openid.realm": realm,
    "openid.identity": IDENTIFIER_SELECT,
    "openid.claimed_id": IDENTIFIER_SELECT,
  }).toString();
  return url.toString();
}

/** True when `returnTo` is exactly our callback, with nothing but a query after it (no prefix matches). */
export function isOurReturnTo(returnTo: string, callbackUrl: string): boolean {
  let parsed: URL;
  let expected: URL;
  try {
    parsed = new URL(returnTo);
    expected = new URL(callbackUrl);
  } catch {
    return false;
  }
  if (!returnTo.startsWith(callbackUrl)) return false;
  const rest = returnTo.slice(callbackUrl.length);
  if (rest !== "" && !rest.startsWith("?")) return false;
  return parsed.origin === expected.origin && parsed.pathname === expected.pathname && parsed.hash === "";
}

/** The time at the head of an OpenID nonce (`2026-11-22T12:00:00Z` + unique characters), or null. */
export function nonceTime(nonce: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)./.exec(nonce);
  if (!match?.[1]) return null;
  const time = Date.parse(match[1]);
  return Number.isNaN(time) ? null : time;
}

function parseKeyValues(body: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of body.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    values[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return values;
}

export interface VerifiedSteamLogin {
  steamId: string;
  /** The verified `openid.return_to`, signed by the provider. */
  returnTo: string;
}

/**
 * Checks a positive assertion from the provider, in order: no repeated openid field, mode, ns, the exact
 * signed list, op_endpoint, claimed_id == identity, the SteamID64 identity,
 * return_to, nonce age, nonce not seen before (claimed by insert), and finally
 * the provider's own `check_authentication` answer.
 */
export async function verifySteamAssertion(
  deps: Pick<Deps, "db" | "config" | "now" | "fetch">,
  query: URLSearchParams,
  callbackUrl: string,
): Promise<VerifiedSteamLogin> {
  const params = singleOpenIdFields(query);
  const mode = params.get("openid.mode");
  if (mode === "cancel") throw new SteamOpenIdError("cancelled");
  if (mode !== "id_res") throw new SteamOpenIdError("mode", String(mode));
  if (params.get("openid.ns") !== OPENID_NS) throw new SteamOpenIdError("ns");

  const required = ["openid.sig", ...EXPECTED_SIGNED.split(",").map((key) => `openid.${key}`)];
  for (const key of required) {
    if (!params.get(key)) throw new SteamOpenIdError("missing_param", key);
  }
  if (params.get("openid.signed") !== EXPECTED_SIGNED) throw new SteamOpenIdError("signed");
  if (params.get("openid.op_endpoint") !== deps.config.steamOpenIdEndpoint) {
    throw new SteamOpenIdError("op_endpoint");
  }
  const identity = params.get("openid.identity") ?? "";
  if (params.get("openid.claimed_id") !== identity) throw new SteamOpenIdError("claimed_id");
  const steamId = STEAM_IDENTITY_PATTERN.exec(identity)?.[1];
  if (!steamId) throw new SteamOpenIdError("identity");
  const returnTo = params.get("openid.return_to") ?? "";
  if (!isOurReturnTo(returnTo, callbackUrl)) throw new SteamOpenIdError("return_to");

  const nonce = params.get("openid.response_nonce") ?? "";
  const issuedAt = nonceTime(nonce);
  if (issuedAt === null) throw new SteamOpenIdError("nonce_format");
  const now = deps.now().getTime();
  if (Math.abs(now - issuedAt) > NONCE_MAX_AGE_MS) throw new SteamOpenIdError("nonce_stale");
  // Inserting is claiming: a nonce seen before hits the primary key.
  const claimed = await deps.db.orm
    .insert(openidNonces)
    .values({ nonce, seenAt: now })
    .onConflictDoNothing()
    .returning({ nonce: openidNonces.nonce });
  if (claimed.length === 0) throw new SteamOpenIdError("nonce_replayed");

  await checkAuthentication(deps, params);
  return { steamId, returnTo };
}

/**
 * The `openid.*` fields of a callback, each exactly once. A repeated field is refused: the checks
 * above read one value and a provider may confirm another (one that keeps the last value would
 * confirm the attacker's genuine identity placed after a victim's), so the site and the provider
 * must see the very same single values.
 */
function singleOpenIdFields(query: URLSearchParams): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of query) {
    if (!key.startsWith("openid.")) continue;
    if (fields.has(key)) throw new SteamOpenIdError("repeated_param", key);
    fields.set(key, value);
  }
  return fields;
}

/** Asks the provider whether it really issued this assertion (`openid.mode=check_authentication`). */
async function checkAuthentication(deps: Pick<Deps, "config" | "fetch">, fields: Map<string, string>): Promise<void> {
  const body = new URLSearchParams([...fields]);
  body.set("openid.mode", "check_authentication");
  let response: Response;
  try {
    response = await deps.fetch(deps.config.steamOpenIdEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/plain" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new SteamOpenIdError("provider_unavailable", String(error));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SteamOpenIdError("provider_unavailable", `HTTP ${response.status}`);
  }
  const answer = parseKeyValues(await response.text());
  if (answer.ns !== OPENID_NS || answer.is_valid === undefined) {
    throw new SteamOpenIdError("provider_unavailable", "malformed check_authentication answer");
  }
  if (answer.is_valid !== "true") throw new SteamOpenIdError("not_valid");
}
