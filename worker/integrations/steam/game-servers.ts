import { z } from "zod";

// Steam Web API IGameServersService/GetServerList, filtered by one game address.
// https://steamapi.xpaw.me/#IGameServersService/GetServerList
// An entry's `addr` is the IP and *query* port; `gameport` is the port players connect to.

const steamServerSchema = z.object({
  addr: z.string(),
  gameport: z.number().int().optional(),
  name: z.string().optional(),
  players: z.number().int().min(0),
  max_players: z.number().int().min(0),
  map: z.string().optional(),
  /** Rust's server tags, comma-separated: «born<unix seconds>» is when the save was made (the last wipe). */
  gametype: z.string().optional(),
});

/** When the server's save was made (its last wipe), from Rust's «born<unix seconds>» tag, in ms; null when not told. */
export function steamWipedAt(server: Pick<SteamServer, "gametype">): number | null {
  const born = /(?:^|,)born(\d{9,11})(?:,|$)/.exec(server.gametype ?? "")?.[1];
  return born ? Number(born) * 1000 : null;
}

// A listed server answers {"response":{"servers":[...]}}; an unlisted one {"response":{}}.
const getServerListSchema = z.object({
  response: z.object({ servers: z.array(z.unknown()).optional() }),
});

export type SteamServer = z.infer<typeof steamServerSchema>;

export interface SteamLookup {
  fetch: typeof fetch;
  webApiBase: string;
  apiKey: string | undefined;
  /** The whole lookup (connect, headers and body) gives up after this long. */
  timeoutMs: number;
}

export class SteamLookupError extends Error {}

export function getServerListUrl(webApiBase: string, ipPort: string, apiKey?: string): URL {
  const url = new URL(`${webApiBase}/IGameServersService/GetServerList/v1/`);
  url.searchParams.set("filter", `\\gameaddr\\${ipPort}`);
  url.searchParams.set("limit", "10");
  if (apiKey) url.searchParams.set("key", apiKey);
  return url;
}

/**
 * The server at `ipPort` as Steam's master list sees it, or null when it is not listed.
 * Throws SteamLookupError on a transport error, a non-2xx answer, a malformed body or a timeout.
 */
export async function findSteamServer(lookup: SteamLookup, ipPort: string): Promise<SteamServer | null> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Race our own timer too: the abort signal only helps if the fetch honours it.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SteamLookupError(`GetServerList gave no answer within ${lookup.timeoutMs} ms`));
    }, lookup.timeoutMs);
  });
  try {
    return await Promise.race([lookupOnce(lookup, ipPort, controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function lookupOnce(lookup: SteamLookup, ipPort: string, signal: AbortSignal): Promise<SteamServer | null> {
  const url = getServerListUrl(lookup.webApiBase, ipPort, lookup.apiKey);
  const response = await lookup.fetch(url, { signal, headers: { accept: "application/json" } });
  if (!response.ok) {
    await response.body?.cancel();
    throw new SteamLookupError(`GetServerList answered ${response.status}`);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new SteamLookupError("GetServerList answered a body that is not JSON");
  }
  const body = getServerListSchema.safeParse(json);
  if (!body.success) throw new SteamLookupError("GetServerList answered an unexpected shape");
  const gamePort = Number(ipPort.slice(ipPort.lastIndexOf(":") + 1));
  const ip = ipPort.slice(0, ipPort.lastIndexOf(":"));
  for (const entry of body.data.response.servers ?? []) {
    const server = steamServerSchema.safeParse(entry);
    if (!server.success) throw new SteamLookupError("GetServerList listed a server of an unexpected shape");
    // The filter should already match one address; keep only the entry for our IP and game port.
    const sameIp = server.data.addr.slice(0, server.data.addr.lastIndexOf(":")) === ip;
    const samePort = server.data.gameport === undefined || server.data.gameport === gamePort;
    if (sameIp && samePort) return server.data;
  }
  return null;
}
