import type { SessionUser } from "../auth/session-user.ts";
import { kopecksToRubles } from "../format/money.ts";

/** What a page shows of the signed-in player (header, profile panel): the balance in rubles. */
export interface PagePlayer {
  nickname: string;
  avatarUrl: string;
  steamId: string;
  /** Rubles. */
  balance: number;
}

export function pagePlayer(user: SessionUser | null): PagePlayer | null {
  if (!user) return null;
  return {
    nickname: user.nickname,
    avatarUrl: user.avatarUrl,
    steamId: user.steamId,
    balance: kopecksToRubles(user.balance),
  };
}
