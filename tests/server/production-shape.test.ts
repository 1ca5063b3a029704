// A real shop's first day, in the shape an owner runs it (issue 34): the Node build with
// APP_ENV=production on an empty database migrated at start, behind Caddy terminating TLS with the
// README's Caddyfile, Steam and YooKassa at network addresses; and the Worker build with the same
// settings in workerd over TLS, on a local D1 only the migrations have touched. Through the proxy, in Chromium: the
// first admin from ADMIN_STEAM_IDS creates a category, an item with its command, a promo code and a
// game server; the real plugin under mono, with an https:// Site URL, heartbeats and delivers; a
// player signs in, tops up (the notification comes through the proxy), buys on the item page with and
// without JavaScript, gifts, returns, redeems the code and signs out; an operator refunds.
// Needs `npm run build:node`, caddy, openssl and mono (npm run test:server; .ci/run installs them).
// The Worker's shape rebuilds build/ for itself; `npm run test:e2e` builds its own after this.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, flatText, uniqueSteamId } from "../e2e/browser.ts";
import { buildHarness, GameServerProcess, type PluginConfig } from "../plugin/harness.ts";
import { given } from "../plugin/scenario.ts";
import { ADMIN_STEAM_ID, type ProductionSite, SHOP_HOST, type Shape, startProductionSite } from "./production-site.ts";

for (const shape of ["node", "worker"] as const) firstDay(shape);

