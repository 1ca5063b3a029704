import { eq } from "drizzle-orm";
import { GIFT_ERRORS, giftLookupLimitText, siteLookupLimitText } from "#core/messages/gifts.ts";
import { type GiftRecipient, parseFriend } from "#core/shop/gift.ts";
import { users } from "#db/schema.ts";
import { standInsEnabled } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { DEFAULT_AVATAR_URL, lookUpSteamProfile } from "../../integrations/steam/profile.ts";
import { resolveVanity } from "../../integrations/steam/vanity.ts";
import { type LookupSource, takeSteamCall } from "./gift-lookup-limit.ts";

// Who a gift goes to (issue 24): the friend named by SteamID64 or profile address, with the name and
// avatar the buyer sees before paying.

export type { GiftRecipient };

export type RecipientResult =
  | { ok: true; recipient: GiftRecipient }
  | { ok: false; status: 400 | 403 | 404 | 429 | 502; error: string };

/** The Steam Web API key: the configured one; on this machine the stand-in only asks that there is one. */
function webApiKey(deps: Pick<Deps, "config">): string | null {
  return deps.config.steamApiKey ?? (standInsEnabled(deps.config) ? "stand-in" : null);
}

type Refused = Extract<RecipientResult, { ok: false }>;

/** Counts one Steam call against the budgets (gift-lookup-limit.ts): null to go ahead, else the 429 to answer. */
async function spendSteamCall(deps: Pick<Deps, "db" | "now">, source: LookupSource): Promise<Refused | null> {
  const refusal = await takeSteamCall(deps, source);
  if (!refusal) return null;
  const minutes = Math.max(1, Math.ceil((refusal.until - deps.now().getTime()) / 60_000));
  const error = refusal.scope === "site" ? siteLookupLimitText(minutes) : giftLookupLimitText(minutes);
  return { ok: false, status: 429, error };
}

/**
 * The friend `input` names, for the buyer `source.steamId`: refused for oneself, for a player whose
 * purchases an operator blocked, and for an id Steam has no account for. Their Steam name and avatar
 * when Steam tells them, else what the site knows of them. The purchase checks self and blocked again
 * inside its batch. Each Steam call counts against the player's, the address's and the site's budget
 * (gift-lookup-limit.ts): past one, 429 with when to try again; nothing else spends one.
 * `known: "prefer"` (the purchase of a friend already shown) takes the site's own row of a friend who
 * signed in here without asking Steam again.
 */
export async function findGiftRecipient(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now">,
  source: LookupSource,
  input: string,
  options: { known?: "prefer" } = {},
): Promise<RecipientResult> {
  const friend = parseFriend(input);
  if (!friend) return { ok: false, status: 400, error: GIFT_ERRORS.badFriend };
  const key = webApiKey(deps);
  let steamId: string;
  if ("vanity" in friend) {
    if (!key) return { ok: false, status: 400, error: GIFT_ERRORS.badFriend };
    const refused = await spendSteamCall(deps, source);
    if (refused) return refused;
    const resolved = await resolveVanity(deps, key, friend.vanity);
    if (resolved === "unavailable") return { ok: false, status: 502, error: GIFT_ERRORS.steamUnavailable };
    if (resolved === null) return { ok: false, status: 404, error: GIFT_ERRORS.notFound };
    steamId = resolved;
  } else {
    steamId = friend.steamId;
  }
  if (steamId === source.steamId) return { ok: false, status: 400, error: GIFT_ERRORS.self };
  const [known] = await deps.db.orm
    .select({ nickname: users.nickname, avatarUrl: users.avatarUrl, blocked: users.purchasesBlocked })
    .from(users)
    .where(eq(users.steamId, steamId))
    .limit(1);
  if (known?.blocked) return { ok: false, status: 403, error: GIFT_ERRORS.blocked };
  const local = known
    ? { nickname: known.nickname, avatarUrl: known.avatarUrl || DEFAULT_AVATAR_URL }
    : { nickname: steamId, avatarUrl: DEFAULT_AVATAR_URL };
  // Without a key nothing can tell: the site's own row, else the SteamID itself. A row whose name is only
  // the SteamID (signed in without Steam's name) asks Steam, so the friend keeps one name (issue 46).
  const named = known !== undefined && known.nickname !== steamId;
  if (!key || (named && options.known === "prefer")) return { ok: true, recipient: { steamId, ...local } };
  const refused = await spendSteamCall(deps, source);
  if (refused) return refused;
  const profile = await lookUpSteamProfile(deps, key, steamId);
  // Steam has no such account: refused, never shown as a number to pay for (issue 36).
  if (profile === "not-found" && !known) return { ok: false, status: 404, error: GIFT_ERRORS.notFound };
  if (profile === "unavailable" && !known) return { ok: false, status: 502, error: GIFT_ERRORS.steamUnavailable };
  return { ok: true, recipient: { steamId, ...(typeof profile === "string" ? local : profile) } };
}
