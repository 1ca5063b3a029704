// Who a gift is for (issue 24): the friend's SteamID64 or their Steam profile address, as players copy it.

/** The friend a gift goes to, as the lookup found them: what the buyer sees before paying. */
export interface GiftRecipient {
  steamId: string;
  nickname: string;
  avatarUrl: string;
}

const STEAMID64 = /^7656119\d{10}$/;
/**
 * Steam's first individual account (account number 0 of the public universe): anything below it in
 * the 7656119… range can't be a player (issue 36), so a gift to it is refused before any lookup.
 */
export const FIRST_INDIVIDUAL_STEAMID = 76561197960265728n;

/** A SteamID64 an individual Steam account can have. */
export function isIndividualSteamId(text: string): boolean {
  return STEAMID64.test(text) && BigInt(text) >= FIRST_INDIVIDUAL_STEAMID;
}
const PROFILE = /^(?:https?:\/\/)?(?:www\.)?steamcommunity\.com\/(profiles|id)\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i;
const VANITY = /^[A-Za-z0-9_-]{2,32}$/;

export type FriendRef = { steamId: string } | { vanity: string };

/** «76561198…», «steamcommunity.com/profiles/76561198…» or «…/id/<name>», with or without https and www. */
export function parseFriend(input: string): FriendRef | null {
  const text = input.trim();
  if (STEAMID64.test(text)) return isIndividualSteamId(text) ? { steamId: text } : null;
  const match = PROFILE.exec(text);
  if (!match) return null;
  const [, kind = "", value = ""] = match;
  if (kind.toLowerCase() === "profiles") return isIndividualSteamId(value) ? { steamId: value } : null;
  return VANITY.test(value) ? { vanity: value.toLowerCase() } : null;
}
