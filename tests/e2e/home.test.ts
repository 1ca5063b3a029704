import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { seedServers } from "../../db/seed/servers.ts";
import { browserForFile, newContext, waitForHydration } from "./browser.ts";

const browser = browserForFile();

const LOADING = "Загрузка статуса серверов...";
const ERROR = "Ошибка при загрузке статуса серверов. Пожалуйста, попробуйте позже.";
const EMPTY = "Нет доступных серверов";

function cards(page: Page) {
  return page.locator(".server-card");
}

function card(page: Page, name: string) {
  return cards(page).filter({ hasText: name });
}

test("the home page shows the cover, five screenshots, the server block and the four-step guide", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const response = await page.goto("/");
  assert.equal(response?.status(), 200);
  await waitForHydration(page);

  assert.equal(await page.title(), "Свобода — бесплатные серверы Rust");
  assert.equal(await page.locator("html").getAttribute("lang"), "ru");
  const viewport = await page.locator('meta[name="viewport"]').getAttribute("content");
  assert.match(viewport ?? "", /user-scalable=no/);

  // Cover block
  assert.equal(await page.locator("h1").innerText(), "Бесплатные серверы Rust");
  const subtitle = await page.locator(".cover__subtitle").innerText();
  for (const words of ["полностью бесплатны", "добывайте ресурсы", "рейды", "скилл", "другими игроками"]) {
    assert.ok(subtitle.includes(words), `subtitle mentions «${words}»: ${subtitle}`);
  }
  assert.equal(await page.locator(".cover__discord").getAttribute("href"), "https://discord.gg/rustfree");
  assert.equal(await page.getByRole("link", { name: "Играть", exact: true }).getAttribute("href"), "#tutorial");
  assert.equal(
    await page.locator(".cover").getByRole("link", { name: "Магазин", exact: true }).getAttribute("href"),
    "/shop",
  );

  // Screenshots: five images with their size set; the first is in a phone's first screen (its largest
  // paint, so it loads at once with high priority), the rest below the fold load lazily.
  assert.equal(await page.getByRole("heading", { level: 2, name: "Скриншоты" }).count(), 1);
  const shots = page.locator(".gallery img");
  assert.equal(await shots.count(), 5);
  for (let index = 0; index < 5; index++) {
    const shot = shots.nth(index);
    assert.equal(await shot.getAttribute("width"), "640");
    assert.equal(await shot.getAttribute("height"), "360");
    assert.equal(await shot.getAttribute("loading"), index === 0 ? "eager" : "lazy");
    assert.equal(await shot.getAttribute("fetchpriority"), index === 0 ? "high" : null);
    assert.ok(((await shot.getAttribute("alt")) ?? "").length > 0);
  }
  // Every screenshot really loads once scrolled to.
  await page.locator(".gallery").scrollIntoViewIfNeeded();
  for (let index = 0; index < 5; index++) {
    await shots.nth(index).scrollIntoViewIfNeeded();
    await page.waitForFunction((i) => {
      const image = document.querySelectorAll<HTMLImageElement>(".gallery img")[i];
      return image?.complete && image.naturalWidth > 0;
    }, index);
  }

  // Servers block
  assert.equal(await page.getByRole("heading", { level: 2, name: "Серверы Rust" }).count(), 1);

  // The guide: anchor target, four steps, the three buttons and the IP/port picture on step 2
  const guide = page.locator("#tutorial");
  assert.equal(await guide.locator("ol > li").count(), 4);
  assert.equal(
    await guide.getByRole("link", { name: "Скачать", exact: true }).getAttribute("href"),
    "https://store.steampowered.com/app/252490/Rust/",
  );
  assert.match(
    (await guide.getByRole("link", { name: "Смотреть видео", exact: true }).getAttribute("href")) ?? "",
    /^https:\/\/www\.youtube\.com\//,
  );
  assert.equal(
    await guide.getByRole("link", { name: "Чат сообщества", exact: true }).getAttribute("href"),
    "https://discord.gg/rustfree",
  );
  const picture = guide.locator("ol > li").nth(1).locator("img");
  assert.equal(await picture.getAttribute("src"), "/images/ip-port.svg");
  assert.equal(await picture.getAttribute("width"), "480");

  // Play scrolls to the guide
  await page.getByRole("link", { name: "Играть", exact: true }).click();
  await page.waitForURL(/#tutorial$/);

  // Header and footer of the shell
  const header = page.locator("header");
  assert.equal(await header.getByRole("link", { name: "Главная" }).getAttribute("href"), "/");
  assert.equal(await header.getByRole("link", { name: "Магазин" }).getAttribute("href"), "/shop");
  assert.equal(
    await header.getByRole("link", { name: "Войти через Steam" }).getAttribute("href"),
    "/api/auth/steam?return_to=%2F",
  );
  const footer = page.locator("footer");
  assert.equal(await footer.getByRole("link", { name: "Discord" }).getAttribute("href"), "https://discord.gg/rustfree");
  assert.equal(await footer.getByRole("link", { name: "Пользовательское соглашение" }).getAttribute("href"), "/terms");
  assert.match(await footer.innerText(), new RegExp(`© ${new Date().getFullYear()}`));
  assert.deepEqual(problems, [], "no script errors or hydration mismatches");
  await context.close();
});

