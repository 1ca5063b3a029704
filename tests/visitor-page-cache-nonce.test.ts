// A page kept for visitors was rendered with one request's Content-Security-Policy nonce; every
// answer served from that copy must name the same nonce in its policy, or the browser would refuse
// the page's own inline scripts (React Router's hydration).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cspNonceContext } from "#app/lib/deps-context.server.ts";
import { pageCacheFor, platformFor } from "#tests/support/platform.ts";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import { PAGE_CACHE_HEADER } from "#worker/visitor-page-cache.ts";

const nonceInPolicy = (response: Response) =>
  /script-src[^;]*'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("a visitor's page from the cache and its policy", () => {
  it("names the nonce the kept page's scripts carry, and a request id of its own", async () => {
    const pending: Promise<unknown>[] = [];
    const app = createApp({
      pageHandler: async (_request, context) =>
        new Response(`<script nonce="${context.get(cspNonceContext)}">hydrate()</script>`, {
          headers: { "content-type": "text/html; charset=utf-8" },
        }),
      platform: () => platformFor(env as Env),
      overrides: () => ({ waitUntil: (promise) => void pending.push(promise) }),
      pageCache: pageCacheFor(),
    });
    const visit = async () => {
      const response = await app.fetch(new Request("http://localhost:8788/terms?nonce-test=1"));
      await Promise.all(pending.splice(0));
      return response;
    };

    const first = await visit();
    const second = await visit();
    expect(second.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    const rendered = /nonce="([^"]+)"/.exec(await second.text())?.[1];
    expect(rendered).toBe(/nonce="([^"]+)"/.exec(await first.text())?.[1]);
    expect(nonceInPolicy(second)).toBe(rendered);
    expect(second.headers.get("x-frame-options")).toBe(first.headers.get("x-frame-options"));
    expect(second.headers.get("x-request-id")).toMatch(/^[\w-]{36}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });
});
