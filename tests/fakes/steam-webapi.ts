// A network-boundary fake of the Steam Web API method IGameServersService/GetServerList,
// scripted per game address. It answers the way api.steampowered.com does (same URL,
// same JSON), or fails the ways it can fail. Pass `fake.fetch` where the Worker's
// outbound fetch goes, and point STEAM_WEBAPI_BASE at `fake.base`.

export const STEAM_BASE = "https://api.steampowered.com";

export type SteamAnswer =
  /** Listed: {"response":{"servers":[{...}]}} */
  | { players: number; maxPlayers: number; name?: string }
  /** Not listed (the server is down or unknown to the master list): {"response":{}} */
  | "offline"
  /** HTTP 404 with Steam's HTML error page. */
  | "not-found"
  /** HTTP 200 with a body that is not JSON. */
  | "malformed"
  /** HTTP 200 with JSON that is not GetServerList's shape. */
  | "wrong-shape"
  /** HTTP 500. */
  | "server-error"
  /** Never answers; rejects only when the caller aborts, like a real fetch. */
  | "slow"
  /** Headers arrive, the body never ends, and the abort signal is ignored. */
  | "stalled-body"
  /** The connection fails. */
  | "network-error";

export interface SteamRequest {
  url: URL;
  filter: string | null;
  key: string | null;
}

export class FakeSteamWebApi {
  readonly base = STEAM_BASE;
  readonly requests: SteamRequest[] = [];
  private readonly answers = new Map<string, SteamAnswer>();
  private fallback: SteamAnswer = "offline";

  /** Script the answer for the server whose game address is `ipPort`. Unscripted addresses are not listed. */
  answer(ipPort: string, answer: SteamAnswer): this {
    this.answers.set(ipPort, answer);
    return this;
  }

  /** The answer for every address not scripted with `answer` (by default: not listed). */
  otherwise(answer: SteamAnswer): this {
    this.fallback = answer;
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== STEAM_BASE) throw new TypeError(`fake Steam: unexpected request to ${url.origin}`);
    const filter = url.searchParams.get("filter");
    this.requests.push({ url, filter, key: url.searchParams.get("key") });
    if (url.pathname !== "/IGameServersService/GetServerList/v1/") return notFound();

    const ipPort = /\\gameaddr\\([^\\]+)/.exec(filter ?? "")?.[1];
    const answer: SteamAnswer = (ipPort && this.answers.get(ipPort)) || this.fallback;
    switch (answer) {
      case "offline":
        return Response.json({ response: {} });
      case "not-found":
        return notFound();
      case "malformed":
        return new Response("<html><body>Service Unavailable", {
          headers: { "content-type": "application/json; charset=UTF-8" },
        });
      case "wrong-shape":
        return Response.json({ response: { servers: [{ addr: ipPort, players: "many" }] } });
      case "server-error":
        return new Response("<html><head><title>500 Internal Server Error</title></head></html>", {
          status: 500,
          headers: { "content-type": "text/html" },
        });
      case "slow":
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal ?? request.signal;
          signal.addEventListener("abort", () => reject(signal.reason));
        });
      case "stalled-body":
        return new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"response":{"servers":['));
            },
          }),
          { headers: { "content-type": "application/json; charset=UTF-8" } },
        );
      case "network-error":
        throw new TypeError("Network connection lost.");
      default:
        return ipPort
          ? Response.json({ response: { servers: [listing(ipPort, answer)] } })
          : Response.json({ response: {} });
    }
  };
}

function notFound(): Response {
  return new Response("<html><head><title>Not Found</title></head><body><h1>Not Found</h1></body></html>", {
    status: 404,
    headers: { "content-type": "text/html; charset=UTF-8" },
  });
}

// One server entry exactly as GetServerList lists a Rust server (addr is the query port).
function listing(ipPort: string, answer: { players: number; maxPlayers: number; name?: string }) {
  const [ip, port] = ipPort.split(":");
  return {
    addr: `${ip}:${Number(port) + 1}`,
    gameport: Number(port),
    steamid: "90200123456789012",
    name: answer.name ?? "Rust server",
    appid: 252490,
    gamedir: "rust",
    version: "2593",
    product: "rust",
    region: 3,
    players: answer.players,
    max_players: answer.maxPlayers,
    bots: 0,
    map: "Procedural Map",
    secure: true,
    dedicated: true,
    os: "l",
    gametype: "monthly,vanilla,v2593,born1700000000,gmrust,cs0,qp0",
  };
}
