// Issue 46 items 2, 4 and 5 in a browser, at 375 and 1280 px, with and without JavaScript: /wipes says the
// same last wipe as the home card (the seed's VANILLA server wiped 3 h before the seed, db/seed/servers.ts),
// every scheduled server wipes on the calendar's last day, and a receipt reopened after a later purchase
// keeps the balance right after its own purchase; /wipes' last wipe is the one the console counts fair-play
// windows from. Item 3 is tests/e2e/fair-play-window.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { seedAdminSteamId as ADMIN_STEAM_ID } from "../../db/seed/operators.ts";
import { seedReportedWipe, seedServers } from "../../db/seed/servers.ts";
import {
  browserForFile,
  flatText,
  newContext,
  newPlayerWith100,
  seriousViolations,
  waitForHydration,
} from "./browser.ts";
import { signedInAt } from "./signed-in.ts";

const browser = browserForFile();
const HOUR_MS = 3_600_000;
/** A timestamp's day in Moscow (UTC+3, no daylight saving). */
const moscowDay = (at: number): string => new Date(at + 3 * HOUR_MS).toISOString().slice(0, 10);
/** «Последний вайп: 29.11.2026, 06:21 МСК» as a timestamp (to the minute); NaN when it isn't one. */
const lastWipeAt = (line: string): number => {
  const [, day, month, year, time] = /^Последний вайп: (\d\d)\.(\d\d)\.(\d{4}), (\d\d:\d\d) МСК$/.exec(line) ?? [];
  return Date.parse(`${year}-${month}-${day}T${time}:00+03:00`);
};

for (const width of [375, 1280]) {
  for (const javaScriptEnabled of [false, true]) {
    const label = `at ${width} px (JavaScript ${javaScriptEnabled ? "on" : "off"})`;

    test(`/wipes: one last wipe as on the home card, every server on the last day, axe clean ${label}`, async () => {
      // bypassCSP: for axe, a script the site's CSP would refuse.
      const context = await newContext(browser.current, { javaScriptEnabled, width, bypassCSP: true });
      const page = await context.newPage();
      await page.goto("/");
      if (javaScriptEnabled) await waitForHydration(page);
      const home = new Map<string, string>();
      for (const server of seedServers) {
        const card = page.locator(".server-card", { hasText: server.name });
        home.set(server.name, flatText(await card.locator(".server-card__wipe").innerText()));
      }
      await page.goto("/wipes");
      if (javaScriptEnabled) await waitForHydration(page);
      const main = flatText(await page.locator("main").innerText());
      assert.ok(main.includes("в этот день вайпаются все серверы с расписанием"), main);
      for (const server of seedServers) {
        const line = page.getByTestId("wipe-schedule").filter({ hasText: server.name });
        const phrase = flatText(await line.locator(".wipe-schedules__phrase").innerText()).replace(/^· /, "");
        assert.equal(phrase, home.get(server.name), server.name);
        const last = flatText(await line.innerText()).match(/Последний вайп: .*$/)?.[0];
        if (last !== undefined) assert.ok(lastWipeAt(last) < Date.now(), `${server.name}: ${last}`);
        if (server.id !== seedReportedWipe.serverId) continue;
        // The seeded wipe, hours ago: the card's «вайп был 3 ч назад» (or, after a scheduled wipe since,
        // «… 20 мин. назад») is this line's date, in МСК, to the unit the card counts in.
        const [, count, unit] = /^вайп был (\d+) (ч|мин)\.? назад$/.exec(phrase) ?? [];
        const step = unit === "ч" ? HOUR_MS : 60_000;
        const since = Date.now() - lastWipeAt(last ?? "");
        assert.ok(
          since >= Number(count) * step && since < (Number(count) + 1) * step + 5 * 60_000,
          `${phrase} / ${last}`,
        );
      }
      // The calendar's last day: every seeded server has a schedule, and wipes on it.
      const rows = await page.getByTestId("wipe-row").evaluateAll((nodes) =>
        nodes.map((node) => ({
          at: Date.parse(node.querySelector("time")?.getAttribute("datetime") ?? ""),
          server: node.querySelectorAll("td")[1]?.textContent ?? "",
        })),
      );
      const lastDay = moscowDay(rows.at(-1)?.at ?? Number.NaN);
      const onLastDay = new Set(rows.filter((row) => moscowDay(row.at) === lastDay).map((row) => row.server));
      for (const server of seedServers) {
        assert.ok(onLastDay.has(server.name), `${server.name} on ${lastDay}`);
      }
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
      // axe is a script: it reads the page as JavaScript left it (the same markup the server sent).
      if (javaScriptEnabled) {
        await page.locator(".preloader").waitFor({ state: "detached", timeout: 10_000 });
        assert.deepEqual(await seriousViolations(page), []);
      }
      await context.close();
    });

    test(`a receipt reopened after a later purchase keeps its own balance ${label}`, async () => {
      const context = await newContext(browser.current, { javaScriptEnabled, width });
      const page = await context.newPage();
      await newPlayerWith100(page, javaScriptEnabled);
      /** Buys the seed's wood (49 ₽) for `serverType` on its item page; the receipt's address and balance line. */
      const buyWood = async (serverType: string) => {
        await page.goto(`/shop?server_type=${serverType}`);
        if (javaScriptEnabled) await waitForHydration(page);
        await page
          .locator(".shop-card", { hasText: "Дерево" })
          .first()
          .getByRole("link", { name: /^Дерево/ })
          .click();
        await page.getByRole("heading", { level: 1, name: /^Дерево/ }).waitFor();
        if (javaScriptEnabled) await waitForHydration(page);
        await page.getByRole("button", { name: "Купить", exact: true }).click();
        const receipt = page.getByTestId("receipt");
        await receipt.waitFor();
        await page.waitForURL((url) => url.searchParams.has("purchased"));
        const balance = flatText(await receipt.innerText()).match(/Баланс после покупки \d+ ₽/)?.[0];
        return { address: page.url(), balance };
      };
      const first = await buyWood("SOLO");
      assert.equal(first.balance, "Баланс после покупки 51 ₽");
      const second = await buyWood("MAX2");
      assert.equal(second.balance, "Баланс после покупки 2 ₽");
      await page.goto(first.address);
      if (javaScriptEnabled) await waitForHydration(page);
      const reopened = flatText(await page.getByTestId("receipt").innerText());
      assert.ok(reopened.includes("Баланс после покупки 51 ₽"), reopened);
      assert.equal(flatText(await page.locator("header .account__balance").innerText()), "2 ₽");
      await context.close();
    });
  }
}

test("/wipes says, for every server, the last wipe the console's fair-play windows count from", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/wipes");
  const said = new Map<number, string>();
  for (const server of seedServers) {
    const line = flatText(await page.getByTestId("wipe-schedule").filter({ hasText: server.name }).innerText());
    said.set(server.id, line.match(/Последний вайп: (.*) МСК$/)?.[1] ?? `no last wipe: ${line}`);
  }
  await signedInAt(page, "/admin/servers", ADMIN_STEAM_ID);
  for (const server of seedServers) {
    const schedule = page.getByTestId("wipe-schedule").filter({ hasText: `№${server.id} ${server.name}` });
    const now = flatText(await schedule.getByTestId("wipe-schedule-now").innerText());
    assert.ok(
      now.includes(`окна честной игры считаются от вайпа ${said.get(server.id)} (МСК)`),
      `${server.name}: ${now}`,
    );
  }
  await context.close();
});
