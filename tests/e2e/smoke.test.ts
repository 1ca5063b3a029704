import assert from "node:assert/strict";
import { test } from "node:test";
import { browserForFile, newContext } from "./browser.ts";

const browser = browserForFile();

test("an unknown address answers 404 with Страница не найдена", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto("/no/such/page");
  assert.equal(response?.status(), 404);
  assert.match(await page.locator("h1").innerText(), /Страница не найдена/);
  await context.close();
});
