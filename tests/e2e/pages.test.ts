import assert from "node:assert/strict";
import { test } from "node:test";
import { browserForFile, newContext, waitForHydration } from "./browser.ts";

const browser = browserForFile();

const TERMS_SECTIONS = [
  "1. Общие положения",
  "2. Предмет соглашения",
  "3. Правила пользования: права и обязанности пользователя",
  "4. Покупка и активация",
  "5. Ограничение ответственности",
  "6. Заключительные положения",
];

for (const javaScriptEnabled of [false, true]) {
  test(`/terms shows the agreement in six sections, last updated 19 марта 2025 г. (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    const response = await page.goto("/terms");
    assert.equal(response?.status(), 200);
    if (javaScriptEnabled) await waitForHydration(page);
    assert.equal(await page.title(), "Пользовательское соглашение — Свобода");
    assert.equal(await page.locator("h1").innerText(), "Пользовательское соглашение");
    assert.deepEqual(await page.locator("main h2").allInnerTexts(), TERMS_SECTIONS);
    assert.equal(await page.getByText("Последнее обновление: 19 марта 2025 г.").count(), 1);
    assert.equal(await page.locator("time").getAttribute("datetime"), "2025-03-19");

    const text = await page.locator("main").innerText();
    assert.match(text, /не имеют денежной или иной ценности вне сервера/);
    assert.match(text, /все споры решаются через Discord-сервер проекта/);
    const discordLinks = page.locator("main").getByRole("link", { name: "Discord-сервер проекта" });
    assert.ok((await discordLinks.count()) >= 1);
    assert.equal(await discordLinks.first().getAttribute("href"), "https://discord.gg/rustfree");
    await context.close();
  });
}

test("the footer's agreement link opens /terms", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await page.locator("footer").getByRole("link", { name: "Пользовательское соглашение" }).click();
  await page.waitForURL("**/terms");
  assert.equal(await page.locator("h1").innerText(), "Пользовательское соглашение");
  // The sign-in link brings the player back to the page they were on.
  assert.equal(
    await page.getByRole("link", { name: "Войти через Steam" }).getAttribute("href"),
    "/api/auth/steam?return_to=%2Fterms",
  );
  await context.close();
});

for (const path of ["/no/such/page", "/terms/extra", "/страница?x=1"]) {
  test(`${path} answers 404 «Страница не найдена» inside the site's shell`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(path);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator("h1").innerText(), "Страница не найдена");
    assert.equal(await page.title(), "Страница не найдена — Свобода");
    assert.ok(await page.locator("header").getByRole("link", { name: "Главная" }).isVisible());
    assert.ok(await page.locator("footer").isVisible());
    await page.getByRole("link", { name: "На главную" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    assert.equal(await page.locator("h1").innerText(), "Бесплатные серверы Rust");
    await context.close();
  });
}

test("with JavaScript the 404 page hydrates and «На главную» goes home without a reload", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  const response = await page.goto("/missing-page");
  assert.equal(response?.status(), 404);
  await waitForHydration(page);
  assert.equal(await page.locator("h1").innerText(), "Страница не найдена");
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await page.getByRole("link", { name: "На главную" }).click();
  await page.locator("h1", { hasText: "Бесплатные серверы Rust" }).waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker), true);
  await context.close();
});

test("on a 390 px phone the pages fit the screen: no sideways scroll, one column of cards", async () => {
  const context = await newContext(browser.current, { mobile: true });
  const page = await context.newPage();
  for (const path of ["/", "/terms", "/nope"]) {
    await page.goto(path);
    await waitForHydration(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
  }
  await page.goto("/");
  await waitForHydration(page);
  const boxes = await page
    .locator(".server-card")
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect));
  assert.ok(boxes.length > 1);
  for (const box of boxes) {
    assert.equal(box.x, boxes[0]?.x, "all cards start at the same x: one column");
    assert.ok(box.width > 300, `a card is ${box.width}px wide`);
  }
  const shots = await page
    .locator(".gallery img")
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().width));
  for (const width of shots) assert.ok(width > 300 && width <= 390, `a screenshot is ${width}px wide`);
  // The narrowest phones still get no sideways scroll.
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of ["/", "/terms"]) {
    await page.goto(path);
    await waitForHydration(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${path} at 320 px scrolls sideways by ${overflow}px`);
  }
  // Header links stay reachable.
  assert.ok(await page.locator("header").getByRole("link", { name: "Магазин" }).isVisible());
  assert.ok(await page.locator("header").getByRole("link", { name: "Войти через Steam" }).isVisible());
  await context.close();
});

test("with JavaScript the header's links navigate inside the page, without loading a new document; without it they are ordinary links", async () => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/terms");
    if (javaScriptEnabled) await waitForHydration(page);
    // A mark on the document: it survives a client-side navigation and is gone after a page load.
    await page.evaluate(() => {
      document.documentElement.dataset.sameDocument = "yes";
    });
    const nav = page.getByRole("navigation", { name: "Основное меню" });
    await nav.getByRole("link", { name: "Магазин" }).click();
    await page.waitForURL("**/shop");
    await page.locator("h1", { hasText: "Магазин" }).waitFor();
    const mark = await page.evaluate(() => document.documentElement.dataset.sameDocument ?? null);
    assert.equal(mark, javaScriptEnabled ? "yes" : null);
    assert.equal(await nav.getByRole("link", { name: "Магазин" }).getAttribute("aria-current"), "page");
    assert.equal(await nav.getByRole("link", { name: "Главная" }).getAttribute("aria-current"), null);
    await context.close();
  }
});
