// The player's journey, second pass (issue 36), at 375 px with and without JavaScript: a gift stays a
// gift through a top-up, sign-in from the shop comes back to the item, and each page says who paid,
// who gets it, where it is and what happens next.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { seedItemId } from "../../db/seed/catalog.ts";
import {
  browserForFile,
  E2E_ORIGIN,
  flatText,
  newPlayerWith100,
  signInAt,
  uniqueSteamId,
  waitForHydration,
  walkStandInAs,
} from "./browser.ts";

const browser = browserForFile();

const VIP_MAX2 = seedItemId("MAX2", 1);

/** A phone-sized browser profile, with or without JavaScript. */
function phone(current: Browser, javaScriptEnabled: boolean): Promise<BrowserContext> {
  return current.newContext({
    baseURL: E2E_ORIGIN,
    javaScriptEnabled,
    locale: "ru-RU",
    viewport: { width: 375, height: 812 },
  });
}

async function ready(page: Page, javaScript: boolean) {
  await page.waitForLoadState("load");
  if (javaScript) await waitForHydration(page);
}

/** Opens `path` signed out, follows the item page's «Войти через Steam, чтобы купить» and signs in as `steamId`. */
async function signInFromItem(page: Page, path: string, steamId: string, javaScript: boolean) {
  await page.goto(path);
  await ready(page, javaScript);
  await page.getByRole("link", { name: "Войти через Steam, чтобы купить" }).click();
  await walkStandInAs(page, steamId, path);
  await ready(page, javaScript);
}

const text = async (page: Page, selector: string) => flatText(await page.locator(selector).first().innerText());

