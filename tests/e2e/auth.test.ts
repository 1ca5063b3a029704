import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { browserForFile, E2E_ORIGIN, newContext, uniqueSteamId, waitForHydration } from "./browser.ts";

const browser = browserForFile();

const header = (page: Page) => page.locator("header.site-header");

async function signedInAs(page: Page, nickname: string) {
  await header(page).locator(".account__nickname", { hasText: nickname }).waitFor({ timeout: 15_000 });
}

async function signedOut(page: Page) {
  await header(page).getByRole("link", { name: "Войти через Steam" }).waitFor({ timeout: 15_000 });
}

/** Signs a new player in through the stand-in with the context's cookie jar, stopping before /auth-success. */
async function signInUpToAuthSuccess(context: BrowserContext): Promise<string> {
  const start = await context.request.get("/api/auth/steam", { maxRedirects: 0 });
  const providerPage = new URL(start.headers().location ?? "");
  const approved = await context.request.post(new URL("approve", providerPage).toString(), {
    form: {
      return_to: providerPage.searchParams.get("openid.return_to") ?? "",
      realm: providerPage.searchParams.get("openid.realm") ?? "",
      steamid: uniqueSteamId(),
    },
    maxRedirects: 0,
  });
  const callback = await context.request.get(approved.headers().location ?? "", { maxRedirects: 0 });
  return callback.headers().location ?? "";
}

test("with JavaScript: sign in as the demo player through the Steam stand-in, reload, log out", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.goto("/");
  await waitForHydration(page);
  await header(page).getByRole("link", { name: "Войти через Steam" }).click();

  await page.waitForURL(/\/__standins\/steam-openid\/login\?/);
  await page.locator('button[data-steamid="76561198000000001"]').click();

  await page.waitForURL(`${E2E_ORIGIN}/`);
  await signedInAs(page, "Демо-игрок");
  assert.match((await header(page).locator(".account__balance").textContent()) ?? "", /₽/);
  const token = await page.evaluate(() => window.localStorage.getItem("jwt_token"));
  assert.ok(token, "the token is stored under jwt_token");
  assert.equal(new URL(page.url()).search, "", "no token left in the address");

  // The stored token works as a bearer token for the API.
  const profile = await page.request.get("/api/profile", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(profile.status(), 200);
  assert.equal((await profile.json()).nickname, "Демо-игрок");

  await page.reload();
  await signedInAs(page, "Демо-игрок");

  await waitForHydration(page);
  await header(page).getByRole("button", { name: "Выйти" }).click();
  await signedOut(page);
  await page.waitForFunction(() => window.localStorage.getItem("jwt_token") === null);
  const afterLogout = await page.request.get("/api/profile", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(afterLogout.status(), 401, "logout killed the bearer token too");
  await page.reload();
  await signedOut(page);
  await context.close();
});

test("with JavaScript the session token never appears in an address: requests, redirects, history", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  const addresses: string[] = [];
  page.on("request", (request) => {
    addresses.push(request.url());
    const referer = request.headers().referer;
    if (referer) addresses.push(referer);
  });
  page.on("response", (response) => {
    const location = response.headers().location;
    if (location) addresses.push(location);
  });
  await page.goto("/api/auth/steam?return_to=/terms");
  await page.getByRole("textbox", { name: "SteamID64" }).fill(uniqueSteamId());
  await page.getByRole("button", { name: "Войти", exact: true }).click();
  await page.waitForURL(`${E2E_ORIGIN}/terms`, { timeout: 15_000 });
  const token = await page.waitForFunction(() => window.localStorage.getItem("jwt_token")).then((h) => h.jsonValue());
  assert.ok(token, "the exchange stored the token under jwt_token");
  assert.ok(
    addresses.some((address) => address.includes("/auth-success?code=")),
    "the page got a code",
  );
  for (const address of addresses) {
    assert.ok(!address.includes(token), `no token in ${address}`);
    assert.doesNotMatch(address, /[?&]token=/);
  }
  // The code left the address and history: going back does not show it again.
  assert.equal(new URL(page.url()).search, "");
  await context.close();
});

