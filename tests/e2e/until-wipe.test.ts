// «До вайпа» as a term in a browser (decision 130, issue 38 item 3): an operator offers it in the
// console's «Сроки» («до вайпа = 150», refused without revoke commands or with {days}); a player buys
// it on the item page without JavaScript at 375 px (after a top-up that comes back to it) and in the
// shop's buy dialog with it at 1280 px; the Корзина says until which wipe it runs and that it waits.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { formatRubles } from "../../core/format/money.ts";
import { CATALOG_TEXT } from "../../core/messages/admin.ts";
import { INVENTORY_STATE_LABEL, waitingText } from "../../core/messages/inventory.ts";
import {
  INSUFFICIENT_FUNDS,
  RECEIPT,
  SIGN_IN_TO_BUY,
  shortOfText,
  TOPPED_UP_FOR_PURCHASE,
  topUpByText,
} from "../../core/messages/shop.ts";
import { UNTIL_WIPE_TEXT } from "../../core/messages/wipe.ts";
import { untilWipeText } from "../../core/shop/until-wipe.ts";
import { nextWipe } from "../../core/wipe/schedule.ts";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { seedServers } from "../../db/seed/servers.ts";
import {
  brokenWords,
  browserForFile,
  flatText,
  newContext,
  newPlayerWith100,
  seriousViolations,
  signIn,
  waitForHydration,
} from "./browser.ts";

// The seed makes the demo player an admin (tests/e2e/admin.test.ts).
const SOLO_SCHEDULE = seedServers.find((server) => server.server_type === "SOLO")?.wipe;

const browser = browserForFile();

const GRANT = "oxide.usergroup add {steamid} vip";
const REVOKE = "oxide.usergroup remove {steamid} vip";
/** The «Сроки» an operator types: 7 days at the 30-day price pro rata, «до вайпа» at its own price. */
const DURATIONS = `7\n${UNTIL_WIPE_TEXT.consoleLine} = 150`;
/** «до вайпа» costs 150 ₽; a new player has WELCOME100's 100 ₽, 50 ₽ short of it. */
const UNTIL_WIPE_PRICE = 150;

/** The console's item form, as `addTenRubleKit` finds it. */
const itemForm = (page: Page) => page.getByRole("form", { name: "Товар" });
const durationsField = (page: Page) =>
  itemForm(page).getByLabel("Сроки: по строке «дней», «дней = цена» или «до вайпа = цена»");
const grantField = (page: Page) => itemForm(page).getByLabel("Команды выдачи: {steamid} {nickname} {days} {server}");
const revokeField = (page: Page) => itemForm(page).getByLabel("Команды изъятия");

/** The items the console made, by name: the first is bought in the tests after it. */
const made: { id: number; name: string }[] = [];

/** «до вайпа, пт 18:00»: the SOLO server's next wipe by its seeded schedule, as the Корзина says it now. */
function untilSoloWipe(): string {
  const now = Date.now();
  assert.ok(SOLO_SCHEDULE, "the seed has a SOLO server");
  const wipe = nextWipe(SOLO_SCHEDULE, now);
  assert.ok(wipe, "the SOLO server announces its wipes");
  return untilWipeText(wipe.at, now);
}

/** The item page's «до вайпа» choice (a radio), whose label is the term and its price. */
const untilWipeOption = (scope: Page | Locator) =>
  scope.locator(".durations__option").filter({ hasText: UNTIL_WIPE_TEXT.term });

/** The new item's fields, all but the revoke commands: a SOLO rank sold for 7 days or «до вайпа». */
async function fillItem(page: Page, name: string): Promise<void> {
  const form = itemForm(page);
  await form.getByLabel("Название").fill(name);
  await form.getByLabel("Цена, ₽ (за 30 дней у срочных)").fill("300");
  await form.getByLabel("Картинка (URL)").fill("/images/shop/kit-start.svg");
  await form.getByLabel("Тип сервера").selectOption("SOLO");
  await form.getByLabel("Категория").selectOption({ label: "Привилегии" });
  await durationsField(page).fill(DURATIONS);
  await grantField(page).fill(GRANT);
}

