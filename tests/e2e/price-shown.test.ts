// Price as shown (decision 112), in a real browser with JavaScript on and off: the price changes
// while the player looks at it; «Купить» answers «Цена изменилась: теперь 15 ₽» and charges nothing,
// the dialog / item page shows the new price, and the next click buys at it.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { addTenRubleKit, browserForFile, flatText, newContext, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// The seed makes the demo player an admin with money on the balance.

const browser = browserForFile();

async function balance(page: Page): Promise<string> {
  await page.goto("/profile");
  return flatText(await page.getByTestId("profile-balance").textContent());
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: a price changed after the page is refused with the new price, and the next click buys at it`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const admin = await context.newPage();
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    const name = `Цена ${javaScriptEnabled ? "JS" : "HTML"} ${Date.now().toString(36)}`;

    // An item at 10 ₽.
    await admin.goto("/admin/items/new");
    if (javaScriptEnabled) await waitForHydration(admin);
    await addTenRubleKit(admin, name);
    const itemUrl = admin.url().replace(/\?.*$/, "");
    const before = await balance(admin);

    // The player sees 10 ₽: in the shop's dialog, or on the item page.
    const player = await context.newPage();
    const dialog = player.locator("dialog.buy-dialog");
    if (javaScriptEnabled) {
      await player.goto("/shop?server_type=SOLO");
      await waitForHydration(player);
      const card = player.locator(".shop-card").filter({ has: player.locator(".shop-card__title", { hasText: name }) });
      await card.getByRole("link", { name: "Купить" }).click();
      await dialog.getByRole("button", { name: "Купить за 10 ₽" }).waitFor();
    } else {
      await player.goto(itemUrl.replace("/admin/items/", "/shop/items/"));
      assert.equal(flatText(await player.locator(".shop-item__price").textContent()), "10 ₽");
    }

    // Meanwhile the price becomes 15 ₽.
    await admin.goto(itemUrl);
    if (javaScriptEnabled) await waitForHydration(admin);
    await admin.getByRole("form", { name: "Товар" }).getByLabel("Цена, ₽ (за 30 дней у срочных)").fill("15");
    await admin.getByRole("button", { name: "Сохранить" }).click();
    await admin.getByRole("status").filter({ hasText: "Товар сохранён" }).waitFor();

    // «Купить» at 10 ₽: refused, the new price shown, nothing charged.
    if (javaScriptEnabled) {
      await dialog.getByRole("button", { name: "Купить за 10 ₽" }).click();
      await dialog.locator(".form-error").filter({ hasText: "Цена изменилась: теперь 15 ₽" }).waitFor();
      assert.match(flatText(await dialog.textContent()), /Купить «.+» за 15 ₽\?/);
    } else {
      await player.getByRole("button", { name: "Купить" }).click();
      await player.waitForLoadState("load");
      assert.equal(flatText(await player.locator(".form-error").textContent()), "Цена изменилась: теперь 15 ₽");
      assert.equal(flatText(await player.locator(".shop-item__price").textContent()), "15 ₽");
    }
    assert.equal(await balance(admin), before);

    // The second click buys at 15 ₽.
    if (javaScriptEnabled) {
      await dialog.getByRole("button", { name: "Купить за 15 ₽" }).click();
      await dialog.getByTestId("receipt").filter({ hasText: "Покупка совершена" }).waitFor();
    } else {
      await player.getByRole("button", { name: "Купить" }).click();
      await player.getByTestId("receipt").filter({ hasText: "Покупка совершена" }).waitFor();
    }
    // Bought once, and 15 ₽ left the balance.
    await admin.goto("/profile");
    const entries = admin.getByTestId("inventory-entry").filter({ hasText: name });
    await entries.first().waitFor();
    assert.equal(await entries.count(), 1);
    const toNumber = (text: string) => Number(text.replace(/[^\d,]/g, "").replace(",", "."));
    assert.equal(toNumber(await balance(admin)), toNumber(before) - 15);
    await context.close();
  });
}
