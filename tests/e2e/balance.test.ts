// Balance top-up in the browser, through the local Steam stand-in (sign-in) and
// the local payment stand-in (checkout page with Оплатить / Отменить), with
// JavaScript on and off. Each test signs in as its own fresh SteamID, so the
// balance starts at 0 ₽ whatever other files did to the demo players.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { browserForFile, newContext, uniqueSteamId, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

const browser = browserForFile();

/** Signs in through the local Steam stand-in as a new player and lands on /balance. */
async function signInNew(page: Page, javaScript: boolean): Promise<void> {
  await signedInAt(page, "/balance", uniqueSteamId());
  if (javaScript) await waitForHydration(page);
}

async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? "").trim();
}

async function headerBalance(page: Page): Promise<string> {
  return ((await page.locator(".site-header .account__balance").textContent()) ?? "").replace(/\s/g, " ");
}

async function fillTopUp(page: Page, amount: string, email: string): Promise<void> {
  await page.getByLabel("Сумма пополнения, ₽").fill(amount);
  await page.getByLabel("E-mail для чека").fill(email);
}

async function closeContext(context: BrowserContext) {
  await context.close();
}

test("a signed-out visitor sees /balance with the form disabled and a sign-in link back to /balance", async () => {
  for (const javaScriptEnabled of [false, true]) {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    const response = await page.goto("/balance");
    assert.equal(response?.status(), 200);
    if (javaScriptEnabled) await waitForHydration(page);
    assert.equal(await text(page.locator("h1")), "Пополнение баланса");
    assert.match(await text(page.locator("main")), /Для пополнения баланса необходимо авторизоваться/);
    assert.equal(await page.getByLabel("Сумма пополнения, ₽").isDisabled(), true);
    assert.equal(await page.getByLabel("E-mail для чека").isDisabled(), true);
    assert.equal(await page.getByRole("button", { name: "Пополнить" }).isDisabled(), true);
    assert.equal(
      await page.locator("main").getByRole("link", { name: "Войти через Steam" }).getAttribute("href"),
      "/api/auth/steam?return_to=%2Fbalance",
    );
    assert.equal(await page.getByRole("radio", { name: "Банковская карта" }).isChecked(), true);
    await closeContext(context);
  }
});

test("without JavaScript: validation texts, then a top-up through the stand-in ends with the new balance in the header", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await signInNew(page, false);
  assert.equal(await headerBalance(page), "0 ₽");

  await fillTopUp(page, "5", "без-собаки");
  await page.getByRole("button", { name: "Пополнить" }).click();
  await page.waitForLoadState();
  assert.equal(await page.getByText("Минимальная сумма пополнения - 10 ₽").count(), 1);
  assert.equal(await page.getByText("Пожалуйста, введите корректный e-mail").count(), 1);

  await fillTopUp(page, "150", "nojs@example.com");
  await page.getByRole("button", { name: "Пополнить" }).click();
  await page.waitForURL(/\/__standins\/payments\/checkout\//);
  assert.match(await text(page.locator("body")), /150,00\s₽/);

  await page.getByRole("button", { name: "Оплатить" }).click();
  await page.waitForURL((url) => url.pathname === "/profile" && url.searchParams.get("payment") === "success");
  await page.getByText("Оплата успешно выполнена! Баланс пополнен.").waitFor();
  assert.equal(await headerBalance(page), "150 ₽");

  await page.goto("/balance");
  assert.equal(await headerBalance(page), "150 ₽");
  assert.match(await text(page.locator(".balance-page__current")), /Ваш баланс:\s150\s₽/);
  await closeContext(context);
});

test("without JavaScript: Отменить returns with payment=failed and the balance unchanged", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await signInNew(page, false);

  await fillTopUp(page, "40", "cancel@example.com");
  await page.getByRole("button", { name: "Пополнить" }).click();
  await page.waitForURL(/\/__standins\/payments\/checkout\//);
  await page.getByRole("button", { name: "Отменить" }).click();
  await page.waitForURL((url) => url.pathname === "/profile" && url.searchParams.get("payment") === "failed");
  await page.getByText("К сожалению, платёж не был завершён.").waitFor();
  assert.equal(await headerBalance(page), "0 ₽");
  await closeContext(context);
});

test("with JavaScript: the payment page opens in a new tab, and paying there shows the new balance in the header", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: true });
  const page = await context.newPage();
  await signInNew(page, true);
  assert.equal(await headerBalance(page), "0 ₽");

  // Checked in the browser: no request, no tab.
  await fillTopUp(page, "9", "js@example.com");
  await page.getByRole("button", { name: "Пополнить" }).click();
  await page.getByText("Минимальная сумма пополнения - 10 ₽").waitFor();
  assert.equal(context.pages().length, 1);

  await fillTopUp(page, "75", "js@example.com");
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("button", { name: "Пополнить" }).click(),
  ]);
  await checkout.waitForURL(/\/__standins\/payments\/checkout\//);
  await page.getByText("Платёж создан. Страница оплаты открыта в новой вкладке.").waitFor();
  assert.equal(await page.getByRole("link", { name: "Перейти к оплате" }).getAttribute("href"), checkout.url());
  assert.equal(new URL(page.url()).pathname, "/balance");

  assert.match(await text(checkout.locator("body")), /75,00\s₽/);
  await checkout.getByRole("button", { name: "Оплатить" }).click();
  await checkout.waitForURL((url) => url.pathname === "/profile" && url.searchParams.get("payment") === "success");
  await checkout.getByText("Оплата успешно выполнена! Баланс пополнен.").waitFor();
  assert.equal(await headerBalance(checkout), "75 ₽");

  await page.reload();
  await waitForHydration(page);
  assert.equal(await headerBalance(page), "75 ₽");
  await closeContext(context);
});
