import { eq } from "drizzle-orm";
import { z } from "zod";
import { parseWipeSchedule, scheduleFromColumns, type WipeSchedule } from "#core/wipe/schedule.ts";
import { serverHeartbeats, servers } from "#db/schema.ts";
import type { Deps } from "../deps.ts";
import { findSteamServer, type SteamServer, steamWipedAt } from "../integrations/steam/game-servers.ts";
import { statement } from "../ports/database.ts";
import type { KeyValueStore } from "../ports/key-value.ts";
import { type Witness, type WitnessStore, witnessSchema } from "../ports/witness.ts";
import { ALIVE_AFTER_HEARTBEAT_MS, heartbeatAlive } from "./game/liveness.ts";
import { sameProgress } from "./restore/progress.ts";

export const STATUS_KEY = "server-status:v1";
/**
 * Steam's sighting keeps a server online this long; its plugin's heartbeat keeps it online as long as
 * the liveness rule says (game/liveness.ts: 3 minutes, 9 with the doorbell connected).
 */
export const OFFLINE_AFTER_MS = ALIVE_AFTER_HEARTBEAT_MS;
/**
 * KV budget (docs/decisions/001-kv-write-budget.md): a changed document is written at most
 * every other minutely run, an unchanged one every 15 minutes so `updated_at` shows the cron is alive.
 */
export const MIN_WRITE_INTERVAL_MS = 110 * 1000;
export const REWRITE_UNCHANGED_AFTER_MS = 15 * 60 * 1000;
export const STEAM_TIMEOUT_MS = 5000;
/**
 * Steam's sighting of a server is saved at most this often: it is read only when a lookup fails, and
 * a sighting this old still keeps the server online through one failed lookup (OFFLINE_AFTER_MS).
 * Saving it every minute for every server was a tenth of a busy day's writes (decision 126).
 */
export const SIGHTING_SAVE_INTERVAL_MS = 110 * 1000;
/**
 * …and not at all while a plugin heartbeat keeps the server online for at least this long still (its
 * next beat comes before then): 90 s after a plain heartbeat, 7½ minutes after one with the doorbell.
 */
export const SIGHTING_NOT_NEEDED_WHILE_ALIVE_FOR_MS = 90 * 1000;
/** Workers allow six simultaneous outgoing connections; more would only queue. */
const STEAM_CONCURRENCY = 6;

const publicServerSchema = z.object({
  name: z.string(),
  server_type: z.string(),
  status: z.enum(["online", "offline"]),
  players: z.object({ current: z.number().int(), max: z.number().int() }),
  ip_port: z.string(),
  // From the plugin's heartbeat (absent in documents written before, null when not reported).
  map: z.object({ name: z.string().nullable(), size: z.number().int().nullable() }).nullish(),
  /** The last wipe (Rust's save creation time), ms. */
  wiped_at: z.number().nullish(),
  /** The wipe schedule (decision 128): the list and /wipes compute the next wipe from it. */
  // One that is not a schedule is dropped, never shown as a wrong promise; the server is still listed.
  wipe: z
    .unknown()
    .transform((value): WipeSchedule | undefined => parseWipeSchedule(value) ?? undefined)
    .optional(),
});

const statusDocumentSchema = z.object({
  updated_at: z.number(),
  servers: z.array(publicServerSchema),
  // On Workers, the site's witness of its own progress rides here (decision 133): it adds no KV write.
  // Never served: /api/server-status answers the servers only. One that doesn't parse is dropped.
  witness: witnessSchema.optional().catch(undefined),
});

/** What the API and the pages show of a server. */
export type PublicServer = z.infer<typeof publicServerSchema>;
export type StatusDocument = z.infer<typeof statusDocumentSchema>;

export interface ServerStatusRead {
  /** "unavailable": KV itself failed; "empty": no usable document yet (or garbage). */
  state: "ok" | "empty" | "unavailable";
  servers: PublicServer[];
  updatedAt: number | null;
}

