import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import {
  addTenRubleKit,
  browserForFile,
  E2E_ORIGIN,
  flatText,
  newContext,
  uniqueSteamId,
  waitForHydration,
} from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// The seed makes the demo player (76561198000000001) an admin. Item 106 is «Дерево ×10 000»,
// a one-time SOLO item for 49 ₽.

const browser = browserForFile();

test("the console is the ordinary 404 for a visitor and for a player without a role, never cached", async () => {
  const anonymous = await fetch(`${E2E_ORIGIN}/admin/players`);
  assert.equal(anonymous.status, 404);
  assert.equal(anonymous.headers.get("cache-control"), "private, no-store");
  assert.match(await anonymous.text(), /Страница не найдена/);

  const context = await newContext(browser.current);
  const page = await context.newPage();
  await signedInAt(page, "/profile", uniqueSteamId());
  const response = await page.goto("/admin");
  assert.equal(response?.status(), 404);
  assert.equal(response?.headers()["cache-control"], "private, no-store");
  await page.getByRole("heading", { name: "Страница не найдена" }).waitFor();
  await context.close();
});

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin credits a player, the player buys, the admin refunds; the player sees «Возвращено» and the money back`, async () => {
    const adminContext = await newContext(browser.current, { javaScriptEnabled });
    const playerContext = await newContext(browser.current, { javaScriptEnabled });
    const admin = await adminContext.newPage();
    const player = await playerContext.newPage();
    const steamId = uniqueSteamId();
    await signedInAt(player, "/profile", steamId);
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);

    // Find the player and credit 100 ₽ with a reason.
    await admin.goto("/admin");
    if (javaScriptEnabled) await waitForHydration(admin);
    await admin.getByRole("heading", { name: "Сводка" }).waitFor();
    assert.equal(await admin.getByTestId("daily-chart").count(), 1);
    // The console's sections mark the one shown, also after a client-side navigation.
    const currentSection = () =>
      admin.getByRole("navigation", { name: "Разделы консоли" }).locator('[aria-current="page"]').allTextContents();
    assert.deepEqual(await currentSection(), ["Сводка"]);
    await admin.getByRole("link", { name: "Игроки" }).click();
    await admin.getByRole("searchbox").fill(steamId);
    await admin.getByRole("button", { name: "Найти" }).click();
    await admin.getByRole("link", { name: steamId }).click();
    await admin.waitForURL(`${E2E_ORIGIN}/admin/players/${steamId}`);
    await admin.locator('.admin-nav [aria-current="page"]').filter({ hasText: "Игроки" }).waitFor();
    assert.deepEqual(await currentSection(), ["Игроки"]);
    const adjust = admin.getByRole("form", { name: "Корректировка баланса" });
    await adjust.getByLabel("Сумма, ₽ (минус — списать)").fill("100");
    await adjust.getByLabel("Причина").fill("Компенсация за вайп");
    await adjust.getByRole("button", { name: "Изменить баланс" }).click();
    await admin.getByRole("status").filter({ hasText: "Баланс изменён" }).waitFor();
    await admin.getByTestId("admin-balance").filter({ hasText: "100" }).waitFor();

    // The player buys «Дерево ×10 000» for 49 ₽.
    const bought = await player.request.post("/api/purchase/items/106", { data: { server_type: "SOLO" } });
    assert.equal(bought.status(), 201, await bought.text());

    // The admin refunds it from the player's page.
    await admin.goto(`/admin/players/${steamId}`);
    const row = admin.getByTestId("admin-purchase-row").filter({ hasText: "Дерево ×10 000" });
    await row.getByLabel("Причина возврата").fill("Купил по ошибке");
    await row.getByRole("button", { name: "Возврат" }).click();
    await admin.getByRole("status").filter({ hasText: "Покупка возвращена: деньги на балансе игрока" }).waitFor();
    // The refund form is gone from the row: the purchase is refunded.
    assert.equal(await row.getByRole("button", { name: "Возврат" }).count(), 0);
    assert.match(flatText(await admin.getByTestId("admin-balance").textContent()), /^100 ₽$/);

    // The player's Корзина says «Возвращён» and the header shows the balance back at 100 ₽.
    await player.goto("/profile");
    const entry = player.getByTestId("inventory-entry").filter({ hasText: "Дерево ×10 000" });
    assert.match(flatText(await entry.textContent()), /Возвращён/);
    assert.match(flatText(await player.locator("header .account__balance").textContent()), /^100 ₽$/);

    // The journal has both actions with their reasons.
    await admin.goto("/admin/audit");
    const journal = flatText(await admin.locator("main").textContent());
    assert.match(journal, /Возврат покупки/);
    assert.match(journal, /Купил по ошибке/);
    assert.match(journal, /Корректировка баланса/);
    await adminContext.close();
    await playerContext.close();
  });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin adds an item in the catalog and buys it on /shop`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signedInAt(page, "/profile", ADMIN_STEAM_ID);
    const name = `Кит ${javaScriptEnabled ? "JS" : "HTML"} ${Date.now().toString(36)}`;

    await page.goto("/admin/items");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByRole("link", { name: "Добавить товар" }).click();
    await page.getByRole("heading", { name: "Новый товар" }).waitFor();
    await addTenRubleKit(page, name);

    await page.goto("/shop?server_type=SOLO");
    if (javaScriptEnabled) await waitForHydration(page);
    const card = page.locator(".shop-card").filter({ has: page.locator(".shop-card__title", { hasText: name }) });
    await card.getByRole("link", { name: "Купить" }).click();
    if (javaScriptEnabled) {
      const dialog = page.locator("dialog.buy-dialog");
      await dialog.getByRole("button", { name: "Купить за 10 ₽" }).click();
      // The receipt stays in the dialog until the player moves on.
      assert.match(await dialog.getByTestId("receipt").innerText(), /Покупка совершена/);
    } else {
      await page.getByRole("button", { name: "Купить" }).click();
      assert.match(await page.getByTestId("receipt").innerText(), /Покупка совершена/);
    }
    await page.goto("/profile");
    await page.getByTestId("inventory-entry").filter({ hasText: name }).waitFor();
    await context.close();
  });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin creates a promo code, a player redeems it, the console shows who`, async () => {
    const adminContext = await newContext(browser.current, { javaScriptEnabled });
    const playerContext = await newContext(browser.current, { javaScriptEnabled });
    const admin = await adminContext.newPage();
    const player = await playerContext.newPage();
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    const steamId = uniqueSteamId();
    await signedInAt(player, "/profile", steamId);
    const code = `E2E${javaScriptEnabled ? "JS" : "HTML"}${Date.now().toString(36).toUpperCase()}`;

    await admin.goto("/admin/promos");
    if (javaScriptEnabled) await waitForHydration(admin);
    const form = admin.getByRole("form", { name: "Новый промокод" });
    await form.getByLabel("Код").fill(code);
    await form.getByLabel("Вид").selectOption("BALANCE");
    await form.getByLabel("Сумма, ₽ (для денег)").fill("30");
    await form.getByLabel("Лимит использований").fill("3");
    await form.getByRole("button", { name: "Создать промокод" }).click();
    await admin.getByRole("status").filter({ hasText: "Промокод создан" }).waitFor();

    await player.goto("/promocodes");
    if (javaScriptEnabled) await waitForHydration(player);
    await player.getByPlaceholder("Введите промокод").fill(code.toLowerCase());
    await player.getByRole("button", { name: "Активировать" }).click();
    await player.locator(".promo-form__message", { hasText: "На ваш баланс начислено 30 ₽" }).waitFor();

    await admin.goto("/admin/promos");
    const row = admin.getByTestId("admin-promo-row").filter({ hasText: code });
    assert.match(flatText(await row.textContent()), /1 \/ 3/);
    await row.getByRole("link", { name: "Показать" }).click();
    await admin.getByTestId("promo-redeemers").filter({ hasText: steamId }).waitFor();
    await adminContext.close();
    await playerContext.close();
  });
}

// The seed leaves two deliveries the plugin gave up on (db/seed/deliveries.ts): VIP and Premium for
// the load-test player, «Ошибка» after five attempts. Each mode retries one of them.
for (const [javaScriptEnabled, itemName] of [
  [true, "VIP"],
  [false, "Premium"],
] as const) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin retries a failed delivery; it leaves the failures and waits for the plugin again`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const admin = await context.newPage();
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    const row = (page: Page) =>
      page
        .getByTestId("admin-delivery-row")
        .filter({ hasText: "76561198000000009" })
        .filter({ hasText: `${itemName} · ` });

    await admin.goto("/admin/deliveries?status=failed");
    if (javaScriptEnabled) await waitForHydration(admin);
    const failed = row(admin).filter({ hasText: "Group 'vip' doesn't exist" });
    await failed.waitFor();
    assert.match(flatText(await failed.textContent()), /Ошибка попыток: 5/);
    await failed.getByRole("button", { name: "Повторить" }).click();
    await admin.waitForURL(`${E2E_ORIGIN}/admin/deliveries?done=retry`);

    await admin.goto("/admin/deliveries?status=failed");
    assert.equal(await row(admin).count(), 0);
    await admin.goto("/admin/deliveries?status=pending");
    const waiting = row(admin);
    await waiting.waitFor();
    assert.match(flatText(await waiting.textContent()), /Ожидает попыток: 0/);

    await admin.goto("/admin/audit");
    await admin.getByText("Доставка повторена").first().waitFor();
    await context.close();
  });
}
