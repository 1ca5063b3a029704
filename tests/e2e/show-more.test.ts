import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page, Route } from "playwright-core";
import { browserForFile, newContext, waitForHydration } from "./browser.ts";
import { signedIn, siteExecute } from "./signed-in.ts";

// «Показать ещё» under the Корзина and /purchases (decisions 150 and 156): without JavaScript a plain link
// to the next page; with it, the next page is appended under the entries shown, the link reading
// «Загрузка…» meanwhile. Each player has 45 rows: pages of 20, 20 and 5.

const browser = browserForFile();
const ROWS = 45;

/** 45 delivered kits (item 106 is seeded), a minute apart, newest now. */
async function fillCorner(userId: number): Promise<void> {
  await siteExecute(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS - 1})
     INSERT INTO inventory_entries (user_id, item_id, server_type, is_permanent, status, used_at, created_at)
     SELECT ?, 106, 'SOLO', 1, 'used', ?, ? - i * 60000 FROM n`,
    [userId, Date.now(), Date.now()],
  );
}

/** 45 completed purchases of the same kit, a minute apart, newest now. */
async function fillPurchases(userId: number): Promise<void> {
  await siteExecute(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS - 1})
     INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, price, status, paid_at, created_at)
     SELECT ?1, 106, 'more-' || ?1 || '-' || i, 'more-' || i, 'SOLO', 1000, 'completed', ?2 - i * 60000, ?2 - i * 60000 FROM n`,
    [userId, Date.now()],
  );
}

const lists = [
  { name: "the Корзина", path: "/profile", row: "inventory-entry", fill: fillCorner },
  { name: "/purchases", path: "/purchases", row: "purchase-row", fill: fillPurchases },
] as const;

/** Marks the rows shown now, so a later look tells the same elements from a page drawn again. */
const markShown = (page: Page, row: string) =>
  page.getByTestId(row).evaluateAll((rows) => {
    for (const element of rows) element.setAttribute("data-was-shown", "");
  });
const marks = (page: Page, row: string) =>
  page.getByTestId(row).evaluateAll((rows) => rows.map((element) => element.hasAttribute("data-was-shown")));

for (const list of lists) {
  for (const width of [375, 1280]) {
    test(`with JavaScript at ${width} px: «Показать ещё» under ${list.name} appends the next page under the first`, async () => {
      const context = await newContext(browser.current, { width });
      const page = await context.newPage();
      const player = await signedIn(context);
      await list.fill(player.userId);
      await page.goto(list.path);
      await waitForHydration(page);
      const rows = page.getByTestId(list.row);
      assert.equal(await rows.count(), 20);
      await markShown(page, list.row);

      // The next page's answer is held until the link has said it is loading; it is asked for once.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const asked: string[] = [];
      await page.route(/\.data(\?|$)/, async (route: Route) => {
        asked.push(route.request().url());
        await held;
        await route.continue();
      });
      const more = page.getByTestId("show-more");
      const box = await more.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, "the link fits the screen");
      await more.click();
      await page.getByTestId("show-more").filter({ hasText: "Загрузка…" }).waitFor();
      assert.equal(await more.getAttribute("aria-busy"), "true");
      // A second click while it loads asks for nothing more (forced: the link says it is busy).
      await more.click({ force: true });
      release();
      await page.getByTestId("show-more").filter({ hasText: "Показать ещё" }).waitFor();
      assert.equal(await rows.count(), 40);
      assert.equal(asked.length, 1);
      assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, list.path);
      // The first page's rows are the same elements, the next page's below them, and focus is on the first new one.
      assert.deepEqual(await marks(page, list.row), [...Array(20).fill(true), ...Array(20).fill(false)]);
      assert.equal(await rows.nth(20).evaluate((element) => element === document.activeElement), true);

      await page.getByTestId("show-more").click();
      await page.getByTestId("show-more").waitFor({ state: "detached" });
      assert.equal(await rows.count(), ROWS);
      assert.equal(asked.length, 2);
      assert.equal(await rows.nth(40).evaluate((element) => element === document.activeElement), true);
      await context.close();
    });

    test(`without JavaScript at ${width} px: «Показать ещё» under ${list.name} opens the next page`, async () => {
      const context = await newContext(browser.current, { javaScriptEnabled: false, width });
      const page = await context.newPage();
      const player = await signedIn(context);
      await list.fill(player.userId);
      await page.goto(list.path);
      const rows = page.getByTestId(list.row);
      assert.equal(await rows.count(), 20);
      const more = page.getByRole("link", { name: "Показать ещё" });
      const box = await more.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, "the link fits the screen");
      await more.click();
      await page.waitForURL(new RegExp(`${list.path}\\?before=\\d+-\\d+$`));
      assert.equal(await rows.count(), 20);
      await page.getByRole("link", { name: "Показать ещё" }).click();
      await page.waitForURL(new RegExp(`${list.path}\\?before=\\d+-\\d+$`));
      assert.equal(await rows.count(), 5);
      assert.equal(await page.getByRole("link", { name: "Показать ещё" }).count(), 0);
      await context.close();
    });
  }
}
