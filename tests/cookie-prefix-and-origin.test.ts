// Cookies a sibling subdomain can't plant (__Host- on HTTPS), writes refused from another Origin,
// and JSON API posts that must say they are JSON: through the real Worker (SELF, plain-http
// localhost) and the same Hono app with an HTTPS production configuration.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { loader as authSuccessLoader } from "#app/routes/auth-success.tsx";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Env } from "#worker/env.ts";
import { callbackUrl, FakeSteamOpenId, steamAssertion } from "./fakes/steam-openid.ts";
import { depsFor } from "./support/deps.ts";
import { createPlayer, uniqueSteamId } from "./support/players.ts";
import { setCookies } from "./support/sign-in.ts";
import { uniqueIp } from "./support/unique.ts";

const LOCAL = "http://localhost:5173";
const SITE = "https://rust.example";
const FORBIDDEN = "Доступ запрещен";
const NOT_JSON = "Неподдерживаемый тип содержимого: нужен application/json";

const production: Env = {
  ...(env as Env),
  APP_ENV: "production",
  PUBLIC_URL: SITE,
  SESSION_SECRET: "production-secret-production-secret-0001",
  STEAM_WEBAPI_BASE: "https://api.steampowered.com",
  STEAM_OPENID_ENDPOINT: "https://steamcommunity.com/openid/login",
  PAYMENT_PROVIDER: "yookassa",
};

function productionSite() {
  const steam = new FakeSteamOpenId();
  const app = createWorkerApp({
    pageHandler: async () => new Response("page", { status: 501 }),
    overrides: () => ({ fetch: steam.fetch }),
  });
  const fetcher = (path: string, init: RequestInit = {}) =>
    app.request(`${SITE}${path}`, { redirect: "manual", ...init }, production, createExecutionContext());
  return { steam, fetcher };
}

/** Signs in on the HTTPS site the way a browser would, answering for Steam with the fake. */
async function signInOnHttps(stateCookieName: string) {
  const { fetcher } = productionSite();
  const start = await fetcher("/api/auth/steam");
  const stateCookie = [...setCookies(start)][0];
  const returnTo = new URL(start.headers.get("location") ?? "").searchParams.get("openid.return_to") ?? "";
  const steamId = uniqueSteamId();
  const callback = await fetcher(
    new URL(callbackUrl(steamAssertion({ returnTo, steamId, at: new Date() }))).href.slice(SITE.length),
    {
      headers: { cookie: `${stateCookieName}=${stateCookie?.[1].value}` },
    },
  );
  return { fetcher, start, stateCookie, callback, steamId };
}

