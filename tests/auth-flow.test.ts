// Sign-in from start to profile through the Worker and the local Steam stand-in.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#db/schema.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import { FakeSteamOpenId, STEAM_OPENID_ENDPOINT, STEAM_WEBAPI } from "./fakes/steam-openid.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { uniqueSteamId } from "./support/players.ts";
import { approveAtStandIn, type Fetcher, selfFetch, setCookies, signInThroughStandIn } from "./support/sign-in.ts";

async function userRow(steamId: string) {
  const [row] = await testDeps().db.orm.select().from(users).where(eq(users.steamId, steamId));
  return row;
}

describe("GET /api/auth/steam", () => {
  it("redirects to the configured OpenID endpoint with a return_to built from PUBLIC_URL, never the Host header", async () => {
    const response = await SELF.fetch("http://evil.example/api/auth/steam?return_to=/terms", {
      redirect: "manual",
      headers: { host: "evil.example" },
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(env.STEAM_OPENID_ENDPOINT);
    expect(location.searchParams.get("openid.mode")).toBe("checkid_setup");
    expect(location.searchParams.get("openid.ns")).toBe("http://specs.openid.net/auth/2.0");
    expect(location.searchParams.get("openid.identity")).toBe("http://specs.openid.net/auth/2.0/identifier_select");
    const returnTo = new URL(location.searchParams.get("openid.return_to") ?? "");
    expect(`${returnTo.origin}${returnTo.pathname}`).toBe("http://localhost:5173/api/auth/steam/callback");
    expect(returnTo.searchParams.get("next")).toBe("/terms");
    const state = setCookies(response).get("__steam_signin");
    expect(state?.value).toBe(returnTo.searchParams.get("state"));
    expect(state?.attributes).toContain("HttpOnly");
    expect(state?.attributes).toContain("SameSite=Lax");
  });

  it("GET /api/auth/login starts the same sign-in", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/login", { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/__standins/steam-openid/login?");
  });

  it("keeps only same-site relative return paths", async () => {
    for (const unsafe of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "/api/auth/steam",
      "javascript:alert(1)",
    ]) {
      const response = await SELF.fetch(`http://localhost/api/auth/steam?return_to=${encodeURIComponent(unsafe)}`, {
        redirect: "manual",
      });
      const location = new URL(response.headers.get("location") ?? "");
      const returnTo = new URL(location.searchParams.get("openid.return_to") ?? "");
      expect(returnTo.searchParams.get("next"), unsafe).toBe("/");
    }
  });
});

