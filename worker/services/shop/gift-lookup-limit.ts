import { and, eq, lt, or, sql } from "drizzle-orm";
import { steamCallBudget } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { statement } from "../../ports/database.ts";

// The site's Steam Web API key has one daily quota (100 000 calls), shared with the live server list
// and sign-in. A gift's recipient lookup spends it, one call per Steam method asked (a custom profile
// address costs two: the name, then the profile), so each call is counted for the player, for their
// address (many accounts from one place) and for the whole site (many addresses), in fixed windows
// (issue 36). The count is one batch of three increments under a CHECK: a call past any cap aborts
// all three, so a refused call counts nowhere, and parallel calls can't pass a cap together.

const MINUTE = 60_000;

export const STEAM_LOOKUP_LIMITS = {
  player: { calls: 30, windowMs: 10 * MINUTE },
  address: { calls: 60, windowMs: 10 * MINUTE },
  /** 24 000 a day at most: the server list and sign-ins keep the rest of the 100 000. */
  site: { calls: 1_000, windowMs: 60 * MINUTE },
} as const;

export type LookupScope = keyof typeof STEAM_LOOKUP_LIMITS;

/** Who is asking: the signed-in player and the address the request came from. */
export interface LookupSource {
  steamId: string;
  address: string;
}

/** The first cap a call would pass, and when its window ends (ms epoch). */
export interface LookupRefusal {
  scope: LookupScope;
  until: number;
}

const SCOPES = Object.keys(STEAM_LOOKUP_LIMITS) as LookupScope[];

/** The address Cloudflare (or the Node server) didn't tell: no bucket of its own, or everyone would share it. */
const UNKNOWN_ADDRESS = "unknown";

function scopesFor(source: LookupSource): LookupScope[] {
  return source.address === UNKNOWN_ADDRESS ? SCOPES.filter((scope) => scope !== "address") : SCOPES;
}

function subjectOf(scope: LookupScope, source: LookupSource): string {
  return scope === "player" ? source.steamId : scope === "address" ? source.address : "";
}

function windowStart(scope: LookupScope, now: number): number {
  const { windowMs } = STEAM_LOOKUP_LIMITS[scope];
  return now - (now % windowMs);
}

/**
 * Counts one Steam call for `source` in all three budgets; null when it may go ahead, else the
 * budget that is used up and when it frees. Windows that ended are forgotten in the same batch.
 */
export async function takeSteamCall(
  deps: Pick<Deps, "db" | "now">,
  source: LookupSource,
): Promise<LookupRefusal | null> {
  const now = deps.now().getTime();
  const longest = Math.max(...SCOPES.map((scope) => STEAM_LOOKUP_LIMITS[scope].windowMs));
  try {
    await deps.db.batch([
      statement(deps.db.orm.delete(steamCallBudget).where(lt(steamCallBudget.windowStart, now - longest))),
      ...scopesFor(source).map((scope) =>
        statement(sql`INSERT INTO steam_call_budget (scope, subject, window_start, calls, cap)
          VALUES (${scope}, ${subjectOf(scope, source)}, ${windowStart(scope, now)}, 1, ${STEAM_LOOKUP_LIMITS[scope].calls})
          ON CONFLICT (scope, subject, window_start) DO UPDATE SET calls = calls + 1`),
      ),
    ]);
    return null;
  } catch (error) {
    const refusal = await usedUp(deps, source, now);
    if (refusal) return refusal;
    throw error;
  }
}

/** The budget `source` has used up at `now`, if any: the one that frees last. */
async function usedUp(deps: Pick<Deps, "db">, source: LookupSource, now: number): Promise<LookupRefusal | null> {
  const rows = await deps.db.orm
    .select()
    .from(steamCallBudget)
    .where(
      or(
        ...scopesFor(source).map((scope) =>
          and(
            eq(steamCallBudget.scope, scope),
            eq(steamCallBudget.subject, subjectOf(scope, source)),
            eq(steamCallBudget.windowStart, windowStart(scope, now)),
          ),
        ),
      ),
    );
  const full = rows
    .filter((row) => row.calls >= row.cap)
    .map((row) => ({ scope: row.scope, until: row.windowStart + STEAM_LOOKUP_LIMITS[row.scope].windowMs }))
    .sort((a, b) => b.until - a.until);
  return full[0] ?? null;
}
