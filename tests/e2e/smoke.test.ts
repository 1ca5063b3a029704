import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, newContext } from "./browser.ts";

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

test("an unknown address answers 404 with Страница не найдена", async () => {
  const context = await newContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto("/no/such/page");
  assert.equal(response?.status(), 404);
  assert.match(await page.locator("h1").innerText(), /Страница не найдена/);
  await context.close();
});
