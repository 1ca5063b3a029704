import { and, eq, sql } from "drizzle-orm";
import { ledger, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { addressBucket } from "../steam/address-bucket.ts";
import { type Bucket, type BudgetRefusal, takeSteamCalls } from "../steam/call-budget.ts";

// A gift's recipient lookup spends the site's Steam quota, one call per Steam method asked (a custom
// profile address costs two: the name, then the profile; a friend the site knows costs none), so each
// call is counted for the player (in 10 minutes and in the hour), for their address (many accounts
// from one place; an IPv6 address by its /64), for the players who never topped up, together (many
// new accounts can't take the site's hour: decision 141), and for the whole site (decision 127).

const MINUTE = 60_000;

export const STEAM_LOOKUP_LIMITS = {
  player: { calls: 30, windowMs: 10 * MINUTE },
  /** A player's hour: a paying account too takes at most 60 of the site's 1 000. */
  "player-hour": { calls: 60, windowMs: 60 * MINUTE },
  address: { calls: 60, windowMs: 10 * MINUTE },
  /** What accounts that never topped up may take of the site's hour, all of them together. */
  newcomers: { calls: 250, windowMs: 60 * MINUTE },
  /** 24 000 a day at most: the server list and sign-ins keep the rest of the 100 000. */
  site: { calls: 1_000, windowMs: 60 * MINUTE },
} as const;

export type LookupScope = keyof typeof STEAM_LOOKUP_LIMITS;

/** Who is asking: the signed-in player and the address the request came from. */
export interface LookupSource {
  steamId: string;
  address: string;
}

export type LookupRefusal = BudgetRefusal;

/** The address Cloudflare (or the Node server) didn't tell: no bucket of its own, or everyone would share it. */
const UNKNOWN_ADDRESS = "unknown";

/** Whether the player has never topped up: their lookups come out of the newcomers' share. */
async function isNewcomer(deps: Pick<Deps, "db">, steamId: string): Promise<boolean> {
  const [paid] = await deps.db.orm
    .select({ one: sql<number>`1` })
    .from(ledger)
    .innerJoin(users, eq(users.id, ledger.userId))
    .where(and(eq(users.steamId, steamId), eq(ledger.kind, "deposit")))
    .limit(1);
  return !paid;
}

function bucket(scope: LookupScope, subject: string): Bucket {
  return { scope, subject, ...STEAM_LOOKUP_LIMITS[scope] };
}

/**
 * Counts one Steam call for `source` in its budgets; null when it may go ahead, else the budget that is
 * used up and when it frees.
 */
export async function takeSteamCall(
  deps: Pick<Deps, "db" | "now">,
  source: LookupSource,
): Promise<LookupRefusal | null> {
  const buckets = [bucket("player", source.steamId), bucket("player-hour", source.steamId)];
  if (source.address !== UNKNOWN_ADDRESS) buckets.push(bucket("address", addressBucket(source.address)));
  if (await isNewcomer(deps, source.steamId)) buckets.push(bucket("newcomers", ""));
  buckets.push(bucket("site", ""));
  return takeSteamCalls(deps, buckets);
}