describe("cookies on an HTTPS site are __Host- cookies", () => {
  it("sign-in sets __Host-steam_signin and __Host-session: Secure, Path=/, no Domain", async () => {
    const { start, stateCookie, callback } = await signInOnHttps("__Host-steam_signin");
    expect(start.status).toBe(302);
    expect(stateCookie?.[0]).toBe("__Host-steam_signin");
    for (const attributes of [
      stateCookie?.[1].attributes ?? "",
      setCookies(callback).get("__Host-session")?.attributes ?? "",
    ]) {
      expect(attributes).toContain("Secure");
      expect(attributes).toContain("Path=/;");
      expect(attributes).not.toMatch(/Domain=/i);
    }
    expect(callback.headers.get("location")).toMatch(/^\/auth-success\?code=/);
    expect(setCookies(callback).get("__Host-session")?.value).toBeTruthy();
    expect(setCookies(callback).has("__session")).toBe(false);
  });

  it("the session works by its __Host- name only: a planted __session cookie signs nobody in", async () => {
    const { fetcher, callback, steamId } = await signInOnHttps("__Host-steam_signin");
    const token = setCookies(callback).get("__Host-session")?.value ?? "";
    const byHostCookie = await fetcher("/api/profile", { headers: { cookie: `__Host-session=${token}` } });
    expect(byHostCookie.status).toBe(200);
    expect(await byHostCookie.json()).toMatchObject({ steam_id: steamId });
    const planted = await fetcher("/api/profile", { headers: { cookie: `__session=${token}` } });
    expect(planted.status).toBe(401);
    const check = await fetcher("/api/auth/check", { headers: { cookie: `__session=${token}` } });
    expect(await check.json()).toEqual({ authenticated: false, user: null });
  });

  it("a sign-in state planted under the old name is not this browser's sign-in", async () => {
    const { callback } = await signInOnHttps("__steam_signin");
    expect(callback.headers.get("location")).toBe("/?auth_error=expired");
    expect(setCookies(callback).get("__Host-session")).toBeUndefined();
  });

  it("/auth-success, sign-out and the cross-site guard read the same __Host- name", async () => {
    const { fetcher, callback } = await signInOnHttps("__Host-steam_signin");
    const token = setCookies(callback).get("__Host-session")?.value ?? "";
    const hostCookie = { cookie: `__Host-session=${token}` };

    const code = new URL(callback.headers.get("location") ?? "", SITE).searchParams.get("code") ?? "";
    const deps = depsFor(production);
    const loaded = await authSuccessLoader({
      request: new Request(`${SITE}/auth-success?code=${code}`, { headers: hostCookie }),
      url: new URL(`${SITE}/auth-success?code=${code}`),
      params: {},
      pattern: "/auth-success",
      context: createRouterContext(deps),
    } as unknown as Parameters<typeof authSuccessLoader>[0]);
    expect(loaded).toMatchObject({ data: { code, next: "/", error: null } });
    const exchanged = await fetcher("/api/auth/exchange", {
      method: "POST",
      headers: { ...hostCookie, "content-type": "application/json", origin: SITE },
      body: JSON.stringify({ code }),
    });
    expect(await exchanged.json()).toEqual({ token });

    const crossSite = await fetcher("/api/logout", {
      method: "POST",
      headers: { ...hostCookie, "sec-fetch-site": "same-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: FORBIDDEN });

    const logout = await fetcher("/api/logout", { method: "POST", headers: hostCookie });
    expect(logout.status).toBe(200);
    expect(setCookies(logout).get("__Host-session")?.value).toBe("");
    const after = await fetcher("/api/profile", { headers: hostCookie });
    expect(after.status).toBe(401);
  });

  it("plain-http localhost keeps the bare names, which browsers accept without TLS", async () => {
    const start = await SELF.fetch(`${LOCAL}/api/auth/steam`, { redirect: "manual" });
    expect([...setCookies(start).keys()]).toEqual(["__steam_signin"]);
  });
});

describe("cookie-carried writes from another Origin", () => {
  it("are refused with 403 even without Sec-Fetch-Site, on the API and the pages", async () => {
    const player = await createPlayer({ balance: 100_00 });
    for (const origin of ["https://evil.example", "http://shop.localhost:5173", "null"]) {
      const api = await SELF.fetch(`${LOCAL}/api/purchase/items/1`, {
        method: "POST",
        headers: { cookie: `__session=${player.token}`, origin, "content-type": "application/json" },
        body: JSON.stringify({ server_type: "SOLO" }),
      });
      expect(api.status, origin).toBe(403);
      expect(await api.json()).toEqual({ error: FORBIDDEN });
      const page = await SELF.fetch(`${LOCAL}/logout`, {
        method: "POST",
        headers: { cookie: `__session=${player.token}`, origin },
      });
      expect(page.status, origin).toBe(403);
      expect(await page.text()).toBe(FORBIDDEN);
    }
    const profile = await SELF.fetch(`${LOCAL}/api/profile`, { headers: { authorization: `Bearer ${player.token}` } });
    expect(((await profile.json()) as { balance: number }).balance).toBe(100);
  });

  it("our own Origin, bearer-token calls and cookie-less calls pass", async () => {
    const player = await createPlayer();
    const own = await SELF.fetch(`${LOCAL}/logout`, {
      method: "POST",
      headers: { cookie: `__session=${player.token}`, origin: LOCAL },
    });
    expect(own.status).toBe(501);
    const scripted = await SELF.fetch(`${LOCAL}/api/promos/validate`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${player.token}`,
        origin: "https://evil.example",
        "content-type": "application/json",
        "cf-connecting-ip": uniqueIp(),
      },
      body: JSON.stringify({ code: "" }),
    });
    expect(scripted.status).toBe(400);
    const webhook = await SELF.fetch(`${LOCAL}/api/payment/webhook/standin`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(webhook.status).toBe(400);
  });
});

describe("JSON API posts must be application/json", () => {
  it("a body of another type is 415 with a Russian text, and nothing is bought", async () => {
    const player = await createPlayer({ balance: 100_00 });
    const auth = { authorization: `Bearer ${player.token}`, "cf-connecting-ip": uniqueIp() };
    for (const [path, type] of [
      ["/api/purchase/items/1", "text/plain"],
      ["/api/purchase/items/1", "application/x-www-form-urlencoded"],
      ["/api/payment/create", "multipart/form-data; boundary=x"],
      ["/api/promos/validate", "text/plain;charset=UTF-8"],
      ["/api/payment/webhook/standin", "application/jsonp"],
      ["/api/game/heartbeat", "text/plain"],
    ] as const) {
      const response = await SELF.fetch(`${LOCAL}${path}`, {
        method: "POST",
        headers: { ...auth, "content-type": type },
        body: JSON.stringify({ server_type: "SOLO" }),
      });
      expect(response.status, `${path} ${type}`).toBe(415);
      expect(await response.json()).toEqual({ error: NOT_JSON });
    }
    const untyped = await SELF.fetch(`${LOCAL}/api/promos/validate`, {
      method: "POST",
      headers: auth,
      body: new Blob([JSON.stringify({ code: "X" })]),
    });
    expect(untyped.status).toBe(415);
    const profile = await SELF.fetch(`${LOCAL}/api/profile`, { headers: { authorization: `Bearer ${player.token}` } });
    expect(((await profile.json()) as { balance: number }).balance).toBe(100);
  });

  it("JSON with a charset passes, and a post with no body (sign-out) still works", async () => {
    const player = await createPlayer();
    const json = await SELF.fetch(`${LOCAL}/api/promos/validate`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${player.token}`,
        "content-type": "Application/JSON; charset=utf-8",
        "cf-connecting-ip": uniqueIp(),
      },
      body: JSON.stringify({ code: "" }),
    });
    expect(json.status).toBe(400);
    const logout = await SELF.fetch(`${LOCAL}/api/logout`, {
      method: "POST",
      headers: { cookie: `__session=${player.token}`, origin: LOCAL },
    });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ success: true });
  });
});
