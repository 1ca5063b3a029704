import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { browserForFile, E2E_ORIGIN, flatText, newContext, uniqueSteamId, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// Seeded in db/seed/promos.ts: WELCOME100 (100 ₽), BONUS50 (50 ₽), STARTKIT (Набор «Старт», SOLO, forever),
// VIPWEEK (VIP, SOLO, 7 days), SUMMER2025 (expired). Each test signs in as a new player (signedInAt: a session
// written directly; sign-in itself is auth.test.ts's subject), so codes stay fresh.

const browser = browserForFile();

const main = (page: Page) => page.locator("main");
const content = async (locator: Locator) => (await locator.textContent()) ?? "";
const text = async (page: Page, selector: string) => (await content(page.locator(selector).first())).trim();
const headerBalance = (page: Page) => page.locator("header .account__balance");

async function activate(page: Page, code: string) {
  await page.getByPlaceholder("Введите промокод").fill(code);
  await page.getByRole("button", { name: "Активировать" }).click();
}

async function promoMessage(page: Page, expected: string) {
  await page.locator(".promo-form__message", { hasText: expected }).waitFor({ timeout: 15_000 });
  assert.equal(flatText(await text(page, ".promo-form__message")), expected);
}

// A signed-out visitor sent to sign-in, and a code posted without a session, are the server's answers:
// tests/profile-pages.test.ts has them. Here, what only a browser shows.

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: info panel, every tab, the Корзина filter and both history pages`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    const steamId = uniqueSteamId();
    await signedInAt(page, "/profile", steamId);
    if (javaScriptEnabled) await waitForHydration(page);

    const panel = page.locator(".profile-info");
    assert.match(await content(panel), new RegExp(`Steam ID: ${steamId}`));
    assert.match(flatText(await content(panel)), /Баланс: 0 ₽/);
    // The product spec: "discount fixed at 0%".
    assert.match(await content(panel), /Скидка: 0%/);
    assert.equal(await text(page, ".profile-info__nickname"), steamId);
    assert.match(flatText(await text(page, ".breadcrumbs")), /Главная \/ Профиль \/ Корзина/);
    assert.equal(await text(page, ".profile-empty"), "Нет предметов");

    const tabs = page.locator(".profile-tabs");
    await tabs.getByRole("link", { name: "История покупок" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/purchases`);
    await page.locator(".profile-empty", { hasText: "История покупок пуста" }).waitFor();

    await tabs.getByRole("link", { name: "Пополнения" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/deposits`);
    await page.locator(".profile-empty", { hasText: "История пополнений пуста" }).waitFor();

    await tabs.getByRole("link", { name: "Промокод" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/promocodes`);
    await page.getByRole("heading", { name: "Активация промокода" }).waitFor();

    // Two items and 100 ₽ through promo codes, then a purchase and a top-up to fill the histories.
    await activate(page, "STARTKIT");
    await promoMessage(page, "Промокод успешно активирован! Вы получили предмет: Набор «Старт»");
    await activate(page, "vipweek ");
    await promoMessage(page, "Промокод успешно активирован! Вы получили предмет: VIP");
    await activate(page, "WELCOME100");
    await promoMessage(page, "Промокод успешно активирован! На ваш баланс начислено 100 ₽");

    const buy = await page.request.post("/api/purchase/items/106", { data: { server_type: "SOLO" } });
    assert.equal(buy.status(), 201, await buy.text());
    const topUp = await page.request.post("/api/payment/create", { data: { amount: 250, email: "e2e@example.com" } });
    assert.ok(topUp.ok(), await topUp.text());

    await tabs.getByRole("link", { name: "Корзина" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/profile`);
    const entries = page.getByTestId("inventory-entry");
    await entries.first().waitFor();
    const cards = (await entries.allTextContents()).map(flatText);
    const kit = cards.find((card) => card.includes("Набор «Старт»"));
    const vip = cards.find((card) => card.startsWith("VIP"));
    assert.ok(kit && vip, cards.join(" | "));
    assert.match(kit, /SOLO · Навсегда\s*Ждёт выдачи\s*Зайдите на сервер SOLO — предмет придёт автоматически\./);
    assert.match(vip, /SOLO · 7 дней\s*Ждёт выдачи/);

    const filter = page.locator(".profile-filter");
    await filter.getByRole("link", { name: "Выданные", exact: true }).click();
    await page.waitForURL(`${E2E_ORIGIN}/profile?status=used`);
    await page.locator(".profile-empty", { hasText: "Нет предметов" }).waitFor();
    await filter.getByRole("link", { name: "Ждут выдачи", exact: true }).click();
    await page.waitForURL(`${E2E_ORIGIN}/profile?status=not_used`);
    await entries.first().waitFor();
    assert.ok((await entries.count()) >= 2);
    await filter.getByRole("link", { name: "Все", exact: true }).click();
    await page.waitForURL(`${E2E_ORIGIN}/profile`);

    await tabs.getByRole("link", { name: "История покупок" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/purchases`);
    const purchase = page.getByTestId("purchase-row").first();
    await purchase.waitFor();
    assert.match(flatText(await content(purchase)), /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/);
    assert.match(await content(purchase), /Завершено/);

    // /history is the same page.
    await page.goto("/history");
    if (javaScriptEnabled) await waitForHydration(page);
    assert.equal(await page.getByTestId("purchase-row").count(), 1);
    assert.equal(
      await content(page.locator(".profile-tabs__tab--active")),
      "История покупок",
      "the purchases tab is the current one",
    );

    await page.locator(".profile-tabs").getByRole("link", { name: "Пополнения" }).click();
    await page.waitForURL(`${E2E_ORIGIN}/deposits`);
    const deposit = page.getByTestId("deposit-row").first();
    await deposit.waitFor();
    assert.match(flatText(await content(deposit)), /250 ₽/);
    assert.match(await content(deposit), /В обработке/);
    assert.match(await content(deposit), /Ожидает оплаты/, "not completed yet");
    assert.doesNotMatch(await content(deposit), /Нет данных/);

    // Balance: 100 ₽ from the code minus the purchase, the same in the header and the panel.
    const balance = flatText(await text(page, ".profile-info__balance"));
    assert.equal(flatText(await content(headerBalance(page))), balance);
    assert.notEqual(balance, "0 ₽");
    await context.close();
  });

  test(`${mode}: the promo form's answers, and the header balance after a BALANCE code`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signedInAt(page, "/promocodes", uniqueSteamId());
    if (javaScriptEnabled) await waitForHydration(page);
    assert.equal(flatText(await content(headerBalance(page))), "0 ₽");

    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await activate(page, "   ");
    await promoMessage(page, "Введите промокод");
    if (javaScriptEnabled) assert.deepEqual(posts, [], "a blank code sends nothing");

    await activate(page, "NO-SUCH-CODE");
    await promoMessage(page, "Промокод не найден");
    await activate(page, "SUMMER2025");
    await promoMessage(page, "Срок действия промокода истёк");
    await activate(page, "a!");
    await promoMessage(page, "Некорректный формат промокода");

    await activate(page, "bonus50");
    await promoMessage(page, "Промокод успешно активирован! На ваш баланс начислено 50 ₽");
    assert.equal(await page.getByPlaceholder("Введите промокод").inputValue(), "", "the field is cleared");
    await page.locator("header .account__balance", { hasText: "50 ₽" }).waitFor({ timeout: 15_000 });
    assert.equal(flatText(await text(page, ".profile-info__balance")), "50 ₽");

    await activate(page, "BONUS50");
    await promoMessage(page, "Вы уже использовали этот промокод");
    assert.equal(flatText(await content(headerBalance(page))), "50 ₽");
    await context.close();
  });
}

