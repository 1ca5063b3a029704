import { type Context, Hono } from "hono";
import { z } from "zod";
import { GAME_ERRORS } from "#core/messages/game.ts";
import type { AppEnv } from "../hono-env.ts";
import {
  acknowledgeDeliveries,
  LEASE_MS,
  leaseDeliveries,
  pendingForPlayer,
  resyncFrom,
  type ServedDelivery,
} from "../services/game/deliveries.ts";
import { probeUpgrade } from "../services/game/doorbell-probe.ts";
import { recordHeartbeat } from "../services/game/heartbeat.ts";
import { checkDue } from "../services/game/poll.ts";
import { PROGRESS_PATTERN } from "../services/game/progress.ts";
import {
  ackResponseSignature,
  ackResponseSignatureV3,
  invalidAckResponseSignature,
  pendingResponseSignature,
  queueResponseSignature,
  queueResponseSignatureV2,
  queueResponseSignatureV3,
  refusedAckResponseSignature,
} from "../services/game/response-signature.ts";
import {
  GameRequestError,
  recordGameRequest,
  type VerifiedGameRequest,
  verifyGameRequest,
} from "../services/game/signature.ts";

// The game-server plugin's API, mounted at /api/game. Every request is signed with the
// server's own key (worker/services/game/signature.ts); no secret travels in a URL. A request is
// recorded, and refused if replayed, when it changes something; a poll with nothing due and a
// heartbeat that isn't written change nothing and write nothing (decision 126).

type GameEnv = AppEnv & { Variables: AppEnv["Variables"] & { game: VerifiedGameRequest } };

export const gameApi = new Hono<GameEnv>();

const steamId = z.string().regex(/^[0-9]{17}$/);
const onlineList = z.array(steamId).max(1000);

/**
 * A heartbeat is proof that the server is alive, and a refused one made a live server look dead, so
 * its deliveries could move (issue 35, item 7): a field the site can't use is cut or left out, never
 * a reason to refuse the heartbeat.
 */
const cut = (max: number) => z.string().transform((text) => text.slice(0, max));
const count = z.number().int().min(0).max(10_000).catch(0);
const heartbeatSchema = z.object({
  hostname: cut(200).catch(""),
  players: count,
  max_players: count,
  queue: count.default(0),
  map: cut(200).nullish().catch(null),
  // Older plugins send none of these three.
  map_size: z.number().int().min(1000).max(6000).nullish().catch(null),
  map_seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish().catch(null),
  /** Rust's save creation time (the last wipe), unix seconds; one in the future is left out (below). */
  wiped_at: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish().catch(null),
  online: onlineList.catch([]).default([]),
  // Plugins with the doorbell (decision 146) say whether it is connected; older ones send nothing.
  doorbell: z.boolean().nullish().catch(null),
});
/** A wipe time this far ahead of our clock is the game server's clock drifting, not a lie; more is left out. */
const WIPE_CLOCK_SLACK_SECONDS = 5 * 60;
const leaseNumber = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const queueSchema = z.object({
  online: onlineList,
  // Plugin 3 (decision 124): deliveries of earlier answers it did not start, each with its lease.
  skipped: z
    .array(z.object({ delivery_id: z.string().uuid(), lease: leaseNumber }))
    .max(100)
    .default([]),
  // The highest acknowledgement counter the plugin has seen, and whether it has sent again everything
  // acknowledged since the `resync_from` it was given (decision 124, a site restored from a backup).
  site_seq: leaseNumber.optional(),
  resynced: z.boolean().optional(),
});
const ackSchema = z.object({
  results: z
    .array(
      z.object({
        delivery_id: z.string().uuid(),
        ok: z.boolean(),
        message: z.string().max(2000).optional(),
        interrupted: z.boolean().optional(),
        // Plugin 3: each command's state, one letter a command, and the lease it ran under.
        progress: z.string().regex(PROGRESS_PATTERN).optional(),
        lease: leaseNumber.optional(),
      }),
    )
    .min(1)
    .max(100),
});
const pendingSchema = z.object({ steam_id: steamId });

gameApi.use(async (c, next) => {
  try {
    c.set("game", await verifyGameRequest(c.get("deps"), c.req.raw));
  } catch (error) {
    if (error instanceof GameRequestError) return c.json({ error: error.message }, error.status);
    throw error;
  }
  c.header("Cache-Control", "no-store");
  await next();
});

const replayed = { error: GAME_ERRORS.replayed };

/**
 * Records the request before it changes anything; false when it is refused (its copy, or a newer
 * request of its server, was recorded while this one was on its way).
 */
async function recorded(c: Context<GameEnv>): Promise<boolean> {
  try {
    await recordGameRequest(c.get("deps"), c.get("game"));
    return true;
  } catch (error) {
    if (error instanceof GameRequestError) return false;
    throw error;
  }
}