async function readDocument(kv: KeyValueStore, cacheTtlSeconds?: number): Promise<StatusDocument | null> {
  const raw = await kv.get(STATUS_KEY, { cacheTtlSeconds });
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = statusDocumentSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The status document as the cron last wrote it. the key-value store only: never a database query, never throws. */
export async function readServerStatus(deps: Pick<Deps, "kv">): Promise<ServerStatusRead> {
  try {
    // Hot path: let KV keep the value at the edge for 30 s (its minimum).
    const document = await readDocument(deps.kv, 30);
    if (!document) return { state: "empty", servers: [], updatedAt: null };
    return { state: "ok", servers: document.servers, updatedAt: document.updated_at };
  } catch (error) {
    console.error(JSON.stringify({ event: "server_status_read_failed", error: String(error) }));
    return { state: "unavailable", servers: [], updatedAt: null };
  }
}

export interface RefreshOptions {
  /** How long one Steam lookup may take before the server counts as "not seen now". */
  steamTimeoutMs?: number;
  /** The witness the document carries (Workers, decision 133); left out, the previous document's stays. */
  witness?: Witness;
}

/**
 * The witness as the status document in KV carries it (Workers, decision 133). `write` does nothing:
 * the cron's refresh writes the document with the witness in it, within the KV budget of decision 001.
 */
export function statusDocumentWitness(kv: KeyValueStore): WitnessStore {
  return {
    read: async () => (await readDocument(kv))?.witness ?? null,
    write: async () => {},
  };
}

export interface RefreshResult {
  /** The status as computed now (KV may still hold the previous document, see `written`). */
  document: StatusDocument;
  /** Whether this run wrote KV (see MIN_WRITE_INTERVAL_MS and REWRITE_UNCHANGED_AFTER_MS). */
  written: boolean;
}

interface Sighting {
  players: number;
  maxPlayers: number;
  seenAt: number;
  /** Whether it still says the server is online. */
  alive: boolean;
}

/**
 * The cron's work: ask Steam about every server, merge the plugins' heartbeats,
 * and write one document to KV. A failing lookup only means "not seen now".
 */
export async function refreshServerStatus(deps: Deps, options: RefreshOptions = {}): Promise<RefreshResult> {
  const now = deps.now().getTime();
  const timeoutMs = options.steamTimeoutMs ?? STEAM_TIMEOUT_MS;
  const [rows, heartbeats, previous] = await Promise.all([
    deps.db.orm.select().from(servers).orderBy(servers.sortOrder, servers.id),
    deps.db.orm
      .select({
        serverId: serverHeartbeats.serverId,
        players: serverHeartbeats.players,
        maxPlayers: serverHeartbeats.maxPlayers,
        receivedAt: serverHeartbeats.receivedAt,
        map: serverHeartbeats.map,
        mapSize: serverHeartbeats.mapSize,
        wipedAt: serverHeartbeats.wipedAt,
        doorbell: serverHeartbeats.doorbell,
      })
      .from(serverHeartbeats),
    // The cron needs the current value, not an edge-cached one.
    readDocument(deps.kv).catch(() => null),
  ]);
  const heartbeatById = new Map(heartbeats.map((beat) => [beat.serverId, beat]));

  const steamById = new Map<number, SteamServer>();
  await forEachLimited(rows, STEAM_CONCURRENCY, async (server) => {
    try {
      const steam = await findSteamServer(
        {
          fetch: deps.fetch,
          webApiBase: deps.config.steamWebApiBase,
          apiKey: deps.config.steamApiKey,
          timeoutMs,
        },
        server.ipPort,
      );
      if (steam) steamById.set(server.id, steam);
    } catch (error) {
      // One server's failure never spoils the others: it just wasn't seen by Steam this minute.
      console.warn(JSON.stringify({ event: "steam_lookup_failed", server: server.ipPort, error: String(error) }));
    }
  });

  // Keep Steam's last sighting in the database (not the key-value store: see decision 001), so a failed lookup
  // next minute still knows when the server was last seen: only when it may be needed (decision 126).
  const serverById = new Map(rows.map((server) => [server.id, server]));
  const toSave = [...steamById].filter(([id]) => {
    const server = serverById.get(id);
    const beat = heartbeatById.get(id);
    // A plugin's fresh heartbeat already says the server is up; the sighting's memory isn't needed.
    if (beat && heartbeatAlive(beat, now + SIGHTING_NOT_NEEDED_WHILE_ALIVE_FOR_MS)) return false;
    return server?.steamSeenAt == null || now - server.steamSeenAt >= SIGHTING_SAVE_INTERVAL_MS;
  });
  if (toSave.length > 0) {
    try {
      await deps.db.batch(
        toSave.map(([id, steam]) =>
          statement(
            deps.db.orm
              .update(servers)
              .set({ steamSeenAt: now, steamPlayers: steam.players, steamMaxPlayers: steam.max_players })
              .where(eq(servers.id, id)),
          ),
        ),
      );
    } catch (error) {
      console.error(JSON.stringify({ event: "steam_sighting_save_failed", error: String(error) }));
    }
  }

  // A server Steam didn't answer for this minute keeps the map and wipe the last document had.
  const earlier = (ipPort: string) => previous?.servers.find((entry) => entry.ip_port === ipPort);
  const current: PublicServer[] = rows.map((server) => {
    // Only a set schedule travels (decision 128): a server without one reads as before.
    const schedule = scheduleFromColumns(server);
    const sightings: Sighting[] = [];
    const steam = steamById.get(server.id);
    if (steam) sightings.push({ players: steam.players, maxPlayers: steam.max_players, seenAt: now, alive: true });
    else if (server.steamSeenAt != null) {
      sightings.push({
        players: server.steamPlayers ?? 0,
        maxPlayers: server.steamMaxPlayers ?? 0,
        seenAt: server.steamSeenAt,
        alive: now - server.steamSeenAt < OFFLINE_AFTER_MS,
      });
    }
    const beat = heartbeatById.get(server.id);
    if (beat) {
      sightings.push({
        players: beat.players,
        maxPlayers: beat.maxPlayers,
        seenAt: beat.receivedAt,
        alive: heartbeatAlive(beat, now),
      });
    }

    // Online while any sighting says so; the freshest one's counts win, whichever source it came from.
    const latest = sightings.sort((a, b) => b.seenAt - a.seenAt)[0];
    const online = sightings.some((sighting) => sighting.alive);
    return {
      name: server.name,
      server_type: server.serverType,
      status: online ? "online" : "offline",
      players: { current: online && latest ? latest.players : 0, max: latest?.maxPlayers ?? 0 },
      ip_port: server.ipPort,
      // The plugin says it best; else what Steam's listing says (its map name and Rust's «born» tag), so a
      // server without the plugin still shows its map and wipe (issue 36); else what the last document said.
      map:
        beat && (beat.map || beat.mapSize)
          ? { name: beat.map || null, size: beat.mapSize }
          : steam?.map?.trim()
            ? { name: steam.map.trim(), size: null }
            : steam
              ? null
              : (earlier(server.ipPort)?.map ?? null),
      // One «last wipe» everywhere (issue 46): the one the fair-play window counts from (servers.last_wipe_at,
      // decision 129: the plugin's new map or the schedule's wipe, whichever is later); else the plugin's
      // report, Steam's «born» tag or the last document, for a server the site has no wipe of.
      wiped_at:
        server.lastWipeAt ??
        beat?.wipedAt ??
        (steam ? steamWipedAt(steam) : (earlier(server.ipPort)?.wiped_at ?? null)),
      ...(schedule.kind === "none" ? {} : { wipe: schedule }),
    };
  });

  const witness = options.witness ?? previous?.witness;
  const document: StatusDocument = { updated_at: now, servers: current, ...(witness ? { witness } : {}) };
  if (!shouldWrite(previous, document)) return { document, written: false };
  await deps.kv.put(STATUS_KEY, JSON.stringify(document));
  return { document, written: true };
}

/**
 * After an operator changes the servers (a wipe schedule saved, a server removed), the document the
 * server list, /wipes and the item pages read follows at once rather than at the cron's next write,
 * up to two minutes later (issue 45): each server's name, type and schedule from the database, its
 * sightings as the last document had them, `updated_at` kept so the cron's budget is unchanged. One
 * write per operator change (decision 001). No document yet: the cron writes the first.
 */
export async function followServerChanges(deps: Pick<Deps, "db" | "kv">): Promise<void> {
  const [rows, previous] = await Promise.all([
    deps.db.orm.select().from(servers).orderBy(servers.sortOrder, servers.id),
    readDocument(deps.kv),
  ]);
  if (!previous) return;
  const current = rows.map((server): PublicServer => {
    const schedule = scheduleFromColumns(server);
    const { wipe: _earlier, ...seen } = previous.servers.find((entry) => entry.ip_port === server.ipPort) ?? {
      status: "offline" as const,
      players: { current: 0, max: 0 },
      map: null,
      wiped_at: null,
    };
    return {
      ...seen,
      name: server.name,
      server_type: server.serverType,
      ip_port: server.ipPort,
      ...(schedule.kind === "none" ? {} : { wipe: schedule }),
    };
  });
  await deps.kv.put(STATUS_KEY, JSON.stringify({ ...previous, servers: current } satisfies StatusDocument));
}

function shouldWrite(previous: StatusDocument | null, next: StatusDocument): boolean {
  if (!previous) return true;
  const age = next.updated_at - previous.updated_at;
  if (age < 0) return true; // a document from the future: the clock moved, don't trust it
  if (age >= REWRITE_UNCHANGED_AFTER_MS) return true;
  return age >= MIN_WRITE_INTERVAL_MS && (!sameServers(previous.servers, next.servers) || !sameWitness(previous, next));
}

function sameWitness(a: StatusDocument, b: StatusDocument): boolean {
  if (!a.witness || !b.witness) return a.witness === b.witness;
  return sameProgress(a.witness.progress, b.witness.progress);
}

function sameServers(a: PublicServer[], b: PublicServer[]): boolean {
  return (
    a.length === b.length &&
    a.every((server, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        server.name === other.name &&
        server.server_type === other.server_type &&
        server.status === other.status &&
        server.players.current === other.players.current &&
        server.players.max === other.players.max &&
        server.ip_port === other.ip_port &&
        (server.map?.name ?? null) === (other.map?.name ?? null) &&
        (server.map?.size ?? null) === (other.map?.size ?? null) &&
        (server.wiped_at ?? null) === (other.wiped_at ?? null) &&
        JSON.stringify(server.wipe ?? null) === JSON.stringify(other.wipe ?? null)
      );
    })
  );
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
