import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { E2E_ORIGIN } from "./site.ts";

export { E2E_ORIGIN };

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

/** A fresh browser profile; `javaScriptEnabled: false` is how a player without JavaScript sees the site. */
export async function newContext(
  browser: Browser,
  options: { javaScriptEnabled?: boolean; mobile?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: E2E_ORIGIN,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: "ru-RU",
    viewport: options.mobile ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
}

/** Waits until React has hydrated the page (root.tsx sets data-hydrated on <html>). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { timeout: 15_000 });
}

/** A random SteamID64 (Steam's 7656119… form): a new player each time the stand-in signs it in. */
export function randomSteamId(): string {
  return `7656119${String(Math.floor(Math.random() * 1e10)).padStart(10, "0")}`;
}
