// Sign-in's Steam calls are counted and cached (issue 47, item 2; decision 141): a player's profile is
// asked of Steam at most once a day however often they sign in, and sign-ins together at most 1 000
// times an hour, so looping sign-ins can't spend the key's daily quota.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import { SIGN_IN_PROFILE_LIMITS } from "#worker/services/auth/steam-profile-refresh.ts";
import { upsertSteamUser } from "#worker/services/auth/steam-sign-in.ts";
import { FakeSteamOpenId, STEAM_WEBAPI } from "./fakes/steam-openid.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { uniqueSteamId } from "./support/players.ts";
import type { Fetcher } from "./support/sign-in.ts";
import { signInThroughStandIn } from "./support/sign-in.ts";
import { raw, rows, runBatch } from "./support/sql.ts";

const AVATAR = "https://avatars.steamstatic.com/abc_full.jpg";

const asked = (steam: FakeSteamOpenId, steamId: string) =>
  steam.requested.filter((url) => url.includes("GetPlayerSummaries") && url.includes(steamId)).length;

describe("sign-in's Steam profile", () => {
  it("looped sign-ins of one player ask Steam once", async () => {
    const steamId = uniqueSteamId();
    const steam = new FakeSteamOpenId().player(steamId, { personaname: "Rustacean", avatarfull: AVATAR });
    const app = createWorkerApp({
      pageHandler: async () => new Response("page", { status: 501 }),
      overrides: () => ({ fetch: steam.fetch }),
    });
    const vars = { ...env, STEAM_API_KEY: "real-key", STEAM_WEBAPI_BASE: STEAM_WEBAPI };
    const fetcher: Fetcher = async (url, init) =>
      app.request(url, { redirect: "manual", ...init }, vars, createExecutionContext());
    for (let signIn = 0; signIn < 5; signIn++) {
      const { cookie } = await signInThroughStandIn(steamId, "/api/auth/steam", fetcher);
      expect(cookie).not.toBeNull();
    }
    expect(asked(steam, steamId)).toBe(1);
    expect(await rows("SELECT nickname FROM users WHERE steam_id = ?", steamId)).toEqual([{ nickname: "Rustacean" }]);
  });

  it("once a day per player, and at most the site's hour; past either the row keeps what it has", async () => {
    const day = Date.parse("2026-12-23T00:00:00Z");
    const clock = testClock(day + 10 * 60 * 60_000);
    const steam = new FakeSteamOpenId();
    const base = testDeps({ fetch: steam.fetch, now: clock.now });
    const deps = { ...base, config: { ...base.config, steamApiKey: "real-key", steamWebApiBase: STEAM_WEBAPI } };
    const steamId = uniqueSteamId();
    steam.player(steamId, { personaname: "Первое имя", avatarfull: AVATAR });
    await upsertSteamUser(deps, steamId);
    steam.player(steamId, { personaname: "Второе имя", avatarfull: AVATAR });
    await upsertSteamUser(deps, steamId);
    expect(asked(steam, steamId)).toBe(1);
    expect(await rows("SELECT nickname FROM users WHERE steam_id = ?", steamId)).toEqual([{ nickname: "Первое имя" }]);
    clock.set(day + 24 * 60 * 60_000);
    await upsertSteamUser(deps, steamId);
    expect(asked(steam, steamId)).toBe(2);
    expect(await rows("SELECT nickname FROM users WHERE steam_id = ?", steamId)).toEqual([{ nickname: "Второе имя" }]);

    // The site's hour of sign-in profiles used up: a new player signs in with the SteamID for a name.
    const { calls } = SIGN_IN_PROFILE_LIMITS["sign-in"];
    await runBatch([
      raw(
        `INSERT INTO steam_call_budget (scope, subject, window_start, calls, cap) VALUES ('sign-in', '', ?, ?, ?)
          ON CONFLICT (scope, subject, window_start) DO UPDATE SET calls = excluded.calls`,
        clock.now().getTime(),
        calls,
        calls,
      ),
    ]);
    const newcomer = uniqueSteamId();
    steam.player(newcomer, { personaname: "Новичок", avatarfull: AVATAR });
    await upsertSteamUser(deps, newcomer);
    expect(asked(steam, newcomer)).toBe(0);
    expect(await rows("SELECT nickname FROM users WHERE steam_id = ?", newcomer)).toEqual([{ nickname: newcomer }]);
  });
});