function parseBody<T extends z.ZodType>(c: Context<GameEnv>, schema: T): z.infer<T> | null {
  let json: unknown;
  try {
    json = JSON.parse(c.get("game").body);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

const badRequest = { error: GAME_ERRORS.badRequest };

gameApi.post("/heartbeat", async (c) => {
  const beat = parseBody(c, heartbeatSchema);
  if (!beat) return c.json(badRequest, 400);
  const nowSeconds = Math.floor(c.get("deps").now().getTime() / 1000);
  const wipedAt =
    beat.wiped_at != null && beat.wiped_at <= nowSeconds + WIPE_CLOCK_SLACK_SECONDS ? beat.wiped_at : null;
  const game = c.get("game");
  const outcome = await recordHeartbeat(
    c.get("deps"),
    game.server,
    {
      ...beat,
      map: beat.map ?? null,
      mapSize: beat.map_size ?? null,
      mapSeed: beat.map_seed ?? null,
      wipedAt: wipedAt == null ? null : Math.min(wipedAt, nowSeconds) * 1000,
      doorbell: beat.doorbell ?? null,
    },
    game.timestamp,
    game.heartbeat,
  );
  if (outcome === "stale") return c.json(replayed, 409);
  return c.json({ ok: true });
});

gameApi.post("/queue", async (c) => {
  const body = parseBody(c, queueSchema);
  if (!body) return c.json(badRequest, 400);
  // Plugin 3 always sends its counter; one before 3.0 sends none and can't re-send what it gave after a
  // restore, so it is given nothing and told why in its console; its heartbeats and acks still count (decision 134).
  if (body.site_seq === undefined) return c.json({ error: GAME_ERRORS.pluginTooOld }, 426);
  const { server, signature, key } = c.get("game");
  const deps = c.get("deps");
  // A poll writes, and so is recorded first, when it starts or ends a re-sync after a restore, ends
  // leases the plugin did not start, or has something to lease or new entries to queue; otherwise it
  // is answered without a write, and the lease asks only about the online players with a delivery
  // waiting for them (decision 126).
  const resyncing =
    Boolean(server.needsResync) || (body.site_seq !== undefined && body.site_seq > (server.ackSeq ?? 0));
  if (resyncing && !(await recorded(c))) return c.json(replayed, 409);
  const resync = await resyncFrom(deps, server, body.site_seq, body.resynced === true);
  let deliveries: ServedDelivery[] = [];
  if (resync === null) {
    const { due, waiting, newEntries } = await checkDue(deps, server, body.online);
    if (due || body.skipped.length > 0) {
      if (!resyncing && !(await recorded(c))) return c.json(replayed, 409);
      deliveries = await leaseDeliveries(deps, server, body.online, body.skipped, { waiting, newEntries });
    }
  }
  return c.json({
    deliveries,
    lease_seconds: LEASE_MS / 1000,
    ...(resync === null ? {} : { resync_from: resync }),
    // The plugin runs these commands on its console: it checks they came from us.
    response_signature: await queueResponseSignature(key, signature, deliveries),
    response_signature_v2: await queueResponseSignatureV2(key, signature, deliveries),
    response_signature_v3: await queueResponseSignatureV3(key, signature, deliveries, resync),
  });
});

/** A 400 to an acknowledgement, signed: the plugin sets a lone result aside only on ours (decision 124). */
async function invalidAck(c: Context<GameEnv>, ids: string[]) {
  const { signature, key } = c.get("game");
  return c.json(
    { ...badRequest, delivery_ids: ids, response_signature: await invalidAckResponseSignature(key, signature, ids) },
    400,
  );
}

gameApi.post("/ack", async (c) => {
  const body = parseBody(c, ackSchema);
  if (!body) return invalidAck(c, []);
  const { server, signature, key } = c.get("game");
  if (!(await recorded(c))) return c.json(replayed, 409);
  const outcome = await acknowledgeDeliveries(c.get("deps"), server, body.results);
  if (outcome.status === "invalid") return invalidAck(c, outcome.ids);
  // Signed like the queue's answer: the plugin drops journal entries only on an answer from us.
  if (outcome.status !== "ok") {
    const error = outcome.status === "unknown" ? GAME_ERRORS.unknownDeliveries : GAME_ERRORS.foreignDeliveries;
    return c.json(
      {
        error,
        delivery_ids: outcome.ids,
        response_signature: await refusedAckResponseSignature(key, signature, outcome.ids),
      },
      outcome.status === "unknown" ? 404 : 403,
    );
  }
  return c.json({
    results: outcome.results,
    ack_seq: outcome.ackSeq,
    response_signature: await ackResponseSignature(key, signature, outcome.results),
    response_signature_v3: await ackResponseSignatureV3(key, signature, outcome.ackSeq, outcome.results),
  });
});

// The doorbell (decision 146): the plugin's signed WebSocket upgrade, verified above as a poll is (a bad
// signature, a stale or replayed timestamp refused with the poll's status and no upgrade). A connect
// replaces the server's socket, so it is recorded as a change is: a copy of it is refused (409) and
// can't push the plugin's own socket out.
gameApi.get("/doorbell", async (c) => {
  // The plugin's probe after an upgrade answered without upgrading (decision 149): a plain GET, writes nothing.
  const probe = c.req.query("probe");
  if (probe !== undefined) {
    const answer = await probeUpgrade(c.get("deps"), c.get("game"), new URL(c.req.url).pathname, probe);
    return answer.status === 204 ? c.body(null, 204) : c.json({ error: answer.error }, answer.status);
  }
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: GAME_ERRORS.doorbellNeedsUpgrade }, 426);
  }
  const { server, keyHash } = c.get("game");
  if (!server.serverType) return c.json({ error: GAME_ERRORS.badSignature }, 401);
  if (!(await recorded(c))) return c.json(replayed, 409);
  return c.get("deps").doorbell.connect(c.req.raw, { id: server.id, serverType: server.serverType, keyHash });
});

gameApi.post("/pending", async (c) => {
  const body = parseBody(c, pendingSchema);
  if (!body) return c.json(badRequest, 400);
  const { server, signature, key } = c.get("game");
  if (!(await recorded(c))) return c.json(replayed, 409);
  const items = await pendingForPlayer(c.get("deps"), server, body.steam_id);
  return c.json({ items, response_signature: await pendingResponseSignature(key, signature, items) });
});
