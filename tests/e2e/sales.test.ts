import assert from "node:assert/strict";
import { test } from "node:test";
import { seedItemId } from "../../db/seed/catalog.ts";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { browserForFile, flatText, newContext, newPlayerWith100, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// Sales (decision 113): the demo admin puts SOLO «Ресурсы» on sale, a new player sees the struck price
// and buys wood at the sale price, and once the admin ends the sale the price is whole again; with and
// without JavaScript. The test ends its sale, so the browser tests after it see the seeded prices.

const WOOD = seedItemId("SOLO", 6);
const HOUR = 60 * 60 * 1000;
const msk = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 16);
/** «2026-11-26T15:40» (the form's Moscow time) as players read it: «26.11.2026, 15:40». */
const shown = (local: string) =>
  `${local.slice(8, 10)}.${local.slice(5, 7)}.${local.slice(0, 4)}, ${local.slice(11, 16)}`;

const browser = browserForFile();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin's sale shows on the card and the item page, and the purchase charges it`, async () => {
    const title = `Выходные ресурсов ${javaScriptEnabled ? "1" : "2"}`;
    const adminContext = await newContext(browser.current, { javaScriptEnabled });
    const admin = await adminContext.newPage();
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    await admin.goto("/admin/sales");
    if (javaScriptEnabled) await waitForHydration(admin);
    const form = admin.getByRole("form", { name: "Новая распродажа" });
    await form.getByLabel("Название").fill(title);
    await form.getByLabel("Скидка, %").fill("20");
    await form.getByLabel("Начало (МСК)").fill(msk(Date.now() - HOUR));
    const ends = msk(Date.now() + HOUR);
    const endsText = `Скидка до ${shown(ends)} (МСК)`;
    await form.getByLabel("Окончание (МСК)").fill(ends);
    await form.getByLabel("Ресурсы").check();
    await form.getByLabel("SOLO").check();
    await form.getByRole("button", { name: "Создать распродажу" }).click();
    await admin.getByRole("status").filter({ hasText: "Распродажа создана" }).waitFor();
    const row = admin.getByTestId("sales").getByRole("row").filter({ hasText: title });
    assert.match(flatText(await row.textContent()), /−20%.*Ресурсы; SOLO.*Идёт/);

    const playerContext = await newContext(browser.current, { javaScriptEnabled, width: 375 });
    const page = await playerContext.newPage();
    await newPlayerWith100(page, javaScriptEnabled);

    await page.goto("/shop?server_type=SOLO");
    const card = page.locator("article.shop-card").filter({ hasText: "Дерево" });
    assert.match(flatText(await card.locator(".sale-sticker").textContent()), new RegExp(`^−20% ${title}$`));
    assert.equal(flatText(await card.locator(".price__now").textContent()), "39 ₽");
    assert.equal(flatText(await card.locator(".price__old").textContent()), "49 ₽");
    // When the sale price ends (issue 36): on the card, in the buy dialog and on the item page.
    assert.equal(flatText(await card.getByTestId("sale-ends").textContent()), endsText);
    if (javaScriptEnabled) {
      await waitForHydration(page);
      await card.getByRole("link", { name: "Купить" }).click();
      const dialog = page.locator("dialog.buy-dialog");
      assert.equal(flatText(await dialog.getByTestId("sale-ends").textContent()), endsText);
      await dialog.getByRole("button", { name: "Отмена" }).click();
    }

    await page.goto(`/shop/items/${WOOD}?server_type=SOLO`);
    if (javaScriptEnabled) await waitForHydration(page);
    assert.match(flatText(await page.locator(".shop-item__media .sale-sticker").textContent()), /^−20%/);
    assert.equal(flatText(await page.locator(".shop-item__info").getByTestId("sale-ends").textContent()), endsText);
    await page.getByRole("button", { name: "Купить" }).click();
    const receipt = page.getByTestId("receipt");
    await receipt.waitFor();
    assert.match(flatText(await receipt.innerText()), /Цена 39 ₽/);
    await page.locator("header .account__balance", { hasText: "61 ₽" }).waitFor();

    // The admin ends it early; the price is whole again.
    await admin.reload();
    if (javaScriptEnabled) await waitForHydration(admin);
    await admin
      .getByTestId("sales")
      .getByRole("row")
      .filter({ hasText: title })
      .getByRole("button", { name: "Завершить" })
      .click();
    await admin.getByRole("status").filter({ hasText: "Распродажа завершена" }).waitFor();
    assert.match(
      flatText(await admin.getByTestId("sales").getByRole("row").filter({ hasText: title }).textContent()),
      /Завершена досрочно/,
    );
    await page.goto(`/shop/items/${WOOD}?server_type=SOLO`);
    assert.equal(await page.locator(".sale-sticker").count(), 0);
    assert.equal(flatText(await page.locator(".price__now").first().textContent()), "49 ₽");
    await playerContext.close();
    await adminContext.close();
  });
}
