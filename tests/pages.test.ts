import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { depsFor, testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import { createSession, revokeSession } from "#worker/services/auth/sessions.ts";
import { type PublicServer, STATUS_KEY } from "#worker/services/server-status.ts";
import { loader as rootLoader } from "../app/root.tsx";
import { loader as homeLoader } from "../app/routes/home.tsx";

const seededServers: PublicServer[] = [
  {
    name: "Свобода #1 | SOLO | Только соло",
    server_type: "SOLO",
    status: "online",
    players: { current: 42, max: 200 },
    ip_port: "185.189.255.10:28015",
  },
  {
    name: "Свобода #5 | NO LIMIT | x5 лут, без лимита команд",
    server_type: "NO_LIMIT",
    status: "offline",
    players: { current: 0, max: 200 },
    ip_port: "185.189.255.14:28015",
  },
];

beforeEach(async () => {
  await env.STATUS_KV.delete(STATUS_KEY);
});

describe("home page loader", () => {
  it("returns the servers the cron wrote to KV, in order, as the cards show them", async () => {
    await env.STATUS_KV.put(STATUS_KEY, JSON.stringify({ updated_at: Date.now(), servers: seededServers }));
    const data = await homeLoader(routeArgs(testDeps(), "http://localhost/"));
    expect(data.servers).toEqual(seededServers);
  });

  it("returns an empty list (Нет доступных серверов) before the cron has written anything", async () => {
    const data = await homeLoader(routeArgs(testDeps(), "http://localhost/"));
    expect(data.servers).toEqual([]);
  });

  it("returns null (the list's error text) when KV itself fails, instead of failing the page", async () => {
    const brokenKv = { get: () => Promise.reject(new Error("KV is down")) } as unknown as KVNamespace;
    const deps = depsFor({ ...env, STATUS_KV: brokenKv });
    const data = await homeLoader(routeArgs(deps, "http://localhost/"));
    expect(data.servers).toBeNull();
  });
});

describe("root loader (the header's account place)", () => {
  it("has no user without a session cookie, and the Discord address from configuration", async () => {
    const data = await rootLoader(routeArgs(testDeps(), "http://localhost/"));
    expect(data.user).toBeNull();
    expect(data.discordUrl).toBe("https://discord.gg/rustfree");
  });

  it("has the signed-in player with the balance in rubles", async () => {
    const deps = testDeps();
    const user = await createPlayer({
      deps,
      balance: 123_450,
      nickname: "Тестовый игрок",
      avatarUrl: "https://avatars.steamstatic.com/test_full.jpg",
    });
    const session = await createSession(deps, user.id);
    const data = await rootLoader(routeArgs(deps, "http://localhost/terms", { headers: sessionCookie(session.token) }));
    expect(data.user).toEqual({
      nickname: "Тестовый игрок",
      avatarUrl: "https://avatars.steamstatic.com/test_full.jpg",
      steamId: user.steamId,
      balance: 1234.5,
    });
  });

  it("has no user once the session is revoked or the cookie is forged", async () => {
    const deps = testDeps();
    const user = await createPlayer({ deps });
    const session = await createSession(deps, user.id);
    await revokeSession(deps, session.id);
    const revoked = await rootLoader(routeArgs(deps, "http://localhost/", { headers: sessionCookie(session.token) }));
    expect(revoked.user).toBeNull();
    const forged = await rootLoader(
      routeArgs(deps, "http://localhost/", { headers: { cookie: "__session=not-a-token" } }),
    );
    expect(forged.user).toBeNull();
  });
});
