// A network-boundary fake of Steam's OpenID 2.0 provider (https://steamcommunity.com/openid/login)
// and of ISteamUser/GetPlayerSummaries. It builds the positive assertions Steam
// sends back in the browser's redirect, and answers `check_authentication`
// POSTs the way Steam does (or fails the ways Steam can fail). Pass `fake.fetch`
// as the Worker's outbound fetch with STEAM_OPENID_ENDPOINT = STEAM_OPENID_ENDPOINT.

export const STEAM_OPENID_ENDPOINT = "https://steamcommunity.com/openid/login";
export const STEAM_WEBAPI = "https://api.steampowered.com";
export const OPENID_NS = "http://specs.openid.net/auth/2.0";
export const SIGNED = "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle";

export type CheckAnswer =
  | "valid"
  | "invalid"
  | { status: number; body?: string }
  /** 200 with an empty body. */
  | "empty"
  /** The connection fails. */
  | "network-error";

let nonceCounter = 0;

/** A Steam response nonce: the time to the second, then unique characters. */
export function steamNonce(at: Date): string {
  nonceCounter += 1;
  const unique = `${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}${nonceCounter}`;
  return `${at.toISOString().slice(0, 19)}Z${unique}`;
}

/** The parameters Steam appends to return_to after a successful sign-in. */
export function steamAssertion(options: {
  returnTo: string;
  steamId?: string;
  at: Date;
  endpoint?: string;
}): URLSearchParams {
  const identity = `https://steamcommunity.com/openid/id/${options.steamId ?? "76561198012345678"}`;
  return new URLSearchParams({
    "openid.ns": OPENID_NS,
    "openid.mode": "id_res",
    "openid.op_endpoint": options.endpoint ?? STEAM_OPENID_ENDPOINT,
    "openid.claimed_id": identity,
    "openid.identity": identity,
    "openid.return_to": options.returnTo,
    "openid.response_nonce": steamNonce(options.at),
    "openid.assoc_handle": "1234567890",
    "openid.signed": SIGNED,
    "openid.sig": "W0u5DRbtHE1GG0ZKXjerUZDUGmc=",
  });
}

/** The callback URL a browser lands on: return_to followed by Steam's parameters. */
export function callbackUrl(params: URLSearchParams): string {
  const returnTo = params.get("openid.return_to") ?? "";
  return `${returnTo}${returnTo.includes("?") ? "&" : "?"}${params.toString()}`;
}

export interface PlayerSummary {
  personaname: string;
  avatarfull: string;
}

export class FakeSteamOpenId {
  /** The bodies of every check_authentication POST, in order. */
  readonly checks: URLSearchParams[] = [];
  /** Every URL requested anywhere, in order. */
  readonly requested: string[] = [];
  private checkAnswer: CheckAnswer = "valid";
  private readonly players = new Map<string, PlayerSummary>();

  answerCheck(answer: CheckAnswer): this {
    this.checkAnswer = answer;
    return this;
  }

  player(steamId: string, summary: PlayerSummary): this {
    this.players.set(steamId, summary);
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    this.requested.push(request.url);
    const url = new URL(request.url);
    if (request.url === STEAM_OPENID_ENDPOINT && request.method === "POST") {
      this.checks.push(new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer())));
      const answer = this.checkAnswer;
      if (answer === "network-error") throw new TypeError("fetch failed");
      if (answer === "empty") return new Response("", { status: 200 });
      if (answer === "valid" || answer === "invalid") {
        return new Response(`ns:${OPENID_NS}\nis_valid:${answer === "valid"}\n`, {
          headers: { "content-type": "text/plain;charset=utf-8" },
        });
      }
      return new Response(answer.body ?? "", { status: answer.status });
    }
    if (url.origin === STEAM_WEBAPI && url.pathname === "/ISteamUser/GetPlayerSummaries/v2/") {
      if (!url.searchParams.get("key")) return new Response("<html><h1>Forbidden</h1></html>", { status: 403 });
      const ids = (url.searchParams.get("steamids") ?? "").split(",");
      const players = ids.flatMap((steamid) => {
        const summary = this.players.get(steamid);
        return summary
          ? [{ steamid, ...summary, avatar: summary.avatarfull, avatarmedium: summary.avatarfull, profilestate: 1 }]
          : [];
      });
      return Response.json({ response: { players } });
    }
    throw new TypeError(`fake Steam: unexpected request to ${request.url}`);
  };
}
