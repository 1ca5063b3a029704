import { kopecksToRubles } from "#core/format/money.ts";
import type { SessionUser } from "./sessions.ts";

/** The user profile as the API answers it: snake_case fields, balance in rubles. */
export interface PublicProfile {
  avatar_url: string;
  nickname: string;
  steam_id: string;
  balance: number;
}

export function publicProfile(
  user: Pick<SessionUser, "avatarUrl" | "nickname" | "steamId" | "balance">,
): PublicProfile {
  return {
    avatar_url: user.avatarUrl,
    nickname: user.nickname,
    steam_id: user.steamId,
    balance: kopecksToRubles(user.balance),
  };
}