describe("sign-in through the Steam stand-in", () => {
  it("creates the player with balance 0, sets the session cookie and hands /auth-success a code for the token; /api/profile answers", async () => {
    const steamId = uniqueSteamId();
    const { callback, location, cookie, code, token } = await signInThroughStandIn(steamId);
    expect(callback.status).toBe(302);
    expect(location).toMatch(/^\/auth-success\?code=[\w-]{43}$/);
    expect(code).toBeTruthy();
    expect(token).toBeTruthy();
    expect(cookie).toBe(token);
    const attributes = setCookies(callback).get("__session")?.attributes ?? "";
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");
    expect(attributes).toContain("Path=/");
    expect(attributes).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    // PUBLIC_URL is http://localhost: the cookie must work without TLS there.
    expect(attributes).not.toContain("Secure");

    const byCookie = await SELF.fetch("http://localhost/api/profile", { headers: { cookie: `__session=${cookie}` } });
    expect(byCookie.status).toBe(200);
    // No STEAM_API_KEY here: the SteamID is the nickname and the avatar is the default one.
    expect(await byCookie.json()).toEqual({
      avatar_url: "/images/avatar-default.svg",
      nickname: steamId,
      steam_id: steamId,
      balance: 0,
    });
    const byBearer = await SELF.fetch("http://localhost/api/profile", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await byBearer.json()).toMatchObject({ steam_id: steamId });
    expect((await userRow(steamId))?.balance).toBe(0);
  });

  it("signs the same player in again without a second row", async () => {
    const steamId = uniqueSteamId();
    const first = await signInThroughStandIn(steamId);
    const second = await signInThroughStandIn(steamId);
    expect(first.token).not.toBe(second.token);
    const rows = await testDeps().db.orm.select().from(users).where(eq(users.steamId, steamId));
    expect(rows).toHaveLength(1);
  });

  it("brings the player back to the page they asked for", async () => {
    const { location } = await signInThroughStandIn(uniqueSteamId(), "/api/auth/steam?return_to=%2Fterms");
    expect(new URL(location, "http://localhost").searchParams.get("next")).toBe("/terms");
  });

  it("a cancelled sign-in goes home with a message code and no session", async () => {
    const { callback, location, cookie } = await signInThroughStandIn("cancel");
    expect(callback.status).toBe(302);
    expect(location).toBe("/?auth_error=cancelled");
    expect(cookie).toBeNull();
  });

  it("refuses a callback from another browser (no or a different state cookie)", async () => {
    const start = await selfFetch("http://localhost/api/auth/steam");
    const providerPage = new URL(start.headers.get("location") ?? "");
    const approved = await approveAtStandIn(providerPage, uniqueSteamId());
    const callbackUrl = approved.headers.get("location") ?? "";
    for (const cookie of [undefined, "__steam_signin=someone-else"]) {
      const response = await selfFetch(callbackUrl, { headers: cookie ? { cookie } : {} });
      expect(response.headers.get("location")).toBe("/?auth_error=expired");
      expect(setCookies(response).get("__session")).toBeUndefined();
    }
  });

  it("a tampered stand-in assertion is refused by its check_authentication (is_valid:false)", async () => {
    const start = await selfFetch("http://localhost/api/auth/steam");
    const state = setCookies(start).get("__steam_signin")?.value;
    const providerPage = new URL(start.headers.get("location") ?? "");
    const approved = await approveAtStandIn(providerPage, uniqueSteamId());
    const callback = new URL(approved.headers.get("location") ?? "");
    const victim = uniqueSteamId();
    callback.searchParams.set("openid.identity", `https://steamcommunity.com/openid/id/${victim}`);
    callback.searchParams.set("openid.claimed_id", `https://steamcommunity.com/openid/id/${victim}`);
    const response = await selfFetch(callback.toString(), { headers: { cookie: `__steam_signin=${state}` } });
    expect(response.headers.get("location")).toBe("/?auth_error=failed");
    expect(await userRow(victim)).toBeUndefined();
  });

  it("the stand-in page offers the demo players, a SteamID64 field and cancel", async () => {
    const start = await selfFetch("http://localhost/api/auth/steam");
    const page = await selfFetch(start.headers.get("location") ?? "");
    const html = await page.text();
    expect(html).toContain("76561198000000001");
    expect(html).toContain('name="steamid"');
    expect(html).toContain("Отмена");
  });
});

describe("an OpenID answer with a repeated field", () => {
  // The attacker signs in genuinely as themselves, then puts the victim's claimed_id and identity
  // in front of the genuine ones. The stand-in, like a provider that keeps the last value of a
  // repeated field, confirms the attacker's own signed values.
  const prependVictim = (victim: string) => (callback: string) => {
    const url = new URL(callback);
    const identity = `https://steamcommunity.com/openid/id/${victim}`;
    url.search = `openid.claimed_id=${encodeURIComponent(identity)}&openid.identity=${encodeURIComponent(identity)}&${url.search.slice(1)}`;
    return url.toString();
  };

  it("signs nobody in, least of all the player whose identity came first", async () => {
    const victim = uniqueSteamId();
    const attacker = uniqueSteamId();
    const { callback, location, cookie, token } = await signInThroughStandIn(
      attacker,
      "/api/auth/steam",
      selfFetch,
      prependVictim(victim),
    );
    expect(callback.status).toBe(302);
    expect(location).toBe("/?auth_error=failed");
    expect(cookie).toBeNull();
    expect(token).toBeNull();
    expect(await userRow(victim)).toBeUndefined();
  });

  it("the stand-in's check_authentication keeps the last value of a repeated field, as such a provider does", async () => {
    const victim = uniqueSteamId();
    let genuine = "";
    await signInThroughStandIn(uniqueSteamId(), "/api/auth/steam", selfFetch, (callback) => {
      genuine = callback;
      return callback;
    });
    const check = new URLSearchParams(prependVictim(victim)(genuine).split("?")[1]);
    check.set("openid.mode", "check_authentication");
    const answer = await SELF.fetch("http://localhost:5173/__standins/steam-openid/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: check,
    });
    expect(await answer.text()).toBe("ns:http://specs.openid.net/auth/2.0\nis_valid:true\n");
  });
});

