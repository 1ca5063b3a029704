import { createExecutionContext, env, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { servers } from "#db/schema.ts";
import { depsFor } from "#tests/support/deps.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";
import type { Env } from "#worker/env.ts";
import { refreshServerStatus, STATUS_KEY } from "#worker/services/server-status.ts";
import { FakeSteamWebApi } from "./fakes/steam-webapi.ts";
import { testClock, testDeps } from "./support/deps.ts";

// Servers that exist only in this KV document, never in D1.
const kvOnlyDocument = {
  updated_at: Date.parse("2026-11-22T12:00:00Z"),
  servers: [
    {
      name: "Только в KV #1",
      server_type: "NO_LIMIT",
      status: "online",
      players: { current: 88, max: 150 },
      ip_port: "203.0.113.7:28015",
    },
    {
      name: "Только в KV #2",
      server_type: "SOLO",
      status: "offline",
      players: { current: 0, max: 100 },
      ip_port: "203.0.113.8:28015",
    },
  ],
};

function poisoned(name: string): never {
  throw new Error(`${name} must not be used here`);
}

/** A D1 binding that fails the test on any query. */
const noD1 = {
  prepare: () => poisoned("D1"),
  batch: () => poisoned("D1"),
  exec: () => poisoned("D1"),
  dump: () => poisoned("D1"),
  withSession: () => poisoned("D1"),
} as unknown as D1Database;

/** The Worker's Hono app over the given bindings (pages are not this file's business). */
function appWith(bindings: Partial<Env>) {
  const app = createWorkerApp({ pageHandler: async () => new Response("page", { status: 501 }) });
  return (path: string, init?: RequestInit) =>
    app.request(`http://localhost${path}`, init, { ...env, ...bindings }, createExecutionContext());
}

beforeEach(async () => {
  await env.STATUS_KV.delete(STATUS_KEY);
});

describe("GET /api/server-status", () => {
  it("answers the servers of the KV document in the spec's shape", async () => {
    await env.STATUS_KV.put(STATUS_KEY, JSON.stringify(kvOnlyDocument));
    const response = await SELF.fetch("http://localhost/api/server-status");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ servers: kvOnlyDocument.servers });
  });

  it("reads KV alone: it answers even when every D1 query would fail", async () => {
    await env.STATUS_KV.put(STATUS_KEY, JSON.stringify(kvOnlyDocument));
    const rows = await testDeps().db.orm.select({ ipPort: servers.ipPort }).from(servers);
    expect(rows.map((row) => row.ipPort)).not.toContain("203.0.113.7:28015");

    const response = await appWith({ DB: noD1 })("/api/server-status");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ servers: kvOnlyDocument.servers });
  });

  it("lets browsers and the edge cache the document, and revalidates by ETag", async () => {
    await env.STATUS_KV.put(STATUS_KEY, JSON.stringify(kvOnlyDocument));
    const response = await SELF.fetch("http://localhost/api/server-status");
    const cacheControl = response.headers.get("cache-control") ?? "";
    expect(cacheControl).toContain("public");
    expect(cacheControl).toMatch(/(^|, )max-age=15(,|$)/);
    expect(cacheControl).toMatch(/s-maxage=30/);
    expect(cacheControl).toMatch(/stale-while-revalidate=60/);
    expect(response.headers.get("last-modified")).toBe(new Date(kvOnlyDocument.updated_at).toUTCString());
    const etag = response.headers.get("etag");
    expect(etag).toBeTruthy();

    const again = await SELF.fetch("http://localhost/api/server-status", { headers: { "If-None-Match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("answers an empty list, briefly cached, before the cron has written anything", async () => {
    const response = await SELF.fetch("http://localhost/api/server-status");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ servers: [] });
    expect(response.headers.get("cache-control")).toBe("public, max-age=5, s-maxage=5");
  });

  it.each([
    ["text that is not JSON", "<html>oops"],
    ["JSON of another shape", JSON.stringify({ servers: [{ name: "без статуса" }] })],
    ["a JSON array", JSON.stringify([1, 2, 3])],
  ])("answers an empty list, never a 500, when KV holds %s", async (_, garbage) => {
    await env.STATUS_KV.put(STATUS_KEY, garbage);
    const response = await SELF.fetch("http://localhost/api/server-status");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ servers: [] });
  });

  it("answers 503 with an empty list, not a 500, when KV itself fails", async () => {
    const brokenKv = { get: () => Promise.reject(new Error("KV is down")) } as unknown as KVNamespace;
    const response = await appWith({ STATUS_KV: brokenKv, DB: noD1 })("/api/server-status");
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ servers: [], error: "Ошибка при получении статуса серверов" });
  });

  it("shows what the cron computed from Steam", async () => {
    const steam = new FakeSteamWebApi();
    const ipPort = "198.51.100.21:28015";
    await testDeps()
      .db.orm.insert(servers)
      .values({ name: "Свобода #21 | MAX 3", serverType: "MAX3", ipPort, sortOrder: -1 })
      .onConflictDoNothing();
    steam.answer(ipPort, { players: 33, maxPlayers: 120 });
    const deps = depsFor(
      { ...env, STEAM_WEBAPI_BASE: steam.base },
      { fetch: steam.fetch, now: testClock(Date.now()).now },
    );
    await refreshServerStatus(deps);

    const response = await SELF.fetch("http://localhost/api/server-status");
    const body = (await response.json()) as { servers: unknown[] };
    expect(body.servers).toContainEqual({
      name: "Свобода #21 | MAX 3",
      server_type: "MAX3",
      status: "online",
      players: { current: 33, max: 120 },
      ip_port: ipPort,
      // No plugin on it: the map and the wipe from Steam's listing (Rust's «born» tag), issue 36.
      map: { name: "Procedural Map", size: null },
      wiped_at: 1_700_000_000_000,
    });
  });
});

describe("a server without the plugin (issue 36)", () => {
  it("keeps the map and wipe Steam's listing gave when Steam doesn't answer for a minute", async () => {
    const steam = new FakeSteamWebApi();
    const ipPort = "198.51.100.22:28015";
    await testDeps()
      .db.orm.insert(servers)
      .values({ name: "Свобода #22 | SOLO", serverType: "SOLO", ipPort, sortOrder: -1 })
      .onConflictDoNothing();
    const clock = testClock(Date.now());
    const deps = depsFor({ ...env, STEAM_WEBAPI_BASE: steam.base }, { fetch: steam.fetch, now: clock.now });
    steam.answer(ipPort, { players: 10, maxPlayers: 100 });
    const first = await refreshServerStatus(deps);
    const seen = first.document.servers.find((server) => server.ip_port === ipPort);
    expect(seen).toMatchObject({ map: { name: "Procedural Map", size: null }, wiped_at: 1_700_000_000_000 });

    steam.answer(ipPort, "server-error");
    clock.advance(60_000);
    const next = await refreshServerStatus(deps);
    expect(next.document.servers.find((server) => server.ip_port === ipPort)).toMatchObject({
      map: { name: "Procedural Map", size: null },
      wiped_at: 1_700_000_000_000,
    });
  });
});

describe("GET /api/server-types", () => {
  it("lists the five server types, cacheable", async () => {
    const response = await SELF.fetch("http://localhost/api/server-types");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ types: ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"] });
    expect(response.headers.get("cache-control")).toContain("public");
  });
});
