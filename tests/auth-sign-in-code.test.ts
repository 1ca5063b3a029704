// The one-time code /auth-success trades for the bearer token: the token never travels in an address.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loader as authSuccessLoader } from "#app/routes/auth-success.tsx";
import { SIGN_IN_CODE_INVALID } from "#core/messages/auth.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import { SIGN_IN_CODE_TTL_MS } from "#worker/services/auth/sign-in-codes.ts";
import { testClock, testDeps } from "./support/deps.ts";
import { uniqueSteamId } from "./support/players.ts";
import { routeArgs, thrownResponse } from "./support/routes.ts";
import {
  approveAtStandIn,
  exchangeCode,
  type Fetcher,
  selfFetch,
  setCookies,
  signInThroughStandIn,
} from "./support/sign-in.ts";
import { rows } from "./support/sql.ts";

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

async function refused(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toEqual({ error: SIGN_IN_CODE_INVALID });
}

/** The site with a clock the test moves. */
function siteWithClock() {
  const clock = testClock(Date.now());
  const app = createWorkerApp({
    pageHandler: async () => new Response("page", { status: 501 }),
    overrides: () => ({ now: clock.now }),
  });
  const fetcher: Fetcher = async (url, init) =>
    app.request(url, { redirect: "manual", ...init }, env, createExecutionContext());
  return { clock, fetcher };
}

describe("the sign-in chain", () => {
  it("puts no token in any address or Location header, from the start to /auth-success", async () => {
    const seen: string[] = [];
    const recording: Fetcher = async (url, init) => {
      seen.push(url);
      const response = await selfFetch(url, init);
      const location = response.headers.get("location");
      if (location) seen.push(location);
      return response;
    };
    const { cookie, code, token, location } = await signInThroughStandIn(
      uniqueSteamId(),
      "/api/auth/steam?return_to=%2Fshop",
      recording,
      undefined,
      { exchange: false },
    );
    expect(location).toMatch(/^\/auth-success\?code=[\w-]{43}&next=%2Fshop$/);
    expect(code).toBeTruthy();
    expect(token).toBeNull();
    if (!cookie) throw new Error("no session cookie");
    expect(seen.length).toBeGreaterThanOrEqual(6);
    for (const address of seen) {
      expect(address).not.toContain(cookie);
      expect(address).not.toMatch(JWT);
      expect(address).not.toMatch(/[?&]token=/);
    }
  });

  it("keeps only a hash of the code, tied to the new session", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, {
      exchange: false,
    });
    const stored = await rows<{ code_hash: string; session_id: string }>(
      "SELECT code_hash, session_id FROM sign_in_codes",
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(code ?? "-");
    const mine = (await exchangeCode(code ?? "", cookie)).status;
    expect(mine).toBe(200);
  });
});

