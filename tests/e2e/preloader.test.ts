import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browserForFile, newContext, waitForHydration } from "./browser.ts";

// The preloader plays on the first full load of a browser session only (issue 20, item 8; decisions
// 010 and 108); later full loads show the rendered page at once, and without JavaScript it never shows.

const browser = browserForFile();

/** Whether the overlay is displayed, read before the page's own scripts run. */
const overlayDisplay = (page: Page) =>
  page.locator(".preloader").evaluate((element) => getComputedStyle(element).display);

test("the first full load shows the preloader; later full loads of the session show the page at once", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  // Hold the page's scripts back on the first load, to look at it before it becomes interactive.
  let release: () => void = () => {};
  const scriptsMayLoad = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  await page.locator(".preloader").waitFor({ state: "visible" });
  release();
  await waitForHydration(page);
  await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });

  // Later full loads (another page, a reload), scripts held back again: the overlay is in the HTML but
  // not displayed, and the page's heading is there to read before any script of ours has run.
  let releaseAgain: () => void = () => {};
  const scriptsMayLoadAgain = new Promise<void>((resolve) => {
    releaseAgain = resolve;
  });
  await page.unroute(/\/assets\/.+\.js$/);
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await scriptsMayLoadAgain;
    await route.continue();
  });
  const shownAtOnce = async (label: string) => {
    await page.locator("h1").first().waitFor({ state: "attached" });
    assert.equal(await page.locator("html").getAttribute("data-hydrated"), null, "scripts are still held back");
    assert.equal(await overlayDisplay(page), "none", label);
    assert.equal(await page.locator("h1").first().isVisible(), true, label);
  };
  for (const path of ["/shop", "/terms"]) {
    await page.goto(path, { waitUntil: "commit" });
    await shownAtOnce(path);
  }
  await page.reload({ waitUntil: "commit" });
  await shownAtOnce("reload");
  releaseAgain();
  await waitForHydration(page);
  // Once React runs, the component drops the overlay for good.
  await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
  await context.close();
});

test("a new browser session plays it again", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.goto("/terms", { waitUntil: "commit" });
  await page.locator(".preloader").waitFor({ state: "attached" });
  assert.equal(await page.evaluate(() => sessionStorage.getItem("preloader-seen")), "1");
  assert.equal(await page.locator("html").evaluate((html) => html.classList.contains("preloader-seen")), false);
  await context.close();
});

test("without JavaScript the preloader never hides the page, first load or later", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of ["/", "/shop", "/"]) {
    await page.goto(path);
    assert.equal(await overlayDisplay(page), "none", path);
    assert.equal(await page.locator("h1").first().isVisible(), true, path);
  }
  await context.close();
});
