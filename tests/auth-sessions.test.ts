// Sessions as a player meets them: tokens that are tampered with, expired or
// revoked; profiles that are always the caller's own; logout that kills the
// cookie and the bearer token together; the pages' /logout and /auth-success.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { parseSetCookie } from "cookie";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SIGN_IN_CODE_INVALID } from "#core/messages/auth.ts";
import { users } from "#db/schema.ts";
import { depsFor } from "#tests/support/deps.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import { ConfigError, LOCAL_GAME_KEY_SECRET, loadConfig, standInsEnabled } from "#worker/config.ts";
import {
  createSession,
  getSessionUser,
  revokeSession,
  SESSION_TTL_MS,
  verifySessionToken,
} from "#worker/services/auth/sessions.ts";
import { issueSignInCode } from "#worker/services/auth/sign-in-codes.ts";
import { loader as authSuccessLoader } from "../app/routes/auth-success.tsx";
import { action as logoutAction } from "../app/routes/logout.tsx";
import { FakeSteamOpenId, STEAM_OPENID_ENDPOINT, steamAssertion } from "./fakes/steam-openid.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { routeArgs, thrownResponse } from "./support/routes.ts";
import { bearer, sessionCookie, setCookies, signInThroughStandIn } from "./support/sign-in.ts";

function profile(token: string, how: "bearer" | "cookie" = "bearer") {
  const headers: Record<string, string> = how === "bearer" ? bearer(token) : sessionCookie(token);
  return SELF.fetch("http://localhost/api/profile", { headers });
}

describe("session tokens", () => {
  it("answers the caller's profile with the balance in rubles", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps, balance: 123_450 });
    const { token } = await createSession(deps, user.id);
    const response = await profile(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      avatar_url: "/images/avatar-default.svg",
      nickname: user.nickname,
      steam_id: user.steamId,
      balance: 1234.5,
    });
  });

  it("refuses no token, a tampered token and a token signed with another secret: 401 Необходима авторизация", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps });
    const { token } = await createSession(deps, user.id);
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`;
    const forgedPayload = btoa(JSON.stringify({ sub: crypto.randomUUID(), iss: "rust-servers-site" })).replace(
      /=+$/,
      "",
    );
    const otherSecret = depsFor({ ...env, SESSION_SECRET: "another-secret-another-secret-another-secret" });
    const { token: foreign } = await createSession(otherSecret, user.id);
    for (const bad of [
      `${header}.${payload}.${flipped}`,
      `${header}.${forgedPayload}.${signature}`,
      foreign,
      "garbage",
    ]) {
      for (const how of ["bearer", "cookie"] as const) {
        const response = await profile(bad, how);
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ error: "Необходима авторизация" });
      }
    }
    const none = await SELF.fetch("http://localhost/api/profile");
    expect(none.status).toBe(401);
  });

  it("a session expires after 30 days", async () => {
    const clock = testClock(Date.now());
    const deps = testDeps({ now: clock.now });
    const user = await createPlayer({ deps });
    const { token } = await createSession(deps, user.id);
    const app = createWorkerApp({
      pageHandler: async () => new Response("page", { status: 501 }),
      overrides: () => ({ now: clock.now }),
    });
    const ask = () =>
      app.request("http://localhost/api/profile", { headers: bearer(token) }, env, createExecutionContext());
    clock.advance(SESSION_TTL_MS - 60_000);
    expect((await ask()).status).toBe(200);
    clock.advance(120_000);
    expect((await ask()).status).toBe(401);
  });

  it("a token checked once is kept only while it is good: refused under another secret, and once it expires", async () => {
    const clock = testClock(Date.now());
    const deps = testDeps({ now: clock.now });
    const user = await createPlayer({ deps });
    const { id, token } = await createSession(deps, user.id);
    expect(await verifySessionToken(deps, token)).toBe(id);
    expect(await verifySessionToken(deps, token)).toBe(id);

    const rotated = {
      ...deps,
      config: { ...deps.config, sessionSecret: "rotated-secret-rotated-secret-rotated-secret" },
    };
    expect(await verifySessionToken(rotated, token)).toBeNull();
    expect(await verifySessionToken(deps, token)).toBe(id);

    clock.advance(SESSION_TTL_MS);
    expect(await verifySessionToken(deps, token)).toBeNull();
  });

  it("one page view looks the player up once; a form post and the next page look again", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps });
    const { id, token } = await createSession(deps, user.id);
    const page = new Request("http://localhost/shop", { headers: sessionCookie(token) });
    expect((await getSessionUser(deps, page))?.id).toBe(user.id);

    await revokeSession(deps, id);
    // The root and page loaders of the same GET share the first answer…
    expect((await getSessionUser(deps, page))?.id).toBe(user.id);
    // …the next request sees the revoked session.
    const next = new Request("http://localhost/shop", { headers: sessionCookie(token) });
    expect(await getSessionUser(deps, next)).toBeNull();
  });

  it("a form post never reuses a lookup, so the page after an action shows the new balance", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps });
    const { token } = await createSession(deps, user.id);
    const post = new Request("http://localhost/shop/items/101", {
      method: "POST",
      headers: sessionCookie(token),
    });
    const before = await getSessionUser(deps, post);
    await deps.db.orm.update(users).set({ balance: 4200 }).where(eq(users.id, user.id));
    const after = await getSessionUser(deps, post);
    expect(after?.balance).toBe(4200);
    expect(after?.balance).not.toBe(before?.balance);
  });

  it("player A's token reads A's profile only, however B is named", async () => {
    const deps = testDeps();
    const a = await createPlayer({ deps, nickname: "Игрок А" });
    const b = await createPlayer({ deps, nickname: "Игрок Б", balance: 50_000 });
    const { token } = await createSession(deps, a.id);
    for (const path of [`/api/profile?steam_id=${b.steamId}`, `/api/profile?user_id=${b.id}`]) {
      const response = await SELF.fetch(`http://localhost${path}`, { headers: bearer(token) });
      expect(await response.json()).toMatchObject({ steam_id: a.steamId, balance: 0 });
    }
    const byPath = await SELF.fetch(`http://localhost/api/profile/${b.steamId}`, {
      headers: bearer(token),
    });
    expect(byPath.status).toBe(404);
    expect(JSON.stringify(await byPath.json())).not.toContain(b.nickname);
  });
});

