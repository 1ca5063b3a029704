/** The signed-in player as the server reads them from a live session. */
export interface SessionUser {
  id: number;
  steamId: string;
  nickname: string;
  avatarUrl: string;
  /** Kopecks. */
  balance: number;
  sessionId: string;
}
