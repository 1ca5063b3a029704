import { eq } from "drizzle-orm";
import { z } from "zod";
import { asBatch } from "#db/batch.ts";
import { serverHeartbeats, servers } from "#db/schema.ts";
import type { Deps } from "../deps.ts";
import { findSteamServer } from "../integrations/steam/game-servers.ts";

export const STATUS_KEY = "server-status:v1";
/** A server seen neither by Steam nor by its own heartbeat for this long is offline. */
export const OFFLINE_AFTER_MS = 3 * 60 * 1000;
/** Rewrite an unchanged document this often, so `updated_at` shows the cron is alive. */
const REWRITE_UNCHANGED_AFTER_MS = 15 * 60 * 1000;
const STEAM_TIMEOUT_MS = 5000;

const publicServerSchema = z.object({
  name: z.string(),
  server_type: z.string(),
  status: z.enum(["online", "offline"]),
  players: z.object({ current: z.number().int(), max: z.number().int() }),
  ip_port: z.string(),
});

const statusDocumentSchema = z.object({
  updated_at: z.number(),
  servers: z.array(publicServerSchema),
});

/** What the API and the pages show of a server (spec section 3). */
export type PublicServer = z.infer<typeof publicServerSchema>;
export type StatusDocument = z.infer<typeof statusDocumentSchema>;

interface Sighting {
  players: number;
  maxPlayers: number;
  seenAt: number;
}

export async function readStatusDocument(deps: Pick<Deps, "kv">): Promise<StatusDocument | null> {
  const raw = await deps.kv.get(STATUS_KEY, { type: "json", cacheTtl: 30 });
  const parsed = statusDocumentSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export async function listPublicServers(deps: Pick<Deps, "kv">): Promise<PublicServer[]> {
  return (await readStatusDocument(deps))?.servers ?? [];
}

/**
 * The cron's work: ask Steam about every server, merge the plugins' heartbeats,
 * and write one document to KV. A failing lookup only means "not seen now".
 */
export async function refreshServerStatus(deps: Deps): Promise<StatusDocument> {
  const now = deps.now().getTime();
  const [rows, heartbeats, previous] = await Promise.all([
    deps.db.select().from(servers).orderBy(servers.sortOrder, servers.id),
    deps.db.select().from(serverHeartbeats),
    readStatusDocument(deps),
  ]);
  const heartbeatById = new Map(heartbeats.map((beat) => [beat.serverId, beat]));

  const looked = await Promise.all(
    rows.map(async (server) => ({
      server,
      steam: await findSteamServer(
        {
          fetch: deps.fetch,
          webApiBase: deps.config.steamWebApiBase,
          apiKey: deps.config.steamApiKey,
          timeoutMs: STEAM_TIMEOUT_MS,
        },
        server.ipPort,
      ).catch((error: unknown) => {
        console.warn(JSON.stringify({ event: "steam_lookup_failed", server: server.ipPort, error: String(error) }));
        return null;
      }),
    })),
  );

  const seenBySteam = looked.filter((entry) => entry.steam !== null);
  if (seenBySteam.length > 0) {
    await deps.db.batch(
      asBatch(
        seenBySteam.map(({ server, steam }) =>
          deps.db
            .update(servers)
            .set({ steamSeenAt: now, steamPlayers: steam?.players, steamMaxPlayers: steam?.max_players })
            .where(eq(servers.id, server.id)),
        ),
      ),
    );
  }

  const document: StatusDocument = {
    updated_at: now,
    servers: looked.map(({ server, steam }) => {
      const sightings: Sighting[] = [];
      if (steam) sightings.push({ players: steam.players, maxPlayers: steam.max_players, seenAt: now });
      else if (server.steamSeenAt != null) {
        sightings.push({
          players: server.steamPlayers ?? 0,
          maxPlayers: server.steamMaxPlayers ?? 0,
          seenAt: server.steamSeenAt,
        });
      }
      const beat = heartbeatById.get(server.id);
      if (beat) sightings.push({ players: beat.players, maxPlayers: beat.maxPlayers, seenAt: beat.receivedAt });

      // The freshest sighting wins; a plugin heartbeat is usually fresher than Steam's list.
      const latest = sightings.sort((a, b) => b.seenAt - a.seenAt)[0];
      const online = latest !== undefined && now - latest.seenAt < OFFLINE_AFTER_MS;
      return {
        name: server.name,
        server_type: server.serverType,
        status: online ? "online" : "offline",
        players: { current: online && latest ? latest.players : 0, max: latest?.maxPlayers ?? 0 },
        ip_port: server.ipPort,
      };
    }),
  };

  // Free-plan KV allows 1,000 writes a day, fewer than one a minute: write only what changed.
  const changed = !previous || JSON.stringify(previous.servers) !== JSON.stringify(document.servers);
  if (changed || now - previous.updated_at >= REWRITE_UNCHANGED_AFTER_MS) {
    await deps.kv.put(STATUS_KEY, JSON.stringify(document));
    return document;
  }
  return previous;
}