describe("logout", () => {
  for (const path of ["/api/logout", "/api/auth/logout"]) {
    it(`POST ${path} with the bearer token kills the cookie too, and clears it`, async () => {
      const { token, cookie } = await signInThroughStandIn(uniqueSteamId());
      if (!token || !cookie) throw new Error("sign-in failed");
      expect((await profile(cookie, "cookie")).status).toBe(200);
      const response = await SELF.fetch(`http://localhost${path}`, {
        method: "POST",
        headers: bearer(token),
      });
      expect(response.status).toBe(200);
      const cleared = setCookies(response).get("__session");
      expect(cleared?.value).toBe("");
      expect(cleared?.attributes).toContain("Max-Age=0");
      expect((await profile(token, "bearer")).status).toBe(401);
      expect((await profile(cookie, "cookie")).status).toBe(401);
    });
  }

  it("POST /api/logout with the cookie kills the bearer token", async () => {
    const { token, cookie } = await signInThroughStandIn(uniqueSteamId());
    if (!token || !cookie) throw new Error("sign-in failed");
    await SELF.fetch("http://localhost/api/logout", { method: "POST", headers: sessionCookie(cookie) });
    expect((await profile(token, "bearer")).status).toBe(401);
  });

  it("POST /api/auth/logout with an empty streamed body and no type signs out; a byte in it is 415", async () => {
    const stream = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          if (text) controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    // No Content-Length: the body's end is the only way to know it is empty (a chunked body of none).
    const post = (token: string, body: string) =>
      SELF.fetch("http://localhost/api/auth/logout", {
        method: "POST",
        headers: bearer(token),
        body: stream(body),
        duplex: "half",
      } as RequestInit);

    const kept = await createPlayer();
    const refused = await post(kept.token, "x");
    expect(refused.status).toBe(415);
    expect(await refused.json()).toEqual({ error: "Неподдерживаемый тип содержимого: нужен application/json" });
    expect((await profile(kept.token)).status).toBe(200);

    const player = await createPlayer();
    const response = await post(player.token, "");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    expect((await profile(player.token)).status).toBe(401);
  });

  it("signing out twice, or without a session, is fine", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/logout", { method: "POST" });
    expect(response.status).toBe(200);
    expect(setCookies(response).get("__session")?.value).toBe("");
  });

  it("the /logout form action revokes the session, clears the cookie and goes home", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps });
    const { token } = await createSession(deps, user.id);
    const response = await thrownResponse(
      logoutAction(
        routeArgs<Parameters<typeof logoutAction>[0]>(deps, "http://localhost/logout", {
          method: "POST",
          headers: sessionCookie(token),
        }),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(parseSetCookie(response.headers.get("set-cookie") ?? "")).toMatchObject({
      name: "__session",
      value: "",
      path: "/",
      maxAge: 0,
      httpOnly: true,
      sameSite: "lax",
    });
    expect((await profile(token)).status).toBe(401);
  });
});