function firstDay(shape: Shape) {
  let site: ProductionSite;
  let browser: Browser;
  let game: GameServerProcess;
  const world: { serverId?: number; serverKey?: string; itemId?: number; vipId?: number } = {};

  const PLAYER = uniqueSteamId();
  const FRIEND = uniqueSteamId();
  const rows = (sql: string) => site.rows(sql);

  describe(`the first day of a shop (${shape === "node" ? "Node behind Caddy" : "the Worker in workerd"}), production settings, an empty database`, () => {
    before(async () => {
      buildHarness();
      site = await startProductionSite(shape);
      const avatarfull = "https://avatars.steamstatic.com/fef49e7fa7e1997310d705b2a6158ff8dc1cdfeb_full.jpg";
      site.boundary.steam.player(PLAYER, { personaname: "Первый покупатель", avatarfull });
      site.boundary.steam.player(FRIEND, { personaname: "Друг покупателя", avatarfull });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        // The shop's name is this machine, as DNS says for a real shop.
        args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1`],
      });
    });

    after(async () => {
      await game?.stop();
      await browser?.close();
      await site?.stop();
    });

    async function visitor(javaScriptEnabled = true): Promise<BrowserContext> {
      const context = await browser.newContext({
        baseURL: site.publicUrl,
        javaScriptEnabled,
        locale: "ru-RU",
        viewport: { width: 1280, height: 900 },
        // Caddy's internal CA stands for the public one a real certificate chains to.
        ignoreHTTPSErrors: true,
      });
      context.setDefaultTimeout(15_000);
      // YooKassa's checkout page (https://yoomoney.ru) is the boundary fake's.
      await context.route("https://yoomoney.ru/**", async (route) => {
        const response = await route.fetch({ url: site.boundary.checkout(route.request().url()), maxRedirects: 0 });
        await route.fulfill({ response });
      });
      return context;
    }

    /** The owner's game server with the real plugin, reaching the site through the proxy's TLS. */
    function gameServer(doorbell?: PluginConfig["doorbell"]): GameServerProcess {
      assert.ok(world.serverId && world.serverKey);
      return new GameServerProcess({
        siteUrl: site.pluginUrl,
        serverId: world.serverId,
        serverKey: world.serverKey,
        trustedCertificate: site.pluginCertificate,
        trustedAuthority: site.pluginAuthority,
        doorbell,
      });
    }

    /** Signs in through Steam's sign-in page and lands on `path`. */
    async function signIn(page: Page, steamId: string, path: string): Promise<void> {
      await page.goto(`/api/auth/steam?return_to=${encodeURIComponent(path)}`);
      await page.waitForURL((url) => url.pathname === "/steam/openid/login");
      await page.getByLabel("SteamID64").fill(steamId);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL((url) => url.origin === site.publicUrl && url.pathname === path.split("?")[0], {
        timeout: 20_000,
      });
    }

    const notice = async (page: Page) => flatText(await page.getByRole("status").first().innerText());
    const balance = async (page: Page) => flatText(await page.locator("header .account__balance").innerText());

    it("starts empty: no category, no item, no server", async () => {
      const answer = await site.https("/api/server-types");
      assert.equal(answer.status, 200);
      assert.deepEqual(await rows("SELECT count(*) FROM categories"), [[0]]);
      assert.deepEqual(await rows("SELECT count(*) FROM items"), [[0]]);
      assert.deepEqual(await rows("SELECT count(*) FROM servers"), [[0]]);
    });

    it("the first admin builds the catalog, a promo code and a game server in the console", async () => {
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, ADMIN_STEAM_ID, "/admin");

      await page.goto("/admin/categories");
      await page.getByRole("textbox", { name: "Название", exact: true }).fill("Наборы");
      await page.getByRole("button", { name: "Добавить категорию" }).click();
      await page.waitForLoadState("load");
      assert.equal(await notice(page), "Категория добавлена");

      await page.goto("/admin/items/new");
      await page.getByLabel("Название", { exact: true }).fill("Набор «Дерево»");
      await page.getByLabel("Описание").fill("1 000 дерева");
      await page.getByLabel("Цена, ₽ (за 30 дней у срочных)").fill("100");
      // The pictures that ship with the site are under /images/shop/.
      await page.getByLabel("Картинка (URL)").fill("/images/shop/wood.svg");
      await page.getByLabel("Тип сервера").selectOption("SOLO");
      await page.getByLabel("Категория").selectOption({ label: "Наборы" });
      await page.getByLabel("Разовый товар").check();
      await page.getByLabel("Показывать в магазине").check();
      await page.getByLabel(/^Команды выдачи/).fill("inventory.giveto {steamid} wood 1000");
      await page.getByRole("button", { name: "Добавить товар" }).click();
      await page.waitForURL(/\/admin\/items\/\d+/);
      world.itemId = Number(/\/admin\/items\/(\d+)/.exec(page.url())?.[1]);
      assert.ok(world.itemId > 0);

      // A rank sold until the wipe (decision 130): its own price, a revoke for the wipe to run.
      await page.goto("/admin/items/new");
      await page.getByLabel("Название", { exact: true }).fill("VIP");
      await page.getByLabel("Цена, ₽ (за 30 дней у срочных)").fill("300");
      await page.getByLabel("Картинка (URL)").fill("/images/shop/vip.svg");
      await page.getByLabel("Тип сервера").selectOption("SOLO");
      await page.getByLabel("Категория").selectOption({ label: "Наборы" });
      await page.getByLabel("Показывать в магазине").check();
      await page.getByLabel(/^Сроки/).fill("до вайпа = 40");
      await page.getByLabel(/^Команды выдачи/).fill("oxide.usergroup add {steamid} vip");
      await page.getByLabel(/^Команды изъятия/).fill("oxide.usergroup remove {steamid} vip");
      await page.getByRole("button", { name: "Добавить товар" }).click();
      await page.waitForURL(/\/admin\/items\/\d+/);
      world.vipId = Number(/\/admin\/items\/(\d+)/.exec(page.url())?.[1]);
      assert.ok(world.vipId > 0);

      await page.goto("/admin/promos");
      await page.getByRole("textbox", { name: "Код", exact: true }).fill("PERVYI50");
      await page.getByLabel("Сумма, ₽ (для денег)").fill("50");
      await page.getByLabel("Лимит использований").fill("10");
      await page.getByRole("button", { name: "Создать промокод" }).click();
      await page.waitForLoadState("load");
      assert.equal(await notice(page), "Промокод создан");

      // A setting, a sale and an export: console posts of other kinds than «create».
      await page.goto("/admin/settings");
      await page.locator('input[name="returnWindowHours"]').fill("24");
      await page.getByRole("button", { name: "Сохранить" }).click();
      await page.waitForLoadState("load");
      assert.equal(await notice(page), "Настройки сохранены");
      await page.goto("/admin/sales");
      // The dated sale's form; the wipe sales' form below it has its own «Название» (decision 128).
      const sale = page.getByRole("form", { name: "Новая распродажа" });
      await sale.getByRole("textbox", { name: "Название", exact: true }).fill("Открытие");
      await sale.getByLabel(/Скидка/).fill("10");
      await sale.getByLabel(/Начало/).fill("2030-01-01T00:00");
      await sale.getByLabel(/Окончание/).fill("2030-01-02T00:00");
      await sale.getByRole("button", { name: "Создать распродажу", exact: true }).click();
      await page.waitForLoadState("load");
      assert.equal(await page.getByRole("alert").count(), 0, await page.locator("main").innerText());
      assert.deepEqual(await rows("SELECT title FROM sales"), [["Открытие"]]);
      await page.goto("/admin/exports");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Скачать CSV" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /\.csv$/);

      await page.goto("/admin/servers");
      // The new server's form; the page also has the wipe schedules' and the fair-play windows' (decisions 128, 129).
      const server = page.getByRole("form", { name: "Новый сервер" });
      await server.getByRole("textbox", { name: "Название", exact: true }).fill("Свобода #1 | SOLO");
      await server.getByRole("combobox").selectOption("SOLO");
      await server.getByLabel("Адрес (IP:порт)").fill("203.0.113.10:28015");
      await server.getByRole("button", { name: "Добавить сервер" }).click();
      await page.getByTestId("server-key").waitFor();
      world.serverKey = (await page.getByTestId("server-key").innerText()).trim();
      world.serverId = Number(/Сервер №(\d+) добавлен/.exec(await notice(page))?.[1]);
      assert.ok(world.serverId > 0 && world.serverKey.length > 20);
      await context.close();
    });

    it("the real plugin with an https:// Site URL heartbeats through the proxy", async () => {
      assert.ok(world.serverId && world.serverKey);
      game = gameServer();
      const events = await game.start();
      const requests = events.filter((event) => event.ev === "request");
      assert.ok(requests.length >= 2, JSON.stringify(events));
      for (const request of requests) assert.equal(request.code, 200, JSON.stringify(game.logs()));
      assert.deepEqual(
        game.logs("error").filter((line) => /answered|HTTPS/.test(line)),
        [],
      );
      const [beat] = await rows(`SELECT count(*) FROM server_heartbeats WHERE server_id = ${world.serverId}`);
      assert.deepEqual(beat, [1]);
    });

    it("a player tops up by card: YooKassa's notification comes through the proxy and credits once", async () => {
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, PLAYER, "/balance");
      assert.equal(await balance(page), "0 ₽");
      await page.getByLabel("Сумма пополнения, ₽").fill("500");
      await page.getByLabel("E-mail для чека").fill("player@example.com");
      await page.locator("main").getByRole("button", { name: "Пополнить" }).click();
      await page.waitForURL((url) => url.origin === "https://yoomoney.ru");
      assert.match(flatText(await page.locator("body").innerText()), /500\.00 ₽/);
      await page.getByRole("button", { name: "Оплатить" }).click();
      await page.waitForURL((url) => url.origin === site.publicUrl);
      assert.equal(await balance(page), "500 ₽");
      const credited = await rows(
        `SELECT count(*), sum(l.amount) FROM ledger l JOIN users u ON u.id = l.user_id WHERE u.steam_id = '${PLAYER}' AND l.kind = 'deposit'`,
      );
      assert.deepEqual(credited, [[1, 50_000]]);
      await context.close();
    });

    it("buys on the item page without JavaScript, then with it", async () => {
      for (const javaScriptEnabled of [false, true]) {
        const context = await visitor(javaScriptEnabled);
        const page = await context.newPage();
        await signIn(page, PLAYER, `/shop/items/${world.itemId}?server_type=SOLO`);
        if (javaScriptEnabled) await page.waitForSelector("html[data-hydrated]");
        const before = await balance(page);
        await page.getByRole("button", { name: "Купить" }).click();
        const receipt = page.getByTestId("receipt");
        await receipt.waitFor();
        assert.match(flatText(await receipt.innerText()), /Покупка совершена/);
        assert.notEqual(await balance(page), before);
        await context.close();
      }
      assert.equal(await balanceOf(PLAYER), 30_000);
    });

    it("gifts to a friend, who finds it in their Корзина", async () => {
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, PLAYER, `/shop/items/${world.itemId}?server_type=SOLO`);
      await page.getByText("В подарок другу").click();
      await page.getByLabel("SteamID64 друга или ссылка на его профиль Steam").fill(FRIEND);
      await page.getByRole("button", { name: "Показать получателя" }).click();
      assert.equal(
        flatText(await page.getByTestId("gift-recipient").textContent()),
        "Получатель подарка: Друг покупателя",
      );
      await page.getByRole("button", { name: "Подарить", exact: true }).click();
      assert.match(flatText(await page.getByTestId("receipt").innerText()), /Получатель Друг покупателя/);
      assert.equal(await balanceOf(PLAYER), 20_000);
      const gifts =
        await rows(`SELECT count(*) FROM purchases p JOIN users f ON f.id = p.gift_to_user_id JOIN users b ON b.id = p.user_id
       WHERE f.steam_id = '${FRIEND}' AND b.steam_id = '${PLAYER}'`);
      assert.deepEqual(gifts, [[1]]);
      await context.close();

      const friendContext = await visitor(false);
      const friend = await friendContext.newPage();
      await signIn(friend, FRIEND, "/profile");
      assert.equal(await friend.getByTestId("inventory-entry").filter({ hasText: "Подарок от" }).count(), 1);
      await friendContext.close();
    });

    it("returns a purchase before delivery, redeems the promo code and signs out", async () => {
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, PLAYER, "/profile");
      const card = page.getByTestId("inventory-entry").first();
      await card.getByRole("button", { name: "Вернуть" }).click();
      // Without JavaScript the page asks first.
      await page.getByRole("button", { name: "Да, вернуть" }).click();
      await page.waitForLoadState("load");
      assert.equal(await balanceOf(PLAYER), 30_000);

      await page.goto("/promocodes");
      await page.getByPlaceholder("Введите промокод").fill("PERVYI50");
      await page.getByRole("button", { name: "Активировать" }).click();
      await page.locator("header .account__balance", { hasText: "350 ₽" }).waitFor();

      await page.locator("header").getByRole("button", { name: "Выйти" }).click();
      await page.waitForLoadState("load");
      assert.equal(await page.locator("header .account__balance").count(), 0);
      await context.close();
    });

    it("the plugin delivers the remaining purchase once the player is on the server", async () => {
      await game.join(PLAYER);
      await game.advance(15);
      assert.deepEqual(given(game, PLAYER), { wood: 1000 });
      // Given, and counted delivered once the world is saved (decision 124): the save, then the next report.
      assert.deepEqual(await rows(`SELECT status FROM deliveries WHERE steam_id = '${PLAYER}'`), [["pending"]]);
      await game.send("save");
      await game.advance(15);
      const delivered = await rows(`SELECT status FROM deliveries WHERE steam_id = '${PLAYER}'`);
      assert.ok(
        delivered.some(([status]) => status === "done"),
        JSON.stringify(delivered),
      );
    });

    it("an operator refunds a purchase to the player's balance", async () => {
      const [purchase] = await rows(`SELECT p.id FROM purchases p JOIN users u ON u.id = p.user_id
       WHERE u.steam_id = '${PLAYER}' AND p.status = 'completed' AND p.gift_to_user_id IS NULL ORDER BY p.id LIMIT 1`);
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, ADMIN_STEAM_ID, `/admin/players/${PLAYER}`);
      const form = page.getByRole("form", { name: `Возврат покупки №${purchase?.[0]}` });
      await form.getByLabel(/Причина/).fill("Проверка возврата оператором");
      await form.getByRole("button", { name: "Возврат" }).click();
      await page.waitForLoadState("load");
      assert.equal(await balanceOf(PLAYER), 45_000);
      await context.close();
    });

    it("«до вайпа»: bought on the item page, delivered by the plugin, taken away once when the server wipes", async () => {
      const context = await visitor(false);
      const page = await context.newPage();
      await signIn(page, PLAYER, `/shop/items/${world.vipId}?server_type=SOLO`);
      await page.getByLabel(/до вайпа/).check();
      await page.getByRole("button", { name: "Купить" }).click();
      const receipt = flatText(await page.getByTestId("receipt").innerText());
      assert.match(receipt, /Срок до вайпа/);
      assert.match(receipt, /Цена 40 ₽/);
      assert.equal(await balanceOf(PLAYER), 41_000);

      // The owner made the group long ago; the plugin gives it and the save makes it count.
      await game.send("console oxide.group add vip");
      await game.advance(30);
      await game.send("save");
      await game.advance(30);
      assert.equal(await game.inGroup(PLAYER, "vip"), true);
      const entry = `SELECT e.status, e.expires_at FROM inventory_entries e WHERE e.item_id = ${world.vipId}`;
      assert.deepEqual(await rows(entry), [["used", null]]);
      await page.goto("/profile");
      const card = page.getByTestId("inventory-entry").filter({ hasText: "VIP" });
      assert.match(flatText(await card.innerText()), /SOLO · до вайпа .*Действует/);

      // The owner wipes: a new map; its plugin reports it, the site ends the rank, the plugin takes it away.
      await game.stop();
      // The plugin dates a map, and signs a heartbeat, in whole seconds (decision 126): a wipe in the
      // same second as the delivery, which no owner makes, would read as older than it.
      await new Promise((done) => setTimeout(done, 2000));
      game.wipe();
      await game.start();
      await game.advance(30);
      await game.send("save");
      await game.advance(30);
      assert.equal(await game.inGroup(PLAYER, "vip"), false);
      const [[status, expiresAt] = []] = await rows(entry);
      assert.equal(status, "used");
      assert.ok(Number(expiresAt) > 0, "the wipe set its end");
      assert.deepEqual(
        await rows(`SELECT d.kind, d.status FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
          WHERE e.item_id = ${world.vipId} ORDER BY d.kind`),
        [
          ["grant", "done"],
          ["revoke", "done"],
        ],
      );
      await page.reload();
      assert.match(flatText(await card.innerText()), /Закончилось с вайпом/);
      await context.close();
    });

    // The doorbell through Caddy as an owner runs it. In the Worker's shape TLS is Vite's preview server standing
    // in for Cloudflare's edge, which answers the upgrade without switching protocols; the Worker build's doorbell
    // is tested over plain HTTP (tests/plugin/doorbell.test.ts).
    if (shape === "node") {
      it("the doorbell through the proxy: with no poll due for ten minutes, a purchase reaches the online player", async () => {
        assert.ok(world.serverId && world.serverKey && world.itemId);
        await game.stop();
        // The same game server with the doorbell on (decision 148), its polls ten minutes apart: only a ring
        // explains a delivery within the test.
        game = gameServer({ pollSeconds: 600, doorbellPollSeconds: 600 });
        await game.start();
        assert.ok(await game.logged("Doorbell connected"), JSON.stringify(game.logs()));
        await game.join(PLAYER);
        const from = game.events.length;

        const context = await visitor(false);
        const page = await context.newPage();
        await signIn(page, PLAYER, `/shop/items/${world.itemId}?server_type=SOLO`);
        await page.getByRole("button", { name: "Купить" }).click();
        assert.match(flatText(await page.getByTestId("receipt").innerText()), /Покупка совершена/);
        await context.close();

        assert.ok(await game.logged("given, counted once the world is saved", from), JSON.stringify(game.logs()));
        assert.deepEqual(given(game, PLAYER, from), { wood: 1000 });
      });
    }

    // An owner restarts the Node server; a Worker is replaced by Cloudflare without a gap.
    if (shape === "node") {
      it("a restart behind the proxy: a request made while no process listens waits for the new one", async () => {
        const answer = await site.restart(() => site.https("/api/server-types"));
        assert.equal(answer.status, 200, answer.text);
      });
    }

    it("every balance equals its ledger", async () => {
      const mismatched = await rows(
        "SELECT u.steam_id FROM users u WHERE u.balance != (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.user_id = u.id)",
      );
      assert.deepEqual(mismatched, []);
    });
  });

  async function balanceOf(steamId: string): Promise<number> {
    const [row] = await rows(`SELECT balance FROM users WHERE steam_id = '${steamId}'`);
    return Number(row?.[0]);
  }
}
