// Who a gift is for (issue 24): the friend's SteamID64 or their Steam profile address, as players copy it.

const STEAMID64 = /^7656119\d{10}$/;
const PROFILE = /^(?:https?:\/\/)?(?:www\.)?steamcommunity\.com\/(profiles|id)\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i;
const VANITY = /^[A-Za-z0-9_-]{2,32}$/;

export type FriendRef = { steamId: string } | { vanity: string };

/** «76561198…», «steamcommunity.com/profiles/76561198…» or «…/id/<name>», with or without https and www. */
export function parseFriend(input: string): FriendRef | null {
  const text = input.trim();
  if (STEAMID64.test(text)) return { steamId: text };
  const match = PROFILE.exec(text);
  if (!match) return null;
  const [, kind = "", value = ""] = match;
  if (kind.toLowerCase() === "profiles") return STEAMID64.test(value) ? { steamId: value } : null;
  return VANITY.test(value) ? { vanity: value.toLowerCase() } : null;
}