describe("GET /api/auth/check", () => {
  it("answers signed out without a session", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/check");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authenticated: false, user: null });
  });

  it("answers who is signed in, by cookie or bearer, and signed out once revoked", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps, balance: 1000 });
    const { token } = await createSession(deps, user.id);
    const ways: Record<string, string>[] = [sessionCookie(token), bearer(token)];
    for (const headers of ways) {
      const response = await SELF.fetch("http://localhost/api/auth/check", { headers });
      expect(await response.json()).toEqual({
        authenticated: true,
        user: {
          avatar_url: "/images/avatar-default.svg",
          nickname: user.nickname,
          steam_id: user.steamId,
          balance: 10,
        },
      });
    }
    await SELF.fetch("http://localhost/api/logout", { method: "POST", headers: bearer(token) });
    const after = await SELF.fetch("http://localhost/api/auth/check", { headers: sessionCookie(token) });
    expect(await after.json()).toEqual({ authenticated: false, user: null });
  });
});

describe("pages", () => {
  it("/auth-success without a code goes home", async () => {
    const response = await thrownResponse(
      authSuccessLoader(
        routeArgs<Parameters<typeof authSuccessLoader>[0]>(testDeps(), "http://localhost/auth-success"),
      ),
    );
    expect(response.headers.get("location")).toBe("/");
  });

  it("/auth-success hands over only a code of this browser's own new session, with private headers", async () => {
    const deps = testDeps();
    const mine = await createSession(deps, (await createPlayer({ deps })).id);
    const theirs = await createSession(deps, (await createPlayer({ deps })).id);
    const theirCode = await issueSignInCode(deps, theirs.id);
    const myCode = await issueSignInCode(deps, mine.id);
    const args = (code: string, cookie: string) =>
      routeArgs<Parameters<typeof authSuccessLoader>[0]>(
        deps,
        `http://localhost/auth-success?code=${code}&next=%2Fterms`,
        {
          headers: sessionCookie(cookie),
        },
      );
    const ok = await authSuccessLoader(args(myCode, mine.token));
    expect(ok.data).toEqual({ code: myCode, next: "/terms", error: null });
    expect(ok.init?.headers).toMatchObject({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
    // A link carrying someone else's code must not sign this browser into their account.
    const pushed = await authSuccessLoader(args(theirCode, mine.token));
    expect(pushed.data).toEqual({ code: null, next: "/terms", error: SIGN_IN_CODE_INVALID });
  });
});

describe("configuration", () => {
  it("refuses the stand-ins in production, and accepts Steam's real endpoints", () => {
    const production = { ...env, APP_ENV: "production", SESSION_SECRET: "production-secret-production-secret-0001" };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...production, STEAM_WEBAPI_BASE: "https://api.steampowered.com", PAYMENT_PROVIDER: "yookassa" }),
    ).toThrow(/Stand-ins are refused/);
    const config = loadConfig({
      ...production,
      PUBLIC_URL: "https://rust.example",
      STEAM_WEBAPI_BASE: "https://api.steampowered.com",
      STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT,
      PAYMENT_PROVIDER: "yookassa",
    });
    expect(standInsEnabled(config)).toBe(false);
  });

  it("a site on a real host is held to production's rules even when APP_ENV was left at development", () => {
    const forgotten = { ...env, APP_ENV: "development", PUBLIC_URL: "https://rust.example" };
    // wrangler.jsonc's local defaults: stand-ins and no secret.
    expect(() => loadConfig(forgotten)).toThrow(ConfigError);
    expect(() => loadConfig({ ...forgotten, SESSION_SECRET: "site-secret-site-secret-site-secret-0001" })).toThrow(
      /Stand-ins are refused/,
    );
    const real = loadConfig({
      ...forgotten,
      SESSION_SECRET: "site-secret-site-secret-site-secret-0001",
      STEAM_WEBAPI_BASE: "https://api.steampowered.com",
      STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT,
      PAYMENT_PROVIDER: "yookassa",
    });
    expect(standInsEnabled(real)).toBe(false);
    // On this machine the local defaults serve as before.
    expect(standInsEnabled(loadConfig({ ...env, APP_ENV: "development", PUBLIC_URL: "http://127.0.0.1:5173" }))).toBe(
      true,
    );
  });

  it("production without SESSION_SECRET is refused", () => {
    expect(() =>
      loadConfig({
        ...env,
        APP_ENV: "production",
        SESSION_SECRET: undefined,
        STEAM_WEBAPI_BASE: "https://api.steampowered.com",
        STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT,
        PAYMENT_PROVIDER: "yookassa",
      }),
    ).toThrow(ConfigError);
  });

  it("production without GAME_KEY_SECRET, or with a published value (the local one, .env.example's), is refused (decision 103)", () => {
    const production = {
      ...env,
      APP_ENV: "production",
      PUBLIC_URL: "https://rust.example",
      SESSION_SECRET: "production-secret-production-secret-0001",
      STEAM_WEBAPI_BASE: "https://api.steampowered.com",
      STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT,
      PAYMENT_PROVIDER: "yookassa",
    };
    expect(() => loadConfig({ ...production, GAME_KEY_SECRET: undefined })).toThrow(/gameKeySecret/);
    expect(() => loadConfig({ ...production, GAME_KEY_SECRET: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, GAME_KEY_SECRET: LOCAL_GAME_KEY_SECRET })).toThrow(
      /^GAME_KEY_SECRET: still the local development value; set your own/,
    );
    // .env.example's placeholders are published too: a leaked backup plus one of them signs as any game server.
    expect(() =>
      loadConfig({ ...production, GAME_KEY_SECRET: "change-me-to-another-32-or-more-random-characters" }),
    ).toThrow(/^GAME_KEY_SECRET: still the example value from \.env\.example; set your own/);
    expect(() =>
      loadConfig({
        ...production,
        SESSION_SECRET: "change-me-to-32-or-more-random-characters",
        GAME_KEY_SECRET: LOCAL_GAME_KEY_SECRET,
      }),
    ).toThrow(/^SESSION_SECRET: still the example value .*\nGAME_KEY_SECRET: still the local development value/);
    expect(
      loadConfig({ ...production, GAME_KEY_SECRET: "game-secret-game-secret-game-secret-0001" }).gameKeySecret,
    ).toBe("game-secret-game-secret-game-secret-0001");
    // On this machine the local value stands in when none is set.
    expect(loadConfig({ ...env, GAME_KEY_SECRET: undefined }).gameKeySecret).toBe(LOCAL_GAME_KEY_SECRET);
  });

  it("on https the session cookie is Secure, and return_to follows PUBLIC_URL", async () => {
    const steam = new FakeSteamOpenId();
    const app = createWorkerApp({
      pageHandler: async () => new Response("page", { status: 501 }),
      overrides: () => ({ fetch: steam.fetch }),
    });
    // A real host gets production's rules: its own secret and no stand-ins.
    const siteEnv = {
      ...env,
      PUBLIC_URL: "https://rust.example",
      SESSION_SECRET: "site-secret-site-secret-site-secret-0001",
      STEAM_WEBAPI_BASE: "https://api.steampowered.com",
      STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT,
      PAYMENT_PROVIDER: "yookassa",
    };
    const call = (url: string, init: RequestInit = {}) =>
      app.request(url, { redirect: "manual", ...init }, siteEnv, createExecutionContext());
    const start = await call("http://internal.host/api/auth/steam");
    // On HTTPS the cookies are __Host- cookies (see cookie-prefix-and-origin.test.ts).
    expect(setCookies(start).get("__Host-steam_signin")?.attributes).toContain("Secure");
    const returnTo = new URL(start.headers.get("location") ?? "").searchParams.get("openid.return_to") ?? "";
    expect(returnTo.startsWith("https://rust.example/api/auth/steam/callback?")).toBe(true);
    const params = steamAssertion({ returnTo, steamId: uniqueSteamId(), at: new Date() });
    const callback = await call(`${returnTo}&${params.toString()}`, {
      headers: { cookie: `__Host-steam_signin=${setCookies(start).get("__Host-steam_signin")?.value}` },
    });
    expect(callback.headers.get("location")).toMatch(/^\/auth-success\?code=/);
    expect(setCookies(callback).get("__Host-session")?.attributes).toContain("Secure");
  });
});
