// The security review's findings and the protections it checked, through the real Worker
// (SELF, or the same Hono app with a production configuration).
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loader as authSuccessLoader } from "#app/routes/auth-success.tsx";
import { depsFor } from "#tests/support/deps.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Env } from "#worker/env.ts";
import { safeReturnPath } from "#worker/services/auth/return-path.ts";
import { testDeps } from "./support/deps.ts";
import { createPlayer } from "./support/players.ts";
import { createPayment } from "./support/profile-fixtures.ts";
import { routeArgs } from "./support/routes.ts";
import { bearer, sessionCookie } from "./support/sign-in.ts";
import { uniqueIp } from "./support/unique.ts";

const ORIGIN = "http://localhost:5173";
const deps = testDeps();
const RUSSIAN = /[а-яё]/i;
const TOO_LARGE = "Слишком большой запрос";
const BAD_FORM = "Некорректные данные формы";

describe("caching of personal answers", () => {
  it("a page answered to a signed-in browser is private and never stored, its .data too", async () => {
    const player = await createPlayer({ deps });
    for (const path of ["/", "/profile", "/profile.data", "/shop?server_type=SOLO", "/balance"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { headers: sessionCookie(player.token) });
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });

  it("an API answer to a request carrying credentials is not stored unless the handler chose a public policy", async () => {
    const player = await createPlayer({ deps });
    const create = await SELF.fetch(`${ORIGIN}/api/payment/create`, {
      method: "POST",
      headers: { ...bearer(player.token), "content-type": "application/json" },
      body: JSON.stringify({ amount: 1, email: "a@b.c" }),
    });
    expect(create.status).toBe(400);
    expect(create.headers.get("cache-control")).toBe("private, no-store");
    // The public catalog stays cacheable whoever asks.
    const categories = await SELF.fetch(`${ORIGIN}/api/shop/categories`, { headers: sessionCookie(player.token) });
    expect(categories.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("every personal API answer says no-store", async () => {
    const player = await createPlayer({ deps });
    const payment = await createPayment(deps, player.id);
    for (const path of [
      "/api/profile",
      "/api/inventory",
      "/api/purchase/history",
      "/api/payment/history",
      `/api/payment/${payment.id}`,
      "/api/auth/check",
    ]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { headers: bearer(player.token) });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toContain("no-store");
    }
  });

  it("pages and API carry the secure headers", async () => {
    for (const path of ["/", "/api/server-types", "/api/profile"]) {
      const response = await SELF.fetch(`${ORIGIN}${path}`);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("strict-transport-security"), path).toContain("max-age=");
    }
  });
});

describe("malformed input", () => {
  it("a JSON endpoint answers 400 with a Russian text to a body that is not the JSON it wants, never 500", async () => {
    const player = await createPlayer({ deps });
    const endpoints = [
      { path: "/api/purchase/items/1", auth: true },
      { path: "/api/promos/validate", auth: true },
      { path: "/api/payment/create", auth: true },
      { path: "/api/payment/webhook/standin", auth: false },
    ];
    const ip = uniqueIp();
    for (const { path, auth } of endpoints) {
      for (const body of ["{", "null", "[]", '"text"', "1e999", "amount=10"]) {
        const response = await SELF.fetch(`${ORIGIN}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "cf-connecting-ip": ip,
            ...(auth ? bearer(player.token) : {}),
          },
          body,
        });
        const json = (await response.json()) as { error?: string };
        expect(response.status, `${path} ${body}`).toBe(400);
        expect(json.error, `${path} ${body}`).toMatch(RUSSIAN);
      }
    }
  });

  it("forged, malformed and unsigned credentials are 401, never 500", async () => {
    const unsigned = `${btoa(JSON.stringify({ alg: "none" }))}.${btoa(JSON.stringify({ sub: crypto.randomUUID() }))}.`;
    const attempts: Record<string, string>[] = [
      bearer(unsigned),
      { authorization: `Bearer ${"a".repeat(20_000)}` },
      { authorization: "Basic dXNlcjpwYXNz" },
      { cookie: "__session=%E0%A4%A" },
      sessionCookie(unsigned),
      { cookie: "__session" },
      { cookie: ";;==;__session=;" },
    ];
    for (const headers of attempts) {
      const response = await SELF.fetch(`${ORIGIN}/api/profile`, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toEqual({ error: "Необходима авторизация" });
    }
  });

  it("a page form post whose body is not a form answers 400 with a Russian text instead of failing the action", async () => {
    const player = await createPlayer({ deps });
    for (const init of [
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ amount: "100" }) },
      { headers: { "content-type": "multipart/form-data; boundary=x" }, body: "--y\r\nbroken" },
      { headers: { "content-type": "text/plain" }, body: "amount=100" },
    ]) {
      const response = await SELF.fetch(`${ORIGIN}/balance`, {
        method: "POST",
        headers: { ...sessionCookie(player.token), ...init.headers },
        body: init.body,
      });
      expect(response.status, init.headers["content-type"]).toBe(400);
      expect(await response.text()).toBe(BAD_FORM);
    }
  });

  it("a real form post, and one without a body, still reach the page", async () => {
    const posts: { headers: Record<string, string>; body?: string }[] = [
      {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ amount: "100", email: "a@b.c" }).toString(),
      },
      { headers: {} },
    ];
    for (const init of posts) {
      const response = await SELF.fetch(`${ORIGIN}/logout`, { method: "POST", ...init });
      // The test Worker's pages answer 501: the post got past the guards to React Router.
      expect(response.status).toBe(501);
    }
    const multipart = new FormData();
    multipart.set("code", "ABC");
    const response = await SELF.fetch(`${ORIGIN}/promocodes`, { method: "POST", body: multipart });
    expect(response.status).toBe(501);
  });

  it("refuses bodies over 64 KiB with 413 before reading them, on the API and on pages", async () => {
    const player = await createPlayer({ deps });
    const big = JSON.stringify({ code: "x".repeat(70 * 1024) });
    const api = await SELF.fetch(`${ORIGIN}/api/promos/validate`, {
      method: "POST",
      headers: { ...bearer(player.token), "content-type": "application/json", "cf-connecting-ip": uniqueIp() },
      body: big,
    });
    expect(api.status).toBe(413);
    expect(await api.json()).toEqual({ error: TOO_LARGE });

    // Without a declared length (a stream) the limit holds too.
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`code=${"x".repeat(70 * 1024)}`));
        controller.close();
      },
    });
    const page = await SELF.fetch(`${ORIGIN}/promocodes`, {
      method: "POST",
      headers: { ...sessionCookie(player.token), "content-type": "application/x-www-form-urlencoded" },
      body: streamed,
      duplex: "half",
    } as RequestInit);
    expect(page.status).toBe(413);
    expect(await page.text()).toBe(TOO_LARGE);
  });
});

describe("cross-site form posts", () => {
  it("a state-changing request carried by the session cookie from another site is refused, whatever SameSite does", async () => {
    const player = await createPlayer({ deps, balance: 100_00 });
    for (const site of ["cross-site", "same-site"]) {
      const api = await SELF.fetch(`${ORIGIN}/api/purchase/items/1`, {
        method: "POST",
        headers: { ...sessionCookie(player.token), "sec-fetch-site": site, "content-type": "text/plain" },
        body: JSON.stringify({ server_type: "SOLO" }),
      });
      expect(api.status, site).toBe(403);
      expect(await api.json()).toEqual({ error: "Доступ запрещен" });
      const page = await SELF.fetch(`${ORIGIN}/logout`, {
        method: "POST",
        headers: { ...sessionCookie(player.token), "sec-fetch-site": site },
      });
      expect(page.status, site).toBe(403);
      expect(await page.text()).toBe("Доступ запрещен");
    }
    const profile = await SELF.fetch(`${ORIGIN}/api/profile`, { headers: bearer(player.token) });
    expect(((await profile.json()) as { balance: number }).balance).toBe(100);
  });

  it("lets through our own pages' posts, bearer-token calls, reads, and the provider's server-to-server calls", async () => {
    const player = await createPlayer({ deps });
    const own = await SELF.fetch(`${ORIGIN}/logout`, {
      method: "POST",
      headers: { ...sessionCookie(player.token), "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(501);
    const scripted = await SELF.fetch(`${ORIGIN}/api/promos/validate`, {
      method: "POST",
      headers: {
        ...bearer(player.token),
        "sec-fetch-site": "cross-site",
        "cf-connecting-ip": uniqueIp(),
        "content-type": "application/json",
      },
      body: JSON.stringify({ code: "" }),
    });
    expect(scripted.status).toBe(400);
    const read = await SELF.fetch(`${ORIGIN}/api/profile`, {
      headers: { ...sessionCookie(player.token), "sec-fetch-site": "cross-site" },
    });
    expect(read.status).toBe(200);
    const webhook = await SELF.fetch(`${ORIGIN}/api/payment/webhook/standin`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: "{}",
    });
    expect(webhook.status).toBe(400);
  });
});

// Dot segments collapse when the path is resolved: "/.//evil.example" becomes "//evil.example",
// which a browser reads as another host.
const DOT_SEGMENT_ESCAPES = [
  "/.//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/.%2E//evil.example/x?y=1",
  "/x/../..//evil.example",
  "/./\\evil.example",
];

describe("open redirects", () => {
  it("a return path can't turn into another host once its dot segments are resolved", () => {
    for (const value of DOT_SEGMENT_ESCAPES) {
      const path = safeReturnPath(value);
      expect(path.startsWith("//") || path.includes("\\"), `${value} -> ${path}`).toBe(false);
      // Sanitizing is stable: what it returns passes through it unchanged.
      expect(safeReturnPath(path), value).toBe(path);
    }
    expect(safeReturnPath("/shop/../terms?x=1")).toBe("/terms?x=1");
  });

  it("/auth-success with someone's junk code and a crafted next stays on this site", async () => {
    for (const next of DOT_SEGMENT_ESCAPES) {
      const url = `${ORIGIN}/auth-success?code=junk&next=${encodeURIComponent(next)}`;
      const loaded = await authSuccessLoader(routeArgs<Parameters<typeof authSuccessLoader>[0]>(deps, url));
      const path = (loaded as unknown as { data: { next: string } }).data.next;
      expect(new URL(path, ORIGIN).origin, `${next} -> ${path}`).toBe(ORIGIN);
    }
  });

  it("GET /api/auth/steam never puts such a path into the OpenID return_to", async () => {
    for (const value of DOT_SEGMENT_ESCAPES) {
      const response = await SELF.fetch(`${ORIGIN}/api/auth/steam?return_to=${encodeURIComponent(value)}`, {
        redirect: "manual",
      });
      const location = new URL(response.headers.get("location") ?? "");
      const next = new URL(location.searchParams.get("openid.return_to") ?? "").searchParams.get("next") ?? "";
      expect(new URL(next, ORIGIN).origin, `${value} -> ${next}`).toBe(ORIGIN);
    }
  });
});

describe("ownership", () => {
  it("the payment return URL tells a stranger nothing about someone else's payment and moves no money", async () => {
    const owner = await createPlayer({ deps });
    const stranger = await createPlayer({ deps });
    const completed = await createPayment(deps, owner.id, { status: "completed" });
    const response = await SELF.fetch(`${ORIGIN}/api/payment/return/${completed.id}`, {
      headers: sessionCookie(stranger.token),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    // Only the generic result the owner would see; no amount, e-mail or player.
    expect(response.headers.get("location")).toBe("/profile?payment=success");
    expect(await response.text()).toBe("");
    const theirs = await SELF.fetch(`${ORIGIN}/api/payment/${completed.id}`, { headers: bearer(stranger.token) });
    expect(theirs.status).toBe(404);
  });
});

describe("stand-ins in production", () => {
  const production: Env = {
    ...(env as Env),
    APP_ENV: "production",
    PUBLIC_URL: "https://rust.example",
    SESSION_SECRET: "production-secret-production-secret-0001",
    STEAM_WEBAPI_BASE: "https://api.steampowered.com",
    STEAM_OPENID_ENDPOINT: "https://steamcommunity.com/openid/login",
    PAYMENT_PROVIDER: "yookassa",
  };

  it("no /__standins/ path reaches a stand-in: every one falls through to the pages", async () => {
    const app = createWorkerApp({ pageHandler: async () => new Response("page", { status: 404 }) });
    for (const [method, path] of [
      ["GET", "/__standins/steam-openid/login?openid.mode=checkid_setup"],
      ["POST", "/__standins/steam-openid/login"],
      ["GET", "/__standins/steam-webapi/ISteamUser/GetPlayerSummaries/v2/?steamids=76561197960265728"],
      ["POST", "/__standins/payments/v3/payments"],
      ["GET", "/__STANDINS/payments/v3/payments"],
      ["GET", "/%5F%5Fstandins/payments/v3/payments"],
    ] as const) {
      const response = await app.request(
        `https://rust.example${path}`,
        { method, headers: { "content-type": "application/x-www-form-urlencoded" } },
        production,
        createExecutionContext(),
      );
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe("page");
    }
  });

  it("outbound requests to /__standins/ go to the network, not in-process", async () => {
    const seen: string[] = [];
    const prodDeps = depsFor(production, {
      fetch: async (input) => {
        seen.push(new Request(input).url);
        return new Response("network", { status: 599 });
      },
    });
    const response = await prodDeps.fetch("https://rust.example/__standins/payments/v3/payments/x");
    expect(await response.text()).toBe("network");
    expect(seen).toEqual(["https://rust.example/__standins/payments/v3/payments/x"]);
  });
});
