// The Content-Security-Policy in a real browser: every page works under it (no violation reported),
// and script that reaches a page without this answer's nonce does not run.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { seedItemId } from "../../db/seed/catalog.ts";
import { browserForFile, newContext, signIn, uniqueSteamId, waitForHydration } from "./browser.ts";

const browser = browserForFile();

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

declare global {
  interface Window {
    __cspViolations?: Violation[];
    __injected?: string[];
  }
}

/**
 * A context that records every violation the browser reports, both as `securitypolicyviolation`
 * events (from a script the browser tooling adds, which the policy does not govern) and on the console.
 */
async function watchedContext(javaScriptEnabled = true) {
  const context = await newContext(browser.current, { javaScriptEnabled });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations?.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        page: location.pathname,
      });
    });
  });
  const console: string[] = [];
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  return { context, console };
}

async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  assert.ok(response?.headers()["content-security-policy"], `${path} has a policy`);
  await waitForHydration(page);
  // The nonce'd inline script in <head> ran (root.tsx marks <html> with "js").
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains("js")), true, path);
  assert.deepEqual(await violations(page), [], `no violation on ${path}`);
}

async function signInWatched(page: Page, returnTo: string) {
  await signIn(page, uniqueSteamId(), returnTo, async (standIn) => {
    assert.deepEqual(await violations(standIn), [], "no violation on the Steam stand-in's page");
  });
  await waitForHydration(page);
  assert.deepEqual(await violations(page), [], `no violation signing in and landing on ${returnTo}`);
}

async function closeClean(context: BrowserContext, console: string[]) {
  await context.close();
  assert.deepEqual(console, [], "no policy complaint on the console");
}

test("every page works under the policy: signed out, signing in, and signed in", async () => {
  const { context, console } = await watchedContext();
  const page = await context.newPage();
  for (const path of ["/", "/shop", "/shop?server_type=MAX3", `/shop/items/${seedItemId("MAX3", 1)}`, "/terms"]) {
    await visit(page, path);
  }
  await visit(page, "/balance");
  await visit(page, "/no-such-page");

  await signInWatched(page, "/shop");
  for (const path of ["/profile", "/promocodes", "/purchases", "/history", "/deposits", "/balance"]) {
    await visit(page, path);
  }
  // The shop signed in: avatar from our origin here, prices, the buy dialog.
  await visit(page, `/shop/items/${seedItemId("MAX3", 1)}`);
  await closeClean(context, console);
});

test("a top-up through the payment stand-in's pages keeps to the policy", async () => {
  const { context, console } = await watchedContext();
  const page = await context.newPage();
  await signInWatched(page, "/balance");
  await page.getByLabel("Сумма пополнения, ₽").fill("100");
  await page.getByLabel("E-mail для чека").fill("csp@example.com");
  const [provider] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("button", { name: "Пополнить" }).click(),
  ]);
  // The tab opens blank, then goes to the provider's page.
  await provider.waitForURL(/\/__standins\/payments\/checkout\//);
  await provider.getByRole("button", { name: "Оплатить" }).waitFor();
  assert.deepEqual(await violations(provider), [], "no violation on the payment stand-in's page");
  await closeClean(context, console);
});

test("script injected into a page's HTML does not run: no nonce, no inline handlers", async () => {
  const { context } = await watchedContext();
  const page = await context.newPage();
  // What a stored XSS would look like: markup in the server's answer, under the server's policy.
  await page.route("**/terms", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "<body>",
      `<body><script>(window.__injected ||= []).push("script")</script>` +
        `<img src="/favicon.svg" alt="" onload="(window.__injected ||= []).push('handler')">` +
        `<a id="js-link" href="javascript:(window.__injected ||= []).push('link')">x</a>`,
    );
    await route.fulfill({ response, body: html });
  });
  await page.goto("/terms");
  await waitForHydration(page);
  await page.locator("#js-link").click();
  // The page's own, nonce'd scripts ran (it hydrated); the injected ones did not.
  await page.waitForFunction(() => (window.__cspViolations ?? []).length >= 3);
  assert.equal(await page.evaluate(() => window.__injected), undefined);
  const directives = (await violations(page)).map((violation) => violation.directive).sort();
  assert.deepEqual([...new Set(directives)], ["script-src-attr", "script-src-elem"]);

  // Script added later through the DOM without the nonce is refused as well.
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = '(window.__injected ||= []).push("dom")';
    document.body.append(script);
  });
  await page.waitForFunction(() => (window.__cspViolations ?? []).length >= 4);
  assert.equal(await page.evaluate(() => window.__injected), undefined);
  await context.close();
});

test("without JavaScript the pages and the sign-in work under the policy", async () => {
  const { context, console } = await watchedContext(false);
  const page = await context.newPage();
  await signIn(page, uniqueSteamId(), "/profile");
  await page.locator(".profile-info, main").first().waitFor();
  await closeClean(context, console);
});
