import assert from "node:assert/strict";
import { test } from "node:test";
import {
  browserForFile,
  E2E_ORIGIN,
  seriousViolations,
  uniqueSteamId,
  waitForHydration,
  walkStandInAs,
} from "./browser.ts";

// axe-core (installed with lighthouse, a dev dependency) on every page a player sees, signed out and in,
// at 1280 and 375 px: no serious or critical violation (issue 20, "How it is checked").

const browser = browserForFile();

const SIGNED_OUT = ["/", "/shop?server_type=SOLO", "/shop/items/101", "/terms", "/wipes", "/balance", "/no-such-page"];
const SIGNED_IN = ["/profile", "/promocodes", "/purchases", "/deposits", "/statement", "/balance", "/shop/items/101"];

for (const width of [1280, 375]) {
  test(`${width} px: no serious or critical axe violation on any page, signed out and signed in`, async () => {
    const context = await browser.current.newContext({
      baseURL: E2E_ORIGIN,
      bypassCSP: true,
      locale: "ru-RU",
      viewport: { width, height: 800 },
    });
    const page = await context.newPage();
    const found: string[] = [];
    // The preloader plays on the session's first load only; each page waits until it is gone.
    for (const path of SIGNED_OUT) {
      await page.goto(path);
      await waitForHydration(page);
      await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
      for (const violation of await seriousViolations(page)) found.push(`${path}: ${violation}`);
    }
    await page.goto("/profile");
    await walkStandInAs(page, uniqueSteamId(), "/profile");
    // A gift in the history, its friend shown on the item page, and the buy dialog's gift link (issue 36).
    await page.goto("/promocodes");
    await waitForHydration(page);
    await page.getByPlaceholder("Введите промокод").fill("WELCOME100");
    await page.getByRole("button", { name: "Активировать" }).click();
    await page.locator("header .account__balance", { hasText: "100 ₽" }).waitFor();
    await page.goto("/shop/items/106?server_type=SOLO&gift=1");
    await waitForHydration(page);
    await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").fill(uniqueSteamId());
    await page.getByRole("button", { name: "Показать получателя" }).click();
    await page.getByTestId("gift-recipient").waitFor();
    for (const violation of await seriousViolations(page)) found.push(`gift recipient shown: ${violation}`);
    await page.getByRole("button", { name: "Подарить", exact: true }).click();
    await page.getByTestId("receipt").waitFor();
    await page.goto("/shop?server_type=SOLO");
    await waitForHydration(page);
    await page.locator("article.shop-card").filter({ hasText: "Дерево" }).getByRole("link", { name: "Купить" }).click();
    await page.locator("dialog.buy-dialog").getByRole("link", { name: "В подарок другу →" }).waitFor();
    for (const violation of await seriousViolations(page)) found.push(`buy dialog: ${violation}`);
    for (const path of SIGNED_IN) {
      await page.goto(path);
      await waitForHydration(page);
      await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
      for (const violation of await seriousViolations(page)) found.push(`${path} (signed in): ${violation}`);
    }
    assert.deepEqual(found, []);
    await context.close();
  });
}
