import assert from "node:assert/strict";
import { test } from "node:test";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { browserForFile, flatText, newContext, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// Categories in the console (decision 119), with and without JavaScript: the demo admin adds one,
// renames it, moves it up, hides it (the shop no longer lists it), finds it in the item form, and
// deletes it; the seeded catalog is as it was afterwards (only renumbered, in the same order).

const browser = browserForFile();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin adds, renames, moves, hides and deletes a category`, async () => {
    const name = `Сезонное ${javaScriptEnabled ? "1" : "2"}`;
    const renamed = `Зимнее ${javaScriptEnabled ? "1" : "2"}`;
    const context = await newContext(browser.current, { javaScriptEnabled });
    const admin = await context.newPage();
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    await admin.goto("/admin/categories");
    if (javaScriptEnabled) await waitForHydration(admin);
    await admin.getByRole("navigation", { name: "Разделы консоли" }).getByRole("link", { name: "Категории" }).waitFor();

    const form = admin.getByRole("form", { name: "Новая категория" });
    await form.getByLabel("Название").fill(name);
    await form.getByLabel("Описание (необязательно)").fill("Только этой зимой");
    await form.getByRole("button", { name: "Добавить категорию" }).click();
    await admin.getByRole("status").filter({ hasText: "Категория добавлена" }).waitFor();
    const rows = admin.getByTestId("admin-category-row");
    const count = await rows.count();
    const last = rows.nth(count - 1);
    assert.equal(await last.getByRole("textbox").first().inputValue(), name);

    await last.getByRole("textbox").first().fill(renamed);
    await last.getByRole("button", { name: "Сохранить" }).click();
    await admin.getByRole("status").filter({ hasText: "Категория сохранена" }).waitFor();

    await rows
      .nth(count - 1)
      .getByRole("button", { name: "Выше" })
      .click();
    await admin.getByRole("status").filter({ hasText: "Порядок категорий изменён" }).waitFor();
    const moved = rows.nth(count - 2);
    assert.equal(await moved.getByRole("textbox").first().inputValue(), renamed);

    const shop = await context.newPage();
    // A fresh address each time: the answer may be kept by the browser for a minute (its Cache-Control).
    const shopCategories = async () =>
      (await (await shop.goto(`/api/shop/categories?fresh=${Date.now()}`))?.text()) ?? "";
    assert.match(await shopCategories(), new RegExp(renamed));
    await moved.getByRole("button", { name: "Скрыть" }).click();
    await admin.getByRole("status").filter({ hasText: "Категория скрыта" }).waitFor();
    assert.match(flatText(await rows.nth(count - 2).textContent()), /скрыта/);
    assert.doesNotMatch(await shopCategories(), new RegExp(renamed));
    await shop.close();

    await admin.goto("/admin/items/new");
    const options = flatText(await admin.locator('select[name="categoryId"]').textContent());
    assert.match(options, new RegExp(`${renamed} \\(скрыта\\)`));

    await admin.goto("/admin/categories");
    if (javaScriptEnabled) await waitForHydration(admin);
    await rows
      .nth(count - 2)
      .getByRole("button", { name: "Удалить" })
      .click();
    await admin.getByRole("status").filter({ hasText: "Категория удалена" }).waitFor();
    assert.equal(await rows.count(), count - 1);
    assert.doesNotMatch(flatText(await admin.locator("main").textContent()), new RegExp(renamed));

    // A seeded category holds items: refused, with what to do.
    await rows.first().getByRole("button", { name: "Удалить" }).click();
    await admin
      .getByRole("alert")
      .filter({ hasText: /В категории \d+ товар/ })
      .waitFor();
    assert.equal(await rows.count(), count - 1);
    await context.close();
  });
}
