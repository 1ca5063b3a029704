import { describe, expect, it } from "vitest";
import { users } from "#db/schema.ts";
import { consoleArgs, createOperator, thrownStatus } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { createSession, revokeSession } from "#worker/services/auth/sessions.ts";
import { loader as auditLoader } from "../app/routes/admin.audit.tsx";
import { loader as summaryLoader } from "../app/routes/admin.index.tsx";
import { action as playerAction, loader as playerLoader } from "../app/routes/admin.player.tsx";
import { loader as playersLoader } from "../app/routes/admin.players.tsx";
import { headers, loader as layoutLoader } from "../app/routes/admin.tsx";

const deps = testDeps();

describe("who may use the operator console", () => {
  const readers = [
    ["/admin", layoutLoader],
    ["/admin", summaryLoader],
    ["/admin/players", playersLoader],
    ["/admin/audit", auditLoader],
  ] as const;

  it("answers a signed-out visitor and a signed-in player without a role with the ordinary 404", async () => {
    const player = await createPlayer({ deps: deps });
    const someone = await createPlayer({ deps: deps });
    for (const token of [undefined, player.token]) {
      for (const [path, loader] of readers) {
        expect((await thrownStatus(loader(consoleArgs(deps, path, { token })))).status).toBe(404);
      }
      const page = consoleArgs(deps, `/admin/players/${someone.steamId}`, {
        token,
        params: { steamId: someone.steamId },
      });
      expect((await thrownStatus(playerLoader(page))).status).toBe(404);
      // A post gets the same 404 and changes nothing, whatever it asks for.
      const post = consoleArgs(deps, `/admin/players/${someone.steamId}`, {
        token,
        params: { steamId: someone.steamId },
        form: { intent: "adjust", amount: "1000", reason: "подарок себе" },
      });
      expect((await thrownStatus(playerAction(post))).status).toBe(404);
    }
  });

  it("lets an operator stored by `npm run admins` in, with their role", async () => {
    const support = await createOperator(deps, "support", "Саппорт");
    expect(await layoutLoader(consoleArgs(deps, "/admin", { token: support.token }))).toEqual({
      nickname: "Саппорт",
      role: "support",
    });
    const admin = await createOperator(deps, "admin", "Админ");
    expect(await layoutLoader(consoleArgs(deps, "/admin", { token: admin.token }))).toMatchObject({ role: "admin" });
  });

  it("answers an operator whose session was revoked with the 404, on the summary page too (its reads share the session's batch)", async () => {
    const admin = await createOperator(deps, "admin", "Бывший вход");
    expect(await summaryLoader(consoleArgs(deps, "/admin", { token: admin.token }))).toHaveProperty("days");
    await revokeSession(deps, admin.sessionId);
    for (const [path, loader] of readers) {
      expect((await thrownStatus(loader(consoleArgs(deps, path, { token: admin.token })))).status).toBe(404);
    }
  });

  it("makes a player listed in ADMIN_STEAM_IDS an admin without a stored role", async () => {
    // tests/wrangler.test.jsonc lists 76561190000000777.
    const [user] = await deps.db.orm
      .insert(users)
      .values({ steamId: "76561190000000777", nickname: "Из настроек", avatarUrl: "" })
      .onConflictDoUpdate({ target: users.steamId, set: { nickname: "Из настроек" } })
      .returning();
    if (!user) throw new Error("no user");
    const { token } = await createSession(deps, user.id);
    expect(await layoutLoader(consoleArgs(deps, "/admin", { token }))).toEqual({
      nickname: "Из настроек",
      role: "admin",
    });
  });

  it("gives support 403 where only an admin may act: a balance adjustment", async () => {
    const support = await createOperator(deps, "support");
    const player = await createPlayer({ deps: deps, balance: 10_000 });
    const post = consoleArgs(deps, `/admin/players/${player.steamId}`, {
      token: support.token,
      params: { steamId: player.steamId },
      form: { intent: "adjust", amount: "1000", reason: "компенсация" },
    });
    const refused = await thrownStatus(playerAction(post));
    expect(refused).toEqual({ status: 403, data: "Доступ запрещен" });
    // Support sees the player's page, without the adjustment form.
    const page = await playerLoader(
      consoleArgs(deps, `/admin/players/${player.steamId}`, {
        token: support.token,
        params: { steamId: player.steamId },
      }),
    );
    expect(page.can).toEqual({ adjust: false, block: true, refund: true });
    expect(page.user.balance).toBe(10_000);
  });

  it("keeps every console answer out of shared caches", () => {
    expect(headers({} as never)).toEqual({ "Cache-Control": "private, no-store" });
  });
});