test("without JavaScript the server cards are in the page, the preloader is hidden and the address is selectable", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");

  assert.equal(await page.locator(".preloader").isVisible(), false);
  assert.ok(await page.locator("h1").isVisible());
  assert.equal(await page.getByText(LOADING).count(), 0);

  assert.equal(await cards(page).count(), seedServers.length);
  for (const server of seedServers) {
    const serverCard = card(page, server.name);
    assert.equal(await serverCard.count(), 1, server.name);
    const label = server.server_type === "NO_LIMIT" ? "NO LIMIT x5 Loot" : server.server_type;
    assert.equal(await serverCard.locator(".server-card__type").innerText(), label);
    // The cron ran against the Steam stand-in, which sees every seeded server.
    assert.equal(await serverCard.locator(".status").innerText(), "Онлайн");
    assert.match(await serverCard.locator(".server-card__players").innerText(), /^\d+\/200$/);
    assert.ok(await serverCard.getByText(server.ip_port, { exact: true }).isVisible());
    // The copy button needs JavaScript; it is not shown without it.
    assert.equal(await serverCard.getByRole("button", { name: "Скопировать IP/Port" }).isVisible(), false);
    // No plugin reports on the seeded servers: the map comes from Steam's listing (issue 36); the wipe is
    // the next one of the seeded schedule, or Steam's «born» tag when that is under a day old (decision 128).
    assert.match(await serverCard.locator(".server-card__map").innerText(), /^Procedural Map$/);
    assert.match(
      await serverCard.locator(".server-card__wipe").innerText(),
      /^вайп (был (только что|.+ назад)|(сегодня|завтра) в \d\d:\d\d\sМСК|через \d+ (день|дня|дней), (пн|вт|ср|чт|пт|сб|вс)\s\d\d:\d\d\sМСК)$/,
    );
    // Joining is the main button; copying the address the plain one.
    assert.doesNotMatch(
      (await serverCard.locator(".server-card__connect").getAttribute("class")) ?? "",
      /button--ghost/,
    );
  }
  const icon = await card(page, seedServers[4].name).locator("img").getAttribute("src");
  assert.equal(icon, "/images/server-no-limit.svg");
  assert.equal(await page.getByText("NO LIMIT x5 Loot", { exact: true }).count(), 1);
  assert.equal(await page.getByText("NO_LIMIT", { exact: true }).count(), 0);
  await context.close();
});

test("the online status is green, and the cards render on the server before any script runs", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  const color = await card(page, seedServers[0].name)
    .locator(".status")
    .evaluate((element) => getComputedStyle(element).color);
  assert.equal(color, "rgb(111, 210, 124)");
  await context.close();
});

test("Скопировать IP/Port copies the address and shows «IP/Port скопирован» for 2 seconds", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.goto("/");
  await waitForHydration(page);
  const server = seedServers[2];

  // The copy button is the plain one beside «Подключиться», the main action (issue 36).
  const copy = card(page, server.name).getByRole("button", { name: "Скопировать IP/Port" });
  assert.match((await copy.getAttribute("class")) ?? "", /button--ghost/);
  await copy.click();
  const toast = page.getByRole("status").filter({ hasText: "IP/Port скопирован" });
  await toast.waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), server.ip_port);
  await toast.waitFor({ state: "detached", timeout: 5_000 });
  await context.close();
});