async function pageWidthOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${mode}: an operator offers «до вайпа = 150»; without revoke commands, or with {days}, the form refuses it and keeps what was typed`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    await signIn(page, ADMIN_STEAM_ID);
    const name = `Вайп-VIP ${javaScriptEnabled ? "JS" : "HTML"} ${Date.now().toString(36)}`;

    await page.goto("/admin/items/new");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByRole("heading", { name: "Новый товар" }).waitFor();
    const form = itemForm(page);
    // The field says how to write the line, its placeholder shows one.
    assert.match((await durationsField(page).getAttribute("placeholder")) ?? "", /^до вайпа = 150$/m);
    await fillItem(page, name);

    // No revoke commands: nothing would take the rank back at the wipe.
    await form.getByRole("button", { name: "Добавить товар" }).click();
    await page.getByRole("alert").filter({ hasText: CATALOG_TEXT.untilWipeRevoke }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/admin/items/new");
    assert.equal(await page.getByRole("status").filter({ hasText: "Товар сохранён" }).count(), 0);
    // What the operator typed is still there to correct.
    assert.equal(await form.getByLabel("Название").inputValue(), name);
    assert.equal(await durationsField(page).inputValue(), DURATIONS);
    assert.equal(await grantField(page).inputValue(), GRANT);

    // {days} in a grant command: «до вайпа» has no number of days to put there.
    await grantField(page).fill("oxide.grant user {steamid} vip.perm {days}d");
    await revokeField(page).fill(REVOKE);
    await form.getByRole("button", { name: "Добавить товар" }).click();
    await page.getByRole("alert").filter({ hasText: CATALOG_TEXT.untilWipeDays }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/admin/items/new");
    assert.equal(await durationsField(page).inputValue(), DURATIONS);
    assert.equal(await revokeField(page).inputValue(), REVOKE);

    // Neither refusal saved anything.
    await page.goto("/admin/items");
    await page.getByRole("heading", { name: "Каталог" }).waitFor();
    assert.equal(await page.getByText(name).count(), 0);

    // With revoke commands and without {days} it is saved, and the edit page shows the line back.
    await page.goto("/admin/items/new");
    if (javaScriptEnabled) await waitForHydration(page);
    await fillItem(page, name);
    await revokeField(page).fill(REVOKE);
    await form.getByRole("button", { name: "Добавить товар" }).click();
    await page.getByRole("status").filter({ hasText: "Товар сохранён" }).waitFor();
    const id = Number(/^\/admin\/items\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
    assert.ok(id > 0, page.url());
    assert.equal(await durationsField(page).inputValue(), DURATIONS);
    assert.equal(await revokeField(page).inputValue(), REVOKE);
    made.push({ id, name });
    await context.close();
  });
}

/** The days first, then «до вайпа» at its price with the moment it ends (decision 139). */
function assertOffered(options: string[]): void {
  const [days, untilWipe, ...rest] = options.map(flatText);
  assert.equal(days, flatText(`7 дней ${formatRubles(70)}`));
  assert.ok(
    untilWipe?.startsWith(flatText(`${UNTIL_WIPE_TEXT.term} ${formatRubles(UNTIL_WIPE_PRICE)} закончится `)),
    untilWipe,
  );
  assert.match(untilWipe ?? "", /МСК/);
  assert.deepEqual(rest, []);
}

test("without JavaScript at 375 px: a guest sees «до вайпа» for 150 ₽; a player short of 50 ₽ tops up, comes back to it chosen, buys it, and the Корзина says until which wipe it runs", async () => {
  const item = made[0];
  assert.ok(item, "the console made the item");
  const context = await newContext(browser.current, { javaScriptEnabled: false, mobile: true, width: 375 });
  const page = await context.newPage();
  const itemPage = `/shop/items/${item.id}?server_type=SOLO`;

  // A guest: the prices, «до вайпа» among them, and the way to sign in.
  await page.goto(itemPage);
  const prices = flatText(await page.locator(".guest-prices").innerText());
  assert.ok(prices.includes(flatText(`7 дней ${formatRubles(70)}`)), prices);
  assert.ok(prices.includes(flatText(`${UNTIL_WIPE_TEXT.term} ${formatRubles(UNTIL_WIPE_PRICE)}`)), prices);
  assert.equal(await page.getByRole("link", { name: SIGN_IN_TO_BUY }).count(), 1);

  // A new player with 100 ₽: the item page offers «до вайпа» at its price, after the days.
  await newPlayerWith100(page, false);
  await page.goto(itemPage);
  await page.getByRole("heading", { level: 1, name: item.name }).waitFor();
  assertOffered(await page.locator(".durations__option").allInnerTexts());
  assert.equal(await untilWipeOption(page).getByRole("radio").getAttribute("value"), "0");
  // At 375 px the page never scrolls sideways and no word on it is split.
  const overflow = await pageWidthOverflow(page);
  assert.ok(overflow <= 0, `the item page is ${overflow}px wider than the phone`);
  assert.deepEqual(await brokenWords(page, "main.shop-item"), []);

  // 50 ₽ short: the top-up link comes back to the item with «до вайпа» chosen (duration=0).
  await untilWipeOption(page).getByRole("radio").check();
  await page.getByRole("button", { name: "Купить", exact: true }).click();
  await page.waitForLoadState("load");
  assert.equal(
    flatText(await page.locator(".form-error").innerText()),
    flatText(`${INSUFFICIENT_FUNDS}: ${shortOfText(50)}. ${topUpByText(50)}`),
  );
  assert.equal(await untilWipeOption(page).getByRole("radio").isChecked(), true);
  const topUp = page.getByRole("link", { name: flatText(topUpByText(50)) });
  assert.equal(
    await topUp.getAttribute("href"),
    `/balance?amount=50&return_to=${encodeURIComponent(`/shop/items/${item.id}?duration=0`)}`,
  );
  await topUp.click();
  await page.waitForURL((url) => url.pathname === "/balance");
  assert.equal(await page.getByLabel("Сумма пополнения, ₽").inputValue(), "50");
  await page.getByLabel("E-mail для чека").fill("until-wipe@example.com");
  await page.locator("main").getByRole("button", { name: "Пополнить" }).click();
  await page.waitForURL(/\/__standins\/payments\/checkout\//);
  await page.getByRole("button", { name: "Оплатить" }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === `/shop/items/${item.id}` &&
      url.searchParams.get("duration") === "0" &&
      url.searchParams.get("payment") === "success",
  );
  assert.equal(flatText(await page.locator(".form-success").innerText()), TOPPED_UP_FOR_PURCHASE);
  assert.equal(await untilWipeOption(page).getByRole("radio").isChecked(), true);

  // Buy: the receipt names the term and its price.
  await page.getByRole("button", { name: "Купить", exact: true }).click();
  const receipt = page.getByTestId("receipt");
  await receipt.waitFor();
  const facts = flatText(await receipt.innerText());
  for (const fact of [
    RECEIPT.title,
    `${RECEIPT.item} ${item.name}`,
    `${RECEIPT.duration} ${UNTIL_WIPE_TEXT.term}`,
    `${RECEIPT.serverType} SOLO`,
    flatText(`${RECEIPT.price} ${formatRubles(UNTIL_WIPE_PRICE)}`),
    flatText(`${RECEIPT.balance} ${formatRubles(0)}`),
  ]) {
    assert.ok(facts.includes(fact), `${fact} in ${facts}`);
  }
  assert.deepEqual(await brokenWords(page, '[data-testid="receipt"]'), []);

  // The Корзина: until the SOLO server's next wipe, waiting, and what waiting means for this term.
  await receipt.getByRole("link", { name: RECEIPT.toInventory }).click();
  await page.waitForURL((url) => url.pathname === "/profile");
  const entry = page.getByTestId("inventory-entry").filter({ hasText: item.name });
  // Its card begins with the name, the type and the term, the state and the notes (then the server to
  // join and the return).
  const card = flatText(await entry.innerText());
  const head = `${item.name} SOLO · ${untilSoloWipe()} ${INVENTORY_STATE_LABEL.waiting} ${waitingText("SOLO")} ${UNTIL_WIPE_TEXT.waiting}`;
  assert.ok(card.startsWith(flatText(head)), `«${head}» begins «${card}»`);
  assert.equal(flatText(await entry.locator(".inventory-card__duration").innerText()), flatText(untilSoloWipe()));
  const profileOverflow = await pageWidthOverflow(page);
  assert.ok(profileOverflow <= 0, `the Корзина is ${profileOverflow}px wider than the phone`);
  assert.deepEqual(await brokenWords(page, '[data-testid="inventory-entry"]'), []);
  await context.close();
});

test("with JavaScript at 1280 px: the shop's buy dialog offers «до вайпа», says what is missing, and buys it; no serious axe violation at 1280 or 375 px", async () => {
  const item = made[0];
  assert.ok(item, "the console made the item");
  const context = await newContext(browser.current, { bypassCSP: true });
  const page = await context.newPage();
  const steamId = await newPlayerWith100(page, true);
  const found: string[] = [];
  const axe = async (where: string) => {
    for (const violation of await seriousViolations(page)) found.push(`${where}: ${violation}`);
  };

  await page.goto("/shop?server_type=SOLO");
  await waitForHydration(page);
  const card = page.locator(".shop-card").filter({ has: page.locator(".shop-card__title", { hasText: item.name }) });
  await card.getByRole("link", { name: "Купить" }).click();
  const dialog = page.locator("dialog.buy-dialog");
  assert.equal(await dialog.locator("h2").innerText(), "Выберите срок");
  assertOffered(await dialog.locator(".durations__option").allInnerTexts());
  await untilWipeOption(dialog).click();
  // 100 ₽ of 150: the dialog says so and links to the top-up that comes back with «до вайпа».
  assert.equal(
    flatText(await dialog.locator(".form-error").innerText()),
    flatText(`${INSUFFICIENT_FUNDS}: ${shortOfText(50)}. ${topUpByText(50)}`),
  );
  assert.equal(
    await dialog.getByRole("link", { name: flatText(topUpByText(50)) }).getAttribute("href"),
    `/balance?amount=50&return_to=${encodeURIComponent(`/shop/items/${item.id}?duration=0`)}`,
  );
  assert.equal(await dialog.locator('button[type="submit"]').isDisabled(), true);
  await axe("buy dialog, «до вайпа» chosen");
  await dialog.getByRole("button", { name: "Отмена" }).click();

  // The operator credits the 50 ₽ missing.
  const adminContext = await newContext(browser.current);
  const admin = await adminContext.newPage();
  await signIn(admin, ADMIN_STEAM_ID, `/admin/players/${steamId}`);
  const adjust = admin.getByRole("form", { name: "Корректировка баланса" });
  await adjust.getByLabel("Сумма, ₽ (минус — списать)").fill("50");
  await adjust.getByLabel("Причина").fill("До вайпа: e2e");
  await adjust.getByRole("button", { name: "Изменить баланс" }).click();
  await admin.getByRole("status").filter({ hasText: "Баланс изменён" }).waitFor();
  await adminContext.close();

  await page.reload();
  await waitForHydration(page);
  await page.locator("header .account__balance", { hasText: "150" }).waitFor();
  await card.getByRole("link", { name: "Купить" }).click();
  await untilWipeOption(dialog).click();
  await dialog.getByRole("button", { name: `Купить за ${formatRubles(UNTIL_WIPE_PRICE)}` }).click();
  const receipt = dialog.getByTestId("receipt");
  await receipt.waitFor();
  const facts = flatText(await receipt.innerText());
  assert.ok(facts.includes(`${RECEIPT.duration} ${UNTIL_WIPE_TEXT.term}`), facts);
  assert.ok(facts.includes(flatText(`${RECEIPT.price} ${formatRubles(UNTIL_WIPE_PRICE)}`)), facts);
  await axe("buy dialog's receipt");
  await dialog.getByRole("button", { name: RECEIPT.close }).click();
  await dialog.waitFor({ state: "detached" });

  // The item page and the Корзина with the entry, at both widths.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/shop/items/${item.id}?server_type=SOLO`);
    await waitForHydration(page);
    await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
    await untilWipeOption(page).waitFor();
    await axe(`${width} px item page`);
    await page.goto("/profile");
    await waitForHydration(page);
    await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
    const entry = page.getByTestId("inventory-entry").filter({ hasText: item.name });
    assert.equal(flatText(await entry.locator(".inventory-card__duration").innerText()), flatText(untilSoloWipe()));
    assert.ok(flatText(await entry.innerText()).includes(UNTIL_WIPE_TEXT.waiting));
    if (width === 375) assert.deepEqual(await brokenWords(page, '[data-testid="inventory-entry"]'), []);
    await axe(`${width} px Корзина`);
  }
  assert.deepEqual(found, []);
  await context.close();
});