describe("sign-in with a Steam Web API key", () => {
  function appWith(steam: FakeSteamOpenId, overridesEnv: Record<string, string>): Fetcher {
    const clock = testClock(Date.now());
    const app = createWorkerApp({
      pageHandler: async () => new Response("page", { status: 501 }),
      overrides: () => ({ fetch: steam.fetch, now: clock.now }),
    });
    return async (url, init) =>
      app.request(url, { redirect: "manual", ...init }, { ...env, ...overridesEnv }, createExecutionContext());
  }

  it("takes nickname and avatar from GetPlayerSummaries (through the Web API stand-in)", async () => {
    const steamId = "76561198000000002";
    const fetcher = appWith(new FakeSteamOpenId(), { STEAM_API_KEY: "local-key" });
    const { cookie } = await signInThroughStandIn(steamId, "/api/auth/steam", fetcher);
    const profile = await fetcher("http://localhost/api/profile", { headers: { cookie: `__session=${cookie}` } });
    expect(await profile.json()).toMatchObject({
      nickname: "Игрок без денег",
      avatar_url: "http://localhost:5173/images/avatar-default.svg",
    });
  });

  it("asks Steam's real Web API with the key, and falls back to the SteamID when Steam knows nothing", async () => {
    const steamId = uniqueSteamId();
    const steam = new FakeSteamOpenId().player(steamId, {
      personaname: "  Rustacean  ",
      avatarfull: "https://avatars.steamstatic.com/abc_full.jpg",
    });
    const fetcher = appWith(steam, { STEAM_API_KEY: "real-key", STEAM_WEBAPI_BASE: STEAM_WEBAPI });
    const { cookie } = await signInThroughStandIn(steamId, "/api/auth/steam", fetcher);
    expect(steam.requested.some((url) => url.includes("GetPlayerSummaries") && url.includes("key=real-key"))).toBe(
      true,
    );
    const profile = await fetcher("http://localhost/api/profile", { headers: { cookie: `__session=${cookie}` } });
    expect(await profile.json()).toMatchObject({
      nickname: "Rustacean",
      avatar_url: "https://avatars.steamstatic.com/abc_full.jpg",
    });

    const unknown = uniqueSteamId();
    const second = await signInThroughStandIn(unknown, "/api/auth/steam", fetcher);
    const fallback = await fetcher("http://localhost/api/profile", {
      headers: { cookie: `__session=${second.cookie}` },
    });
    expect(await fallback.json()).toMatchObject({ nickname: unknown, avatar_url: "/images/avatar-default.svg" });
  });

  it("against Steam's real endpoint: a rejected assertion lands on the home page with a message code, no session", async () => {
    const steam = new FakeSteamOpenId().answerCheck({ status: 429 });
    const fetcher = appWith(steam, { STEAM_OPENID_ENDPOINT: STEAM_OPENID_ENDPOINT });
    const start = await fetcher("http://localhost/api/auth/steam");
    const state = setCookies(start).get("__steam_signin")?.value;
    const location = new URL(start.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(STEAM_OPENID_ENDPOINT);
    const { steamAssertion, callbackUrl } = await import("./fakes/steam-openid.ts");
    const steamId = uniqueSteamId();
    const params = steamAssertion({
      returnTo: location.searchParams.get("openid.return_to") ?? "",
      steamId,
      at: new Date(),
    });
    const response = await fetcher(callbackUrl(params), { headers: { cookie: `__steam_signin=${state}` } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/?auth_error=unavailable");
    expect(setCookies(response).get("__session")).toBeUndefined();
    expect(await userRow(steamId)).toBeUndefined();
  });
});
