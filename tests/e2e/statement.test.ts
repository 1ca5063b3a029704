import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { browserForFile, E2E_ORIGIN, flatText, newContext, uniqueSteamId, waitForHydration } from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

// The balance statement «Движение средств» (issue 20, item 4): after a top-up, the WELCOME100 promo, two
// purchases, an operator's refund and an adjustment, its rows add up to the header's balance, with and
// without JavaScript. The seed: item 101 VIP on SOLO (14 days: round(14/30 × 199) = 93 ₽), 103 «Набор
// «Старт»» (7 days: round(7/30 × 149) = 35 ₽); the demo player 76561198000000001 is an admin.

const browser = browserForFile();

/** Each row's cells after the date, « | »-joined, spaces flattened. */
const rowTexts = (page: Page) =>
  page.getByTestId("statement-row").evaluateAll((rows) =>
    rows.map((row) =>
      [...(row as HTMLTableRowElement).cells]
        .slice(1)
        .map((cell) => (cell.textContent ?? "").replace(/\s+/g, " ").trim())
        .join(" | "),
    ),
  );
/** «1 250,5 ₽» → 1250.5 */
const rubles = (value: string | null) =>
  Number(flatText(value).replace(/[ ₽]/g, "").replace("−", "-").replace(",", "."));

/** A top-up of `amount` ₽ through the API and the payment stand-in's «Оплатить». */
async function topUp(page: Page, amount: number) {
  const created = await page.request.post("/api/payment/create", { data: { amount, email: "player@example.com" } });
  assert.equal(created.status(), 200, await created.text());
  const { payment_url } = (await created.json()) as { payment_url: string };
  await page.goto(payment_url);
  await page.getByRole("button", { name: "Оплатить" }).click();
  await page.waitForURL((url) => url.pathname === "/profile" && url.searchParams.get("payment") === "success");
}

async function buy(page: Page, itemId: number, duration: number) {
  const response = await page.request.post(`/api/purchase/items/${itemId}`, {
    data: { server_type: "SOLO", duration },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  assert.equal(response.status(), 201, await response.text());
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: the statement's rows add up to the header balance after top-up, promo, purchases, refund and adjustment`, async () => {
    const playerContext = await newContext(browser.current, { javaScriptEnabled });
    const adminContext = await newContext(browser.current, { javaScriptEnabled });
    const player = await playerContext.newPage();
    const admin = await adminContext.newPage();
    const steamId = uniqueSteamId();
    await signedInAt(player, "/statement", steamId);
    await player.getByText("Движений по балансу пока нет").waitFor();

    await topUp(player, 300);
    await player.goto("/promocodes");
    if (javaScriptEnabled) await waitForHydration(player);
    await player.getByPlaceholder("Введите промокод").fill("WELCOME100");
    await player.getByRole("button", { name: "Активировать" }).click();
    await player.locator(".promo-form__message", { hasText: "Промокод успешно активирован!" }).waitFor();
    await buy(player, 101, 14);
    await buy(player, 103, 7);

    // The operator refunds the kit and takes 7 ₽ back, each with a reason.
    await signedInAt(admin, "/profile", ADMIN_STEAM_ID);
    await admin.goto(`/admin/players/${steamId}`);
    if (javaScriptEnabled) await waitForHydration(admin);
    const row = admin.getByTestId("admin-purchase-row").filter({ hasText: "Набор «Старт»" });
    await row.getByLabel("Причина возврата").fill("Купил по ошибке");
    await row.getByRole("button", { name: "Возврат" }).click();
    await admin.getByRole("status").filter({ hasText: "Покупка возвращена: деньги на балансе игрока" }).waitFor();
    const adjust = admin.getByRole("form", { name: "Корректировка баланса" });
    await adjust.getByLabel("Сумма, ₽ (минус — списать)").fill("-7");
    await adjust.getByLabel("Причина").fill("Списание за ошибку");
    await adjust.getByRole("button", { name: "Изменить баланс" }).click();
    await admin.getByRole("status").filter({ hasText: "Баланс изменён" }).waitFor();

    // The player opens the statement from the profile's tabs.
    await player.goto("/profile");
    if (javaScriptEnabled) await waitForHydration(player);
    await player.locator(".profile-tabs").getByRole("link", { name: "Движение средств" }).click();
    await player.waitForURL(`${E2E_ORIGIN}/statement`);
    const rows = player.getByTestId("statement-row");
    await rows.first().waitFor();
    assert.deepEqual(await rowTexts(player), [
      "Корректировка баланса: Списание за ошибку | −7 ₽ | 300 ₽",
      "Возврат покупки «Набор „Старт“» (SOLO, 7 дней): Купил по ошибке | +35 ₽ | 307 ₽",
      "Покупка «Набор „Старт“» (SOLO, 7 дней) | −35 ₽ | 272 ₽",
      "Покупка «VIP» (SOLO, 14 дней) | −93 ₽ | 307 ₽",
      "Промокод WELCOME100 | +100 ₽ | 400 ₽",
      "Пополнение картой | +300 ₽ | 300 ₽",
    ]);
    for (const date of await rows.evaluateAll((all) =>
      all.map((row) => (row as HTMLTableRowElement).cells[0]?.textContent),
    )) {
      assert.match(date ?? "", /^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
    }
    const amounts = await player
      .getByTestId("statement-amount")
      .evaluateAll((cells) => cells.map((cell) => Number((cell as HTMLElement).dataset.rubles)));
    const header = rubles(await player.locator("header .account__balance").textContent());
    assert.equal(header, 300);
    assert.equal(
      amounts.reduce((sum, amount) => sum + amount, 0),
      header,
      "the rows add up to the balance",
    );
    assert.equal(rubles(await player.getByTestId("statement-balance-after").first().textContent()), header);
    assert.equal(rubles(await player.getByTestId("statement-total").textContent()), header);
    assert.equal(await player.getByRole("navigation", { name: "Страницы" }).count(), 0, "one page");
    await playerContext.close();
    await adminContext.close();
  });
}

test("the statement pages by ?page= links, also without JavaScript", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await signedInAt(page, "/statement", uniqueSteamId());
  // 21 movements: a top-up and 20 purchases of «Дерево ×10 000» (item 106, 49 ₽) make two pages of 20.
  await topUp(page, 1000);
  for (let n = 0; n < 20; n++) {
    const bought = await page.request.post("/api/purchase/items/106", {
      data: { server_type: "SOLO" },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    assert.equal(bought.status(), 201);
  }
  await page.goto("/statement");
  assert.equal(await page.getByTestId("statement-row").count(), 20);
  await page.getByRole("navigation", { name: "Страницы" }).getByRole("link", { name: "Дальше →" }).click();
  await page.waitForURL(`${E2E_ORIGIN}/statement?page=2`);
  assert.deepEqual(await rowTexts(page), ["Пополнение картой | +1 000 ₽ | 1 000 ₽"]);
  await context.close();
});