test("with JavaScript: the button spins and is disabled while the code is being checked", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await signedInAt(page, "/promocodes", uniqueSteamId());
  await waitForHydration(page);

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/promocodes.data**", async (route) => {
    await held;
    await route.continue();
  });
  await activate(page, "WELCOME100");
  const button = page.getByRole("button", { name: "Активировать" });
  await page.locator(".promo-form__submit .profile-spinner").waitFor();
  assert.equal(await button.isDisabled(), true);
  assert.equal(await page.getByPlaceholder("Введите промокод").isDisabled(), true);
  release();
  await promoMessage(page, "Промокод успешно активирован! На ваш баланс начислено 100 ₽");
  assert.equal(await button.isDisabled(), false);
  await context.close();
});

async function signedInContext(javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser.current, { javaScriptEnabled });
  const page = await context.newPage();
  await signedInAt(page, "/promocodes", uniqueSteamId());
  if (javaScriptEnabled) await waitForHydration(page);
  return { context, page };
}

test("with JavaScript: a code sent after the session ended gets Необходима авторизация", async () => {
  const { context, page } = await signedInContext(true);
  await context.clearCookies();
  await activate(page, "WELCOME100");
  await promoMessage(page, "Необходима авторизация");
  await context.close();
});

test("with JavaScript: the payment result is shown, then removed from the address", async () => {
  const { context, page } = await signedInContext(true);
  await page.goto("/profile?payment=success");
  await page.getByTestId("payment-result").waitFor();
  assert.equal(await text(page, "[data-testid=payment-result]"), "Оплата успешно выполнена! Баланс пополнен.");
  await page.waitForURL(`${E2E_ORIGIN}/profile`);
  assert.equal(await text(page, "[data-testid=payment-result]"), "Оплата успешно выполнена! Баланс пополнен.");

  await page.goto("/deposits?payment=canceled");
  await page.waitForURL(`${E2E_ORIGIN}/deposits`);
  assert.equal(await text(page, "[data-testid=payment-result]"), "К сожалению, платёж не был завершён.");
  await context.close();
});

test("without JavaScript: the payment result is shown", async () => {
  const { context, page } = await signedInContext(false);
  await page.goto("/profile?payment=success");
  assert.equal(await text(page, "[data-testid=payment-result]"), "Оплата успешно выполнена! Баланс пополнен.");
  await page.goto("/deposits?payment=failed");
  assert.equal(await text(page, "[data-testid=payment-result]"), "К сожалению, платёж не был завершён.");
  assert.ok(await main(page).getByText("История пополнений пуста").isVisible());
  await context.close();
});
