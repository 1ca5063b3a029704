import { createRequire } from "node:module";
import { after, before } from "node:test";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { uniqueSteamId } from "../support/unique.ts";
import { signedInAt } from "./signed-in.ts";
import { E2E_ORIGIN } from "./site.ts";

export { E2E_ORIGIN, uniqueSteamId };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's chromium in a sandbox without outside network: keep it from trying to reach Google. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** One browser for the test file that calls this: launched before its tests, closed after them. */
export function browserForFile(): { current: Browser } {
  const holder = {} as { current: Browser };
  before(async () => {
    holder.current = await launchBrowser();
  });
  after(async () => {
    await holder.current?.close();
  });
  return holder;
}

/** An element's text as a player reads it: whitespace runs as one space, no ends. */
export const flatText = (value: string | null): string => (value ?? "").replace(/\s+/g, " ").trim();

/** A fresh browser profile; `javaScriptEnabled: false` is how a player without JavaScript sees the site. */
export async function newContext(
  browser: Browser,
  options: {
    javaScriptEnabled?: boolean;
    mobile?: boolean;
    width?: number;
    bypassCSP?: boolean;
    timezoneId?: string;
  } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    // A player's own zone, when a test reads the site as a player far from Moscow (decision 140).
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    baseURL: E2E_ORIGIN,
    // For axe (seriousViolations): the site's CSP admits only its own scripts.
    bypassCSP: options.bypassCSP ?? false,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: "ru-RU",
    viewport: options.width
      ? { width: options.width, height: 812 }
      : options.mobile
        ? { width: 390, height: 844 }
        : { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
}

/** Waits until React has hydrated the page (root.tsx sets data-hydrated on <html>). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { timeout: 15_000 });
}

/** The Steam stand-in's SteamID field: the one selector every walk through the stand-in uses. */
export const STEAM_ID_FIELD = 'input[name="steamid"]:not([type=hidden])';

/**
 * The one browser walk through the Steam stand-in: on its page (waited for), signs in as `steamId` and
 * waits to land on `landsOn` (a path, matched with its query, or a test of the address).
 */
export async function walkStandInAs(
  page: Page,
  steamId: string,
  landsOn: string | ((url: URL) => boolean),
): Promise<void> {
  await page.waitForURL(/\/__standins\/steam-openid\/login\?/);
  await page.locator(STEAM_ID_FIELD).fill(steamId);
  await page.getByRole("button", { name: "Войти", exact: true }).click();
  await page.waitForURL(typeof landsOn === "string" ? `${E2E_ORIGIN}${landsOn}` : landsOn, { timeout: 15_000 });
}

/**
 * @deprecated The old name of `walkStandInAs` (tests/support/steam-stand-in.ts's `approveAtStandIn` is the
 * HTTP form post, a different thing): kept so tests written in other branches still run.
 */
export const approveAtStandIn = (page: Page, steamId: string, path: string): Promise<void> =>
  walkStandInAs(page, steamId, path);

/** Opens `path` signed out, signs in as `steamId` through the Steam stand-in, and lands back on it. */
export async function signInAt(page: Page, path: string, steamId: string): Promise<void> {
  await page.goto(path);
  await walkStandInAs(page, steamId, path);
}

/**
 * Signs in as `steamId` from the header's «Войти через Steam» (/api/auth/steam with the way back) and
 * lands on `returnTo`, which need not ask for a session. `atStandIn` runs on the stand-in's page first.
 */
export async function signIn(
  page: Page,
  steamId: string,
  returnTo = "/profile",
  atStandIn?: (page: Page) => Promise<void>,
): Promise<void> {
  await page.goto(`/api/auth/steam?return_to=${encodeURIComponent(returnTo)}`);
  await page.waitForURL(/\/__standins\/steam-openid\/login\?/);
  await atStandIn?.(page);
  await walkStandInAs(page, steamId, returnTo);
}

/** A new player with the seeded WELCOME100's 100 ₽ (db/seed/promos.ts), on /promocodes; signed in by `signedInAt`. */
export async function newPlayerWith100(page: Page, javaScriptEnabled: boolean): Promise<string> {
  const steamId = uniqueSteamId();
  await signedInAt(page, "/promocodes", steamId);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByPlaceholder("Введите промокод").fill("WELCOME100");
  await page.getByRole("button", { name: "Активировать" }).click();
  await page.locator("header .account__balance", { hasText: "100 ₽" }).waitFor();
  return steamId;
}

/**
 * On the console's «Новый товар» form, as an admin: adds «`name`», a one-time SOLO kit in «Наборы» for
 * 10 ₽ that gives wood, and waits for «Товар сохранён».
 */
export async function addTenRubleKit(page: Page, name: string): Promise<void> {
  const form = page.getByRole("form", { name: "Товар" });
  await form.getByLabel("Название").fill(name);
  await form.getByLabel("Цена, ₽ (за 30 дней у срочных)").fill("10");
  await form.getByLabel("Картинка (URL)").fill("/images/shop/kit-start.svg");
  await form.getByLabel("Тип сервера").selectOption("SOLO");
  await form.getByLabel("Категория").selectOption({ label: "Наборы" });
  await form.getByLabel("Разовый товар").check();
  await form
    .getByLabel("Команды выдачи: {steamid} {nickname} {days} {server}")
    .fill("inventory.giveto {steamid} wood 100");
  await form.getByRole("button", { name: "Добавить товар" }).click();
  await page.getByRole("status").filter({ hasText: "Товар сохранён" }).waitFor();
}

/**
 * Words and numbers that the browser laid out on more than one line, in the elements `selector` finds. A
 * number's digit groups and its «₽» count as one run even when an ordinary space separates them, so
 * «Дерево ×10 000» with a plain space, wrapped as «×10 / 000», is caught.
 */
export function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        // A word, with the digit groups and the «₽» an ordinary space may have split from it («10 000 ₽»).
        for (const match of text.matchAll(/[^ \t\n\r]+(?: \d{3}(?!\d))*(?: ₽)?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
          );
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

const AXE_SOURCE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is now; its context must bypass the CSP. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The site's CSP admits only its own scripts; the context bypasses it to add axe.
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run({ resultTypes: ["violations"] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => JSON.stringify(node.target))
          .join(", ")}`,
    );
}
