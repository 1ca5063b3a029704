import assert from "node:assert/strict";
import { test } from "node:test";
import { seedItemId } from "../../db/seed/catalog.ts";
import { browserForFile, flatText, newContext, newPlayerWith100, signInAt, waitForHydration } from "./browser.ts";

// A gift to a friend (issue 24): a new player with WELCOME100's 100 ₽ gives wood (49 ₽) to the seeded
// «Игрок без денег» by his Steam address, sees him before paying, and the friend finds it in his Корзина;
// with and without JavaScript.

const WOOD = seedItemId("SOLO", 6);
const FRIEND_STEAM_ID = "76561198000000002";

const browser = browserForFile();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: a player gives a friend wood, sees who before paying, and the friend finds it`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await newPlayerWith100(page, javaScriptEnabled);

    if (javaScriptEnabled) {
      // The shop's buy dialog leads to the item page with the gift part open.
      await page.goto("/shop?server_type=SOLO");
      await waitForHydration(page);
      await page
        .locator("article.shop-card")
        .filter({ hasText: "Дерево" })
        .getByRole("link", { name: "Купить" })
        .click();
      await page.locator("dialog.buy-dialog").getByRole("link", { name: "В подарок другу →" }).click();
      await page.waitForURL((url) => url.pathname === `/shop/items/${WOOD}` && url.searchParams.get("gift") === "1");
      await waitForHydration(page);
    } else {
      await page.goto(`/shop/items/${WOOD}?server_type=SOLO`);
      await page.getByText("В подарок другу").click();
    }
    const field = page.getByLabel("SteamID64 друга или ссылка на его профиль Steam");
    await field.fill("https://steamcommunity.com/profiles/123");
    await page.getByRole("button", { name: "Показать получателя" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Укажите SteamID64 друга или ссылку на его профиль Steam" })
      .waitFor();
    await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").fill("steamcommunity.com/id/no-money");
    await page.getByRole("button", { name: "Показать получателя" }).click();
    const recipient = page.getByTestId("gift-recipient");
    await recipient.waitFor();
    assert.equal(flatText(await recipient.textContent()), "Получатель подарка: Игрок без денег");
    assert.ok(await recipient.locator("img").getAttribute("src"));
    await page.locator("header .account__balance", { hasText: "100 ₽" }).waitFor();

    await page.getByRole("button", { name: "Подарить", exact: true }).click();
    const receipt = page.getByTestId("receipt");
    await receipt.waitFor();
    const facts = flatText(await receipt.innerText());
    assert.match(facts, /Цена 49 ₽/);
    assert.match(facts, /Получатель Игрок без денег/);
    assert.match(facts, /Подарок в Корзине друга/);
    await page.locator("header .account__balance", { hasText: "51 ₽" }).waitFor();

    await page.goto("/purchases");
    assert.match(flatText(await page.locator("main").innerText()), /Дерево ×10 000 Подарок для Игрок без денег/);
    await page.goto("/statement");
    assert.match(
      flatText(await page.locator("main").innerText()),
      /Подарок «Дерево ×10 000» \(SOLO\) для Игрок без денег/,
    );
    await context.close();

    const friendContext = await newContext(browser.current, { javaScriptEnabled });
    const friend = await friendContext.newPage();
    await signInAt(friend, "/profile", FRIEND_STEAM_ID);
    const card = friend.getByTestId("inventory-entry").filter({ hasText: "Подарок от" }).first();
    assert.match(flatText(await card.innerText()), /Дерево ×10 000 Подарок от \S+.*Ждёт выдачи/);
    assert.equal(await card.getByRole("button", { name: "Вернуть" }).count(), 0);
    await friendContext.close();
  });
}