test("a failing clipboard shows «Не удалось скопировать IP/Port»", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("Denied", "NotAllowedError"));
  });
  await page.goto("/");
  await waitForHydration(page);

  await cards(page).first().getByRole("button", { name: "Скопировать IP/Port" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Не удалось скопировать IP/Port" });
  await toast.waitFor({ state: "visible" });
  assert.equal(await page.getByText("IP/Port скопирован", { exact: true }).count(), 0);
  await toast.waitFor({ state: "detached", timeout: 5_000 });
  await context.close();
});

test("the preloader shows until the app is interactive, then goes away", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  // Hold the page's scripts back to look at the page before it becomes interactive.
  let release: () => void = () => {};
  const scriptsMayLoad = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  const preloader = page.locator(".preloader");
  await preloader.waitFor({ state: "visible" });
  assert.equal(await preloader.locator("use").count(), 3, "three gears");
  assert.equal(await preloader.locator("img").getAttribute("src"), "/images/logo.svg");

  release();
  await waitForHydration(page);
  await preloader.waitFor({ state: "detached", timeout: 10_000 });
  assert.ok(await page.locator("h1").isVisible());
  await context.close();
});

test("with reduced motion the gears do not spin", async () => {
  const context = await newContext(browser.current, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  // Without JavaScript the preloader is hidden, but its styles still apply.
  const animation = await page
    .locator(".gear")
    .first()
    .evaluate((element) => getComputedStyle(element).animationName);
  assert.equal(animation, "none");
  await page.emulateMedia({ reducedMotion: "no-preference" });
  const spinning = await page
    .locator(".gear")
    .first()
    .evaluate((element) => getComputedStyle(element).animationName);
  assert.equal(spinning, "gear-spin");
  await context.close();
});

test("the list refreshes from /api/server-status every 30 s and shows the error and empty texts", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.clock.install();
  await page.goto("/");
  await waitForHydration(page);
  assert.equal(await cards(page).count(), seedServers.length);

  await page.route("**/api/server-status", (route) => route.fulfill({ status: 500, body: "oops" }));
  await page.clock.fastForward(30_000);
  await page.getByText(ERROR, { exact: true }).waitFor();
  assert.equal(await cards(page).count(), 0);

  await page.unroute("**/api/server-status");
  await page.route("**/api/server-status", (route) => route.fulfill({ json: { servers: [] } }));
  await page.clock.fastForward(30_000);
  await page.getByText(EMPTY, { exact: true }).waitFor();

  await page.unroute("**/api/server-status");
  await page.route("**/api/server-status", (route) => route.fulfill({ json: {} }));
  await page.clock.fastForward(30_000);
  await page.getByText(EMPTY, { exact: true }).waitFor();

  await page.unroute("**/api/server-status");
  await page.route("**/api/server-status", (route) =>
    route.fulfill({
      json: {
        servers: [
          {
            name: "Тестовый сервер | MODDED",
            server_type: "MODDED",
            status: "restarting",
            players: { current: 3, max: 50 },
            ip_port: "203.0.113.7:28015",
          },
        ],
      },
    }),
  );
  await page.clock.fastForward(30_000);
  const fresh = card(page, "Тестовый сервер | MODDED");
  await fresh.waitFor();
  // An unknown type keeps its name and uses the VANILLA icon; any status but online is red.
  assert.equal(await fresh.locator("img").getAttribute("src"), "/images/server-vanilla.svg");
  assert.equal(await fresh.locator(".server-card__type").innerText(), "MODDED");
  assert.equal(await fresh.locator(".status").innerText(), "Оффлайн");
  assert.equal(
    await fresh.locator(".status").evaluate((element) => getComputedStyle(element).color),
    "rgb(255, 122, 107)",
  );
  assert.equal(await fresh.locator(".server-card__players").innerText(), "3/50");
  await context.close();
});

test("the real /api/server-status answer keeps the cards as the server rendered them", async () => {
  const context = await newContext(browser.current);
  const page = await context.newPage();
  await page.clock.install();
  await page.goto("/");
  await waitForHydration(page);
  const refreshed = page.waitForResponse("**/api/server-status");
  await page.clock.fastForward(30_000);
  assert.equal((await refreshed).status(), 200);
  for (const server of seedServers) await card(page, server.name).waitFor();
  assert.equal(await page.getByText(ERROR).count(), 0);
  await context.close();
});