describe("POST /api/auth/exchange", () => {
  it("answers the session's bearer token once; the same code again signs nobody in", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, {
      exchange: false,
    });
    if (!code || !cookie) throw new Error("sign-in failed");
    const first = await exchangeCode(code, cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const { token } = (await first.json()) as { token: string };
    expect(token).toBe(cookie);
    const profile = await selfFetch("http://localhost/api/profile", { headers: { authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(200);

    await refused(await exchangeCode(code, cookie));
  });

  it("two tabs racing with one code: exactly one gets the token", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, {
      exchange: false,
    });
    if (!code || !cookie) throw new Error("sign-in failed");
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchangeCode(code, cookie)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400]);
  });

  it("refuses a code after its minute", async () => {
    const { clock, fetcher } = siteWithClock();
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, fetcher, undefined, {
      exchange: false,
    });
    if (!code || !cookie) throw new Error("sign-in failed");
    clock.advance(SIGN_IN_CODE_TTL_MS + 1);
    await refused(await exchangeCode(code, cookie, fetcher));
    clock.advance(-2);
    // Still unused and now within its minute again: only the expiry refused it.
    expect((await exchangeCode(code, cookie, fetcher)).status).toBe(200);
  });

  it("refuses a wrong code, a missing or malformed body, and a code without the browser's session cookie", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, {
      exchange: false,
    });
    if (!code || !cookie) throw new Error("sign-in failed");
    await refused(await exchangeCode(`${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`, cookie));
    await refused(await exchangeCode("", cookie));
    await refused(await exchangeCode("x".repeat(5000), cookie));
    await refused(
      await selfFetch("http://localhost:5173/api/auth/exchange", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: `__session=${cookie}` },
        body: JSON.stringify({ token: code }),
      }),
    );
    // The code alone (a link sent to someone else) is worth nothing.
    await refused(await exchangeCode(code, null));
    // None of those used it up.
    expect((await exchangeCode(code, cookie)).status).toBe(200);
  });

  it("a code pushed to another signed-in browser does not hand out the sender's account", async () => {
    const attacker = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, { exchange: false });
    const victim = await signInThroughStandIn(uniqueSteamId());
    if (!attacker.code || !victim.cookie) throw new Error("sign-in failed");
    await refused(await exchangeCode(attacker.code, victim.cookie));
  });

  it("a code of a session that was signed out is worth nothing", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId(), undefined, undefined, undefined, {
      exchange: false,
    });
    if (!code || !cookie) throw new Error("sign-in failed");
    await selfFetch("http://localhost/api/logout", { method: "POST", headers: { cookie: `__session=${cookie}` } });
    await refused(await exchangeCode(code, cookie));
  });
});

describe("/auth-success", () => {
  const deps = testDeps();

  it("hands the page its code and next when the code is live and this browser's", async () => {
    const { code, cookie } = await signInThroughStandIn(
      uniqueSteamId(),
      "/api/auth/steam?return_to=%2Fterms",
      undefined,
      undefined,
      {
        exchange: false,
      },
    );
    const loaded = await authSuccessLoader(
      routeArgs<Parameters<typeof authSuccessLoader>[0]>(
        deps,
        `http://localhost/auth-success?code=${code}&next=%2Fterms`,
        {
          headers: { cookie: `__session=${cookie}` },
        },
      ),
    );
    expect(loaded).toMatchObject({ data: { code, next: "/terms", error: null } });
    expect(JSON.stringify(loaded)).not.toContain(cookie);
  });

  it("says so in Russian for a used code, and hands out nothing", async () => {
    const { code, cookie } = await signInThroughStandIn(uniqueSteamId());
    const loaded = await authSuccessLoader(
      routeArgs<Parameters<typeof authSuccessLoader>[0]>(deps, `http://localhost/auth-success?code=${code}`, {
        headers: { cookie: `__session=${cookie}` },
      }),
    );
    expect(loaded).toMatchObject({ data: { code: null, next: "/", error: SIGN_IN_CODE_INVALID } });
  });

  it("without a code (or with an old-style token) goes home", async () => {
    for (const query of ["", "?token=abc", "?code="]) {
      const response = await thrownResponse(
        authSuccessLoader(
          routeArgs<Parameters<typeof authSuccessLoader>[0]>(deps, `http://localhost/auth-success${query}`),
        ),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
    }
  });

  it("the callback's cookie alone signs the player in without JavaScript: the code may stay unused", async () => {
    const start = await selfFetch("http://localhost:5173/api/auth/steam");
    const state = setCookies(start).get("__steam_signin")?.value ?? "";
    const approved = await approveAtStandIn(new URL(start.headers.get("location") ?? ""), uniqueSteamId());
    const callback = await selfFetch(approved.headers.get("location") ?? "", {
      headers: { cookie: `__steam_signin=${state}` },
    });
    const cookie = setCookies(callback).get("__session")?.value;
    const profile = await selfFetch("http://localhost/api/profile", { headers: { cookie: `__session=${cookie}` } });
    expect(profile.status).toBe(200);
  });
});
