import { z } from "zod";

// Steam Web API IGameServersService/GetServerList, filtered by one game address.
// https://steamapi.xpaw.me/#IGameServersService/GetServerList

const steamServerSchema = z.object({
  addr: z.string(),
  gameport: z.number().int().optional(),
  name: z.string().optional(),
  players: z.number().int().min(0),
  max_players: z.number().int().min(0),
  map: z.string().optional(),
});

const getServerListSchema = z.object({
  response: z.object({ servers: z.array(steamServerSchema).optional() }),
});

export type SteamServer = z.infer<typeof steamServerSchema>;

export interface SteamLookup {
  fetch: typeof fetch;
  webApiBase: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** The server at `ipPort` as Steam's master list sees it, or null when it is not listed. Throws on transport or format errors. */
export async function findSteamServer(lookup: SteamLookup, ipPort: string): Promise<SteamServer | null> {
  const url = new URL(`${lookup.webApiBase}/IGameServersService/GetServerList/v1/`);
  url.searchParams.set("filter", `\\gameaddr\\${ipPort}`);
  url.searchParams.set("limit", "1");
  if (lookup.apiKey) url.searchParams.set("key", lookup.apiKey);
  const response = await lookup.fetch(url, { signal: AbortSignal.timeout(lookup.timeoutMs) });
  if (!response.ok) throw new Error(`GetServerList answered ${response.status}`);
  const body = getServerListSchema.parse(await response.json());
  return body.response.servers?.[0] ?? null;
}
