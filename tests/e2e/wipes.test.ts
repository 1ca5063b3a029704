// Decision 128 in a browser: the seeded servers' schedules reach the cards and the wipe calendar,
// which the list and the footer link to; without JavaScript as with it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { calendarHorizon, wipesUntil } from "../../core/wipe/schedule.ts";
import { seedServers } from "../../db/seed/servers.ts";
import { brokenWords, browserForFile, newContext, waitForHydration } from "./browser.ts";

const browser = browserForFile();
const PHRASE =
  /^вайп (был (только что|.+ назад)|(сегодня|завтра) в \d\d:\d\d\sМСК|через \d+ (день|дня|дней), (пн|вт|ср|чт|пт|сб|вс)\s\d\d:\d\d\sМСК)$/;

for (const javaScriptEnabled of [false, true]) {
  test(`the wipe calendar from the list's link and the footer (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
    const context = await newContext(browser.current, { javaScriptEnabled });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto("/");
    if (javaScriptEnabled) await waitForHydration(page);
    for (const server of seedServers) {
      const wipe = page.locator(".server-card", { hasText: server.name }).locator(".server-card__wipe");
      assert.match(await wipe.innerText(), PHRASE, server.name);
    }
    assert.equal(
      await page
        .locator(".site-footer")
        .getByRole("link", { name: "Календарь вайпов", exact: true })
        .getAttribute("href"),
      "/wipes",
    );
    await page.getByRole("link", { name: "Календарь вайпов всех серверов →" }).click();
    await page.waitForURL("**/wipes");
    // With JavaScript the address changes as the client navigation starts: wait for the page itself.
    await page.getByRole("heading", { level: 1, name: "Календарь вайпов" }).waitFor();
    assert.equal(await page.title(), "Календарь вайпов — Свобода");
    // Every seeded server announces a schedule: its wipes to the first forced wipe two weeks or more
    // away (issue 46), earliest first; every server is on that last day.
    const now = Date.now();
    const horizon = calendarHorizon(now);
    const expected = seedServers.reduce((sum, server) => sum + wipesUntil(server.wipe, now, horizon).length, 0);
    const rows = page.getByTestId("wipe-row");
    assert.equal(await rows.count(), expected);
    const times = await page
      .locator('[data-testid="wipe-row"] time')
      .evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute("datetime") ?? "")));
    assert.deepEqual(
      times,
      times.toSorted((a, b) => a - b),
    );
    assert.ok((await page.getByRole("cell", { name: "глобальный вайп" }).count()) >= seedServers.length);
    assert.equal(await page.getByTestId("wipe-schedule").count(), seedServers.length);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("the wipe calendar fits a 375 px phone: the page never scrolls sideways and no word is split", async () => {
  const context = await newContext(browser.current, { mobile: true, width: 375 });
  const page = await context.newPage();
  await page.goto("/wipes");
  await page.getByTestId("wipe-calendar").waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  // Words wrap whole: no cell splits a word across lines («глобал/ьный»).
  assert.deepEqual(await brokenWords(page, '[data-testid="wipe-row"] td'), []);
  await context.close();
});
