// Every answer carries a Content-Security-Policy whose scripts run only with a fresh per-answer
// nonce, and the nonce reaches what renders the pages (React Router) and the stand-ins' pages.
// The browser tests (tests/e2e/csp.test.ts) check the rendered pages against it.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import type { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { cspNonceContext } from "#app/lib/deps-context.server.ts";
import { createWorkerApp } from "#worker/cloudflare/worker-app.ts";

const ORIGIN = "http://localhost:5173";

function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

/** The site with a page renderer that says which nonce React Router was handed. */
function siteReportingNonce() {
  const app = createWorkerApp({
    pageHandler: async (_request, context: RouterContextProvider) =>
      new Response(String(context.get(cspNonceContext)), { headers: { "content-type": "text/plain" } }),
  });
  return (path: string) => app.request(`${ORIGIN}${path}`, {}, env, createExecutionContext());
}

describe("Content-Security-Policy", () => {
  it("pages allow scripts from our origin and with this answer's nonce only; no inline handlers, styles or plugins", async () => {
    const response = await siteReportingNonce()("/shop");
    const policy = directives(response.headers.get("content-security-policy"));
    const nonce = await response.text();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get("script-src-attr")).toEqual(["'none'"]);
    expect(policy.get("style-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toContain("https://avatars.steamstatic.com");
    expect(policy.get("form-action")).toEqual(expect.arrayContaining(["'self'", "https://yoomoney.ru"]));
    expect(policy.get("frame-ancestors")).toEqual(["'self'"]);
    for (const values of policy.values()) {
      expect(values).not.toContain("'unsafe-inline'");
      expect(values).not.toContain("'unsafe-eval'");
    }
  });

  it("makes a new nonce for every answer", async () => {
    const site = siteReportingNonce();
    const nonces = await Promise.all(Array.from({ length: 5 }, async () => (await site("/")).text()));
    expect(new Set(nonces).size).toBe(5);
  });

  it("the API's answers carry it too", async () => {
    const response = await SELF.fetch(`${ORIGIN}/api/server-types`);
    expect(directives(response.headers.get("content-security-policy")).get("script-src")?.[0]).toBe("'self'");
  });

  it("the Steam stand-in's page styles itself with the answer's nonce", async () => {
    const start = await SELF.fetch(`${ORIGIN}/api/auth/steam`, { redirect: "manual" });
    const page = await SELF.fetch(start.headers.get("location") ?? "");
    const nonce = directives(page.headers.get("content-security-policy"))
      .get("style-src")?.[1]
      ?.match(/^'nonce-(.+)'$/)?.[1];
    expect(nonce).toBeTruthy();
    const html = await page.text();
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).not.toMatch(/<script|style="/);
  });
});