test("a used sign-in code says so in Russian and stores no token", async () => {
  const context = await newContext(browser.current);
  const authSuccess = await signInUpToAuthSuccess(context);
  const code = new URL(authSuccess, E2E_ORIGIN).searchParams.get("code") ?? "";
  // Someone (another tab) used it first.
  const first = await context.request.post("/api/auth/exchange", { data: { code } });
  assert.equal(first.status(), 200);

  const page = await context.newPage();
  await page.goto(authSuccess);
  await waitForHydration(page);
  assert.equal(
    (await page.getByRole("alert").last().textContent())?.trim(),
    "Ссылка входа устарела или уже использована. Войдите через Steam ещё раз.",
  );
  assert.equal(await page.evaluate(() => window.localStorage.getItem("jwt_token")), null);
  await page.getByRole("link", { name: "Войти через Steam" }).first().waitFor();
  await context.close();
});

test("without JavaScript: sign in with a typed SteamID64, reload, log out", async () => {
  const steamId = uniqueSteamId();
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await header(page).getByRole("link", { name: "Войти через Steam" }).click();

  await page.waitForURL(/\/__standins\/steam-openid\/login\?/);
  await page.getByRole("textbox", { name: "SteamID64" }).fill(steamId);
  await page.getByRole("button", { name: "Войти", exact: true }).click();

  // /auth-success says so, then moves on by itself (meta refresh inside <noscript>).
  await page.waitForURL(`${E2E_ORIGIN}/`, { timeout: 15_000 });
  // No Steam Web API key locally: the SteamID is the nickname.
  await signedInAs(page, steamId);
  assert.match((await header(page).locator(".account__balance").textContent()) ?? "", /^\s*0\s₽\s*$/);

  await page.reload();
  await signedInAs(page, steamId);

  await header(page).getByRole("button", { name: "Выйти" }).click();
  await page.waitForURL(`${E2E_ORIGIN}/`);
  await signedOut(page);
  await page.reload();
  await signedOut(page);
  await context.close();
});

test("without JavaScript /auth-success shows the spec's text and a way on", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const authSuccess = await signInUpToAuthSuccess(context);
  assert.match(authSuccess, /^\/auth-success\?code=/);

  const page = await context.newPage();
  // Hold the automatic move on (meta refresh inside <noscript>) to read the page.
  await page.route("**/auth-success?**", async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/<noscript>.*?<\/noscript>/s, "");
    await route.fulfill({ response, body });
  });
  await page.goto(authSuccess);
  assert.match((await page.locator("main").textContent()) ?? "", /Авторизация успешна\. Перенаправление\.\.\./);
  await page.getByRole("link", { name: "Продолжить" }).click();
  await page.waitForURL(`${E2E_ORIGIN}/`);
  await header(page).locator(".account__nickname").waitFor();
  await context.close();
});

test("/api/auth/steam?return_to=/terms brings the player back to /terms", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.goto("/api/auth/steam?return_to=/terms");
  const steamId = uniqueSteamId();
  await page.getByRole("textbox", { name: "SteamID64" }).fill(steamId);
  await page.getByRole("button", { name: "Войти", exact: true }).click();
  await page.waitForURL(`${E2E_ORIGIN}/terms`);
  await signedInAs(page, steamId);
  await context.close();
});

test("a cancelled sign-in comes back home with a Russian message and no session", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/api/auth/steam?return_to=/terms");
  await page.getByRole("button", { name: "Отмена" }).click();
  await page.waitForURL(/\/\?auth_error=cancelled$/);
  assert.equal((await page.locator(".auth-error").textContent())?.trim(), "Вход через Steam отменён.");
  await signedOut(page);
  await context.close();
});
