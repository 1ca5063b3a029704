import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { browserForFile, newContext, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";
import { E2E_EXPORT_ROWS_PER_FILE } from "./site.ts";

// The console's CSV exports and Discord settings (decision 110) and the shop's return window (decision
// 111), with and without JavaScript. The seed
// makes the demo player (76561198000000001) an admin, with a balance credited through the ledger.

const browser = browserForFile();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an admin downloads the ledger as CSV for Excel, part by part, and stays on the page`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signedInAt(page, "/profile", ADMIN_STEAM_ID);
    await page.goto("/admin");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByRole("link", { name: "Выгрузки" }).click();
    await page.getByRole("heading", { name: "Выгрузки CSV" }).waitFor();
    await page.getByLabel("Что выгрузить").selectOption({ label: "Движения баланса" });
    await page.getByLabel("С (МСК)").fill("2020-01-01");
    await page.getByRole("button", { name: "Скачать CSV" }).click();
    // The browser tests' builds hold E2E_EXPORT_ROWS_PER_FILE rows a file, so the ledger comes in parts.
    const parts = page.getByTestId("export-parts");
    await parts.waitFor();
    const intro = (await parts.locator("p").textContent()) ?? "";
    const stated = Number(/^За этот период (\d+) строк/.exec(intro)?.[1]);
    assert.match(
      intro,
      new RegExp(`в один файл помещается ${E2E_EXPORT_ROWS_PER_FILE} строк[аи]?\\. Скачайте выгрузку по частям:$`),
    );
    const buttons = parts.getByRole("button");
    const count = await buttons.count();
    assert.equal(count, Math.ceil(stated / E2E_EXPORT_ROWS_PER_FILE));
    const rows: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const button = buttons.nth(index);
      assert.match(
        (await button.textContent()) ?? "",
        new RegExp(`^Часть ${index + 1} из ${count}: строки \\d+–\\d+$`),
      );
      const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
      assert.match(
        download.suggestedFilename(),
        new RegExp(`^ledger_2020-01-01_\\d{4}-\\d{2}-\\d{2}_part${index + 1}of${count}\\.csv$`),
      );
      const bytes = await readFile(await download.path());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes).split("\r\n");
      assert.equal(
        lines[0],
        "Время (МСК, ISO 8601);ID записи;SteamID;Игрок;Сумма, руб. (десятичная запятая);Вид;ID покупки;ID платежа;Примечание",
      );
      const part = lines.slice(1).filter(Boolean);
      if (index < count - 1) assert.equal(part.length, E2E_EXPORT_ROWS_PER_FILE);
      rows.push(...part);
    }
    // The parts, one after another, are the whole period: every row once.
    assert.equal(rows.length, stated);
    assert.equal(new Set(rows.map((line) => line.split(";")[1])).size, stated);
    assert.ok(rows.some((line) => line.includes(`;${ADMIN_STEAM_ID};`)));
    assert.equal(new URL(page.url()).pathname, "/admin/exports");
    await page.getByRole("heading", { name: "Выгрузки CSV" }).waitFor();
    await context.close();
  });

  test(`${mode}: an admin sets a Discord webhook, sees it masked, and removes it`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signedInAt(page, "/profile", ADMIN_STEAM_ID);
    await page.goto("/admin/discord");
    if (javaScriptEnabled) await waitForHydration(page);
    const field = page.getByLabel("Новый адрес вебхука (пусто — оставить прежний)");
    await field.fill("https://example.com/hook");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByRole("alert").filter({ hasText: "Это не адрес вебхука Discord" }).waitFor();

    const token = `e2eToken_${"x".repeat(40)}wxyz`;
    await page
      .getByLabel("Новый адрес вебхука (пусто — оставить прежний)")
      .fill(`https://discord.com/api/webhooks/123456789012345678/${token}`);
    await page.getByLabel("Покупка").check();
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByRole("status").filter({ hasText: "Настройки уведомлений сохранены" }).waitFor();
    await page
      .getByTestId("discord-webhook")
      .filter({ hasText: "https://discord.com/api/webhooks/…/****wxyz" })
      .waitFor();
    assert.equal((await page.content()).includes(token), false);

    await page.getByLabel("Удалить вебхук").check();
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByTestId("discord-webhook").filter({ hasText: "не задан" }).waitFor();
    await context.close();
  });

  test(`${mode}: an admin sets how long players may return a purchase, and a bad value is explained`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signedInAt(page, "/profile", ADMIN_STEAM_ID);
    await page.goto("/admin");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByRole("link", { name: "Настройки" }).click();
    await page.getByRole("heading", { name: "Настройки магазина" }).waitFor();
    const field = page.getByLabel(/^Сколько часов после покупки игрок может сам вернуть невыданный предмет/);
    assert.equal(await field.inputValue(), "24");
    // The browser's own check would stop 721 with JavaScript and without; the server's is the one tested.
    await field.evaluate((input) => input.removeAttribute("max"));
    await field.fill("721");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByRole("alert").filter({ hasText: "Укажите целое число часов от 0 до 720" }).waitFor();
    await page.getByLabel(/^Сколько часов после покупки/).fill("48");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByRole("status").filter({ hasText: "Настройки сохранены" }).waitFor();
    await page.goto("/admin/settings");
    assert.equal(await page.getByLabel(/^Сколько часов после покупки/).inputValue(), "48");
    // Back to the default, for the browser tests after this one.
    await page.getByLabel(/^Сколько часов после покупки/).fill("24");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByRole("status").filter({ hasText: "Настройки сохранены" }).waitFor();
    await context.close();
  });
}