/** Pays `rubles` through the payment stand-in from /balance (a new tab with JavaScript); the page it returns to. */
async function topUp(page: Page, javaScript: boolean, rubles: number): Promise<Page> {
  await page.waitForURL((url) => url.pathname === "/balance");
  await ready(page, javaScript);
  assert.equal(await page.getByLabel("Сумма пополнения, ₽").inputValue(), String(rubles));
  await page.getByLabel("E-mail для чека").fill("gift@example.com");
  const pay = page.locator("main").getByRole("button", { name: "Пополнить" });
  let checkout = page;
  if (javaScript) {
    [checkout] = await Promise.all([page.context().waitForEvent("page"), pay.click()]);
  } else {
    await pay.click();
  }
  await checkout.waitForURL(/\/__standins\/payments\/checkout\//);
  await checkout.getByRole("button", { name: "Оплатить" }).click();
  return checkout;
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}, 375 px: a gift short of money stays the gift through the top-up and reaches the friend (item 1)`, async () => {
    const context = await phone(browser.current, javaScriptEnabled);
    const page = await context.newPage();
    const friendSteamId = uniqueSteamId();
    const friendName = `Игрок ${friendSteamId.slice(-4)}`;
    await signInFromItem(page, `/shop/items/${VIP_MAX2}?gift=1`, uniqueSteamId(), javaScriptEnabled);

    await page.getByLabel("7 дней").check();
    await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").fill(friendSteamId);
    await page.getByRole("button", { name: "Показать получателя" }).click();
    await page.getByTestId("gift-recipient").waitFor();
    await page.getByRole("button", { name: "Подарить", exact: true }).click();

    // Short: the friend stays, the button stays «Подарить», and the top-up comes back to both.
    const short = page.getByRole("alert").filter({ hasText: "не хватает 46 ₽" });
    await short.waitFor();
    assert.equal(flatText(await page.getByTestId("gift-recipient").innerText()), `Получатель подарка: ${friendName}`);
    assert.equal(await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").inputValue(), friendSteamId);
    assert.equal(await page.getByRole("button", { name: "Купить", exact: true }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Подарить", exact: true }).count(), 1);
    const link = short.getByRole("link", { name: "Пополнить на 46 ₽" });
    assert.equal(
      await link.getAttribute("href"),
      `/balance?amount=46&return_to=${encodeURIComponent(`/shop/items/${VIP_MAX2}?duration=7&gift_to=${friendSteamId}`)}`,
    );
    await link.click();

    const back = await topUp(page, javaScriptEnabled, 46);
    await back.waitForURL(
      (url) =>
        url.pathname === `/shop/items/${VIP_MAX2}` &&
        url.searchParams.get("gift_to") === friendSteamId &&
        url.searchParams.get("payment") === "success",
    );
    await ready(back, javaScriptEnabled);
    if (javaScriptEnabled) {
      // The tab left behind on /balance sees the payment come in, and leads back to the item (item 12).
      const paid = page.getByTestId("top-up-paid");
      await paid.waitFor({ timeout: 15_000 });
      assert.equal(flatText(await paid.innerText()), "Оплата прошла: баланс пополнен. Вернуться к товару");
      assert.equal(await text(page, "header .account__balance"), "46 ₽");
      assert.equal(
        await paid.getByRole("link", { name: "Вернуться к товару" }).getAttribute("href"),
        `/shop/items/${VIP_MAX2}?duration=7&gift_to=${friendSteamId}`,
      );
    }
    assert.equal(await back.getByLabel("7 дней").isChecked(), true);
    assert.equal(flatText(await back.getByTestId("gift-recipient").innerText()), `Получатель подарка: ${friendName}`);
    await back.getByRole("button", { name: "Подарить", exact: true }).click();
    const receipt = back.getByTestId("receipt");
    await receipt.waitFor();
    const facts = flatText(await receipt.innerText());
    assert.match(facts, new RegExp(`Получатель ${friendName}`));
    assert.match(facts, /Цена 46 ₽/);
    assert.equal(await text(back, ".account__balance"), "0 ₽");
    // «0 ₽» with a no-break space: a price never wraps before its sign at 375 px (issue 36, item 12).
    assert.equal(await back.locator("header .account__balance").innerText(), "0\u00a0₽");
    await context.close();
  });
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}, 375 px: a guest opens an item from the shop, signs in and is back on the item (item 2)`, async () => {
    const context = await phone(browser.current, javaScriptEnabled);
    const page = await context.newPage();
    await page.goto("/shop?server_type=MAX2");
    await ready(page, javaScriptEnabled);
    await page.locator(".shop-card__title").getByRole("link", { name: "VIP", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/shop/items/${VIP_MAX2}`);
    await ready(page, javaScriptEnabled);
    const signIn = page.getByRole("link", { name: "Войти через Steam, чтобы купить" });
    const returnTo = new URL((await signIn.getAttribute("href")) ?? "", E2E_ORIGIN).searchParams.get("return_to");
    assert.equal(returnTo, `/shop/items/${VIP_MAX2}?server_type=MAX2`);
    await signIn.click();
    await walkStandInAs(page, uniqueSteamId(), (url) => url.pathname === `/shop/items/${VIP_MAX2}`);
    await ready(page, javaScriptEnabled);
    assert.equal(await text(page, "h1"), "VIP");
    assert.equal(await page.getByText("Не удалось получить информацию о товаре").count(), 0);
    await page.getByRole("button", { name: "Купить", exact: true }).waitFor();
    await context.close();
  });
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}, 375 px: Enter on a duration buys, Enter in the friend's field shows the friend (item 6)`, async () => {
    const context = await phone(browser.current, javaScriptEnabled);
    const page = await context.newPage();
    await signInFromItem(page, `/shop/items/${VIP_MAX2}`, uniqueSteamId(), javaScriptEnabled);

    // Enter on a radio presses «Купить» (0 ₽: not enough), never the closed gift part's «Показать получателя».
    await page.getByLabel("7 дней").check();
    await page.getByLabel("7 дней").press("Enter");
    await page.getByRole("alert").filter({ hasText: "не хватает 46 ₽" }).waitFor();
    assert.equal(await page.getByText("Укажите SteamID64 друга").count(), 0);
    assert.equal(
      await page.locator("details.gift-fields").evaluate((details) => (details as HTMLDetailsElement).open),
      false,
    );

    // Enter in the friend's field shows who it is; nothing is bought.
    const friendSteamId = uniqueSteamId();
    await page.locator("details.gift-fields summary").click();
    const field = page.getByLabel("SteamID64 друга или ссылка на его профиль Steam");
    await field.fill(friendSteamId);
    await field.press("Enter");
    const recipient = page.getByTestId("gift-recipient");
    await recipient.waitFor();
    assert.equal(flatText(await recipient.innerText()), `Получатель подарка: Игрок ${friendSteamId.slice(-4)}`);
    assert.equal(await page.getByLabel("7 дней").isChecked(), true);
    assert.equal(await page.getByRole("alert").count(), 0);
    await page.getByRole("button", { name: "Подарить", exact: true }).waitFor();
    await context.close();
  });
}

const WOOD = seedItemId("SOLO", 6);

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}, 375 px: the buyer follows a gift and takes it back; the friend sees each step (items 3, 5, 7)`, async () => {
    const context = await phone(browser.current, javaScriptEnabled);
    const page = await context.newPage();
    await newPlayerWith100(page, javaScriptEnabled);
    const buyerName = await text(page, "header .account__nickname");
    const friendSteamId = uniqueSteamId();
    const friendName = `Игрок ${friendSteamId.slice(-4)}`;

    if (javaScriptEnabled) {
      // The buy dialog's «В подарок другу →» keeps the duration chosen in it.
      await page.goto("/shop?server_type=MAX2");
      await waitForHydration(page);
      const card = page.locator(".shop-card", { has: page.locator(".shop-card__title", { hasText: /^VIP$/ }) });
      await card.getByRole("link", { name: "Купить" }).click();
      const dialog = page.locator("dialog.buy-dialog");
      await dialog.getByText("14 дней").click();
      const href = await dialog.getByRole("link", { name: "В подарок другу →" }).getAttribute("href");
      assert.equal(href, `/shop/items/${VIP_MAX2}?server_type=MAX2&duration=14&gift=1`);
    }

    await page.goto(`/shop/items/${WOOD}?server_type=SOLO&gift=1`);
    await ready(page, javaScriptEnabled);
    await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").fill(friendSteamId);
    await page.getByRole("button", { name: "Показать получателя" }).click();
    await page.getByTestId("gift-recipient").waitFor();
    await page.getByRole("button", { name: "Подарить", exact: true }).click();
    const receipt = page.getByTestId("receipt");
    await receipt.waitFor();
    await ready(page, javaScriptEnabled);
    const facts = flatText(await receipt.innerText());
    assert.match(facts, new RegExp(`Получатель ${friendName}`));
    assert.match(facts, /Подарок в Корзине друга: он придёт, когда друг зайдёт на сервер SOLO\./);
    assert.equal(await receipt.getByRole("link", { name: "Открыть Корзину" }).count(), 0);
    await receipt.getByRole("link", { name: "Следить в истории покупок" }).click();

    // The history: who gets it, where it is, and «Вернуть» while it waits.
    await page.waitForURL((url) => url.pathname === "/purchases");
    await ready(page, javaScriptEnabled);
    const row = page.getByTestId("purchase-row").filter({ hasText: "Дерево" });
    assert.match(
      flatText(await row.innerText()),
      new RegExp(`Подарок для ${friendName} Ждёт в Корзине друга: придёт, когда друг зайдёт на сервер SOLO\\.`),
    );

    // The friend: a gift from the buyer, waiting.
    const friendContext = await phone(browser.current, javaScriptEnabled);
    const friend = await friendContext.newPage();
    await signInAt(friend, "/profile", friendSteamId);
    const card = friend.getByTestId("inventory-entry").filter({ hasText: "Дерево" });
    assert.match(flatText(await card.innerText()), new RegExp(`Подарок от ${buyerName} .*Ждёт выдачи`));
    assert.equal(await card.getByRole("button", { name: "Вернуть" }).count(), 0);

    // The buyer takes it back from the history: asked first either way.
    if (javaScriptEnabled) {
      page.once("dialog", async (dialog) => {
        assert.equal(
          flatText(dialog.message()),
          `Отменить подарок «Дерево ×10 000» для ${friendName}? Друг его не получит, 49 ₽ вернутся на ваш баланс.`,
        );
        await dialog.accept();
      });
      await row.getByRole("button", { name: "Вернуть" }).click();
    } else {
      await row.getByRole("button", { name: "Вернуть" }).click();
      await page
        .getByRole("alert")
        .filter({
          hasText: `Отменить подарок «Дерево ×10 000» для ${friendName}? Друг его не получит, 49 ₽ вернутся на ваш баланс.`,
        })
        .waitFor();
      await page.getByRole("button", { name: "Да, вернуть" }).click();
    }
    await page
      .getByRole("status")
      .filter({ hasText: `Подарок «Дерево ×10 000» для ${friendName} отменён: 49 ₽ на балансе.` })
      .waitFor();
    await page.locator("header .account__balance", { hasText: "100 ₽" }).waitFor();
    const returned = page.getByTestId("purchase-row").filter({ hasText: "Дерево" });
    assert.match(
      flatText(await returned.innerText()),
      /Вы отменили подарок до выдачи: деньги вернулись на ваш баланс\./,
    );
    assert.equal(await returned.getByRole("button", { name: "Вернуть" }).count(), 0);

    // The friend: cancelled by the giver, the money the giver's.
    await friend.reload();
    const cancelled = flatText(await friend.getByTestId("inventory-entry").filter({ hasText: "Дерево" }).innerText());
    assert.match(cancelled, /Подарок отменён/);
    assert.match(cancelled, /Даритель отменил подарок до выдачи\. Деньги вернулись на баланс дарителя\./);
    assert.doesNotMatch(cancelled, /Возвращён вами|Вы вернули/);
    assert.equal(await text(friend, "header .account__balance"), "0 ₽");
    await friendContext.close();
    await context.close();
  });
}
