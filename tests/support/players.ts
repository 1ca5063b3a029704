// Players for worker tests. D1 is shared by every test file in a run, so each
// player has a fresh random SteamID64.
import { eq } from "drizzle-orm";
import { ledger, users } from "#db/schema.ts";
import type { Deps } from "#worker/deps.ts";
import { createSession } from "#worker/services/auth/sessions.ts";
import { testDeps } from "./deps.ts";
import { uniqueSteamId } from "./unique.ts";

export { uniqueSteamId } from "./unique.ts";

export interface PlayerOptions {
  /** Kopecks, credited the way money arrives: a ledger row and the balance in one batch. */
  balance?: number;
  nickname?: string;
  avatarUrl?: string;
  /** Whose clock stamps the session (defaults to testDeps()). */
  deps?: Deps;
}

/** A player row with `balance` kopecks (balance = sum(ledger) from the start) and a signed-in session's token. */
export async function createPlayer({
  balance = 0,
  nickname = "Игрок",
  avatarUrl = "/images/avatar-default.svg",
  deps = testDeps(),
}: PlayerOptions = {}) {
  const [user] = await deps.db.orm
    .insert(users)
    .values({ steamId: uniqueSteamId(), nickname, avatarUrl, balance: 0 })
    .returning();
  if (!user) throw new Error("no user");
  if (balance > 0) {
    await deps.db.orm.batch([
      deps.db.orm.insert(ledger).values({ userId: user.id, amount: balance, kind: "adjustment" }),
      deps.db.orm.update(users).set({ balance }).where(eq(users.id, user.id)),
    ]);
  }
  const session = await createSession(deps, user.id);
  return { ...user, balance, token: session.token, sessionId: session.id };
}
