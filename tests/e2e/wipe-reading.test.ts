// Issue 46 in a browser in Asia/Novosibirsk (UTC+7), at 375 and 1280 px, with and without JavaScript:
// the cards' next wipe is labelled МСК (decision 140), and «до вайпа» says when it ends, in МСК, on the
// item page and in the shop's buy dialog (decision 139). Signed out: the prices a visitor reads.
import assert from "node:assert/strict";
import { test } from "node:test";
import { untilWipeOffer } from "../../core/shop/until-wipe.ts";
import { earliestNextWipe } from "../../core/wipe/schedule.ts";
import { seedServers } from "../../db/seed/servers.ts";
import { browserForFile, flatText, newContext, waitForHydration } from "./browser.ts";

const browser = browserForFile();

/** «закончится чт, 3 декабря в 22:00 МСК»: the earliest SOLO server's next wipe, as the site says it now. */
function soloEnds(): string {
  const now = Date.now();
  const solo = seedServers.filter((server) => server.server_type === "SOLO");
  const next = earliestNextWipe(solo, (server) => server.wipe, now);
  assert.ok(next, "the seed's SOLO servers announce their wipes");
  return flatText(untilWipeOffer(next.at, now).ends);
}

for (const width of [375, 1280]) {
  for (const javaScriptEnabled of [false, true]) {
    test(`wipe times read as МСК at ${width} px (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const context = await newContext(browser.current, { javaScriptEnabled, width, timezoneId: "Asia/Novosibirsk" });
      const page = await context.newPage();
      await page.goto("/");
      if (javaScriptEnabled) await waitForHydration(page);
      const phrases = await page.locator(".server-card__wipe").allInnerTexts();
      assert.ok(phrases.length > 0);
      for (const phrase of phrases) assert.match(flatText(phrase), /(МСК|назад|только что)$/, phrase);

      await page.goto("/shop?server_type=SOLO");
      if (javaScriptEnabled) {
        await waitForHydration(page);
        // The buy dialog, signed out: the prices, «до вайпа» with its end.
        await page.locator(".shop-card", { hasText: "VIP" }).first().getByRole("link", { name: "Купить" }).click();
        const dialog = page.getByRole("dialog");
        assert.equal(
          flatText(await dialog.getByTestId("until-wipe-ends").first().innerText()).split(" Вайп уже")[0],
          soloEnds(),
        );
        await dialog.getByRole("button", { name: "Отмена" }).click();
      }
      await page.locator(".shop-card", { hasText: "VIP" }).first().getByRole("link", { name: "VIP" }).click();
      await page.getByRole("heading", { level: 1, name: "VIP" }).waitFor();
      assert.equal(flatText(await page.getByTestId("until-wipe-ends").innerText()).split(" Вайп уже")[0], soloEnds());
      assert.match(flatText(await page.getByTestId("item-wipe").innerText()), /МСК\./);
      // Nothing scrolls sideways.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
      await page.screenshot({
        path: `/tmp/wipe-reading-${width}-${javaScriptEnabled ? "js" : "nojs"}.png`,
        fullPage: true,
      });
      await context.close();
    });
  }
}
