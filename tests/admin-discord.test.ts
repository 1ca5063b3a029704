import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { depsFor, testClock } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer } from "#tests/support/players.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { createItem } from "#tests/support/shop-fixtures.ts";
import { raw, rows, runBatch } from "#tests/support/sql.ts";
import { strandRevokes } from "#worker/services/game/deliveries.ts";
import { DISCORD_GIVE_UP_MS, sendDiscordNotifications } from "#worker/services/notifications/discord.ts";
import { creditPayment } from "#worker/services/payments/payments.ts";
import { debitRefund } from "#worker/services/payments/refunds.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { action, loader } from "../app/routes/admin.discord.tsx";

const clock = testClock(Date.parse("2026-11-25T12:00:00Z"));
const base = `${env.PUBLIC_URL}/__standins/discord/api/webhooks`;
// Discord's endpoint is the local stand-in: the same HTTP, in-process.
const deps = depsFor({ ...env, DISCORD_WEBHOOK_BASE: base }, { now: clock.now });
const MINUTE = 60_000;

/** A webhook of its own for each test: the stand-in keeps what each one received. */
function newWebhook() {
  const id = String(100_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e15)));
  const token = `${crypto.randomUUID().replaceAll("-", "")}Tk_-${Math.floor(Math.random() * 1e4)}abcd`;
  return { id, token, url: `https://discord.com/api/webhooks/${id}/${token}` };
}

async function received(webhook: { id: string; token: string }): Promise<string[]> {
  return (await deps.fetch(`${base}/${webhook.id}/${webhook.token}`)).json();
}

async function script(webhook: { id: string; token: string }, answers: { status: number; retry_after?: number }[]) {
  const response = await deps.fetch(`${base}/${webhook.id}/${webhook.token}/script`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(answers),
  });
  expect(response.status).toBe(204);
}

async function configure(token: string, form: [string, string][]) {
  return actionResult(await action(consoleArgs(deps, "/admin/discord", { token, form })));
}

async function buy(nickname: string, itemName: string) {
  const player = await createPlayer({ deps, nickname });
  await runBatch([
    raw("INSERT INTO ledger (user_id, amount, kind) VALUES (?, 100000, 'adjustment')", player.id),
    raw("UPDATE users SET balance = balance + 100000 WHERE id = ?", player.id),
  ]);
  const itemId = await createItem({ name: itemName, price: 25_000, serverType: "Classic" });
  const bought = await purchaseItem(deps, player.id, {
    itemId,
    serverType: "Classic",
    durationDays: null,
    idempotencyKey: crypto.randomUUID(),
  });
  expect(bought.ok).toBe(true);
  return player;
}

/** The outbox rows about one player (other files' rows may share the table). */
function outboxFor(nickname: string) {
  return rows<{ attempts: number; next_attempt_at: number; last_error: string | null }>(
    "SELECT attempts, next_attempt_at, last_error FROM discord_outbox WHERE payload LIKE ?",
    `%${nickname}%`,
  );
}

/**
 * The minutely job, over this test's rows only: D1 is shared by the run's files, and another file's
 * purchase made while this test's webhook is set would queue a row for it too.
 */
async function send(tag: string) {
  await runBatch([raw("DELETE FROM discord_outbox WHERE payload NOT LIKE ?", `%${tag}%`)]);
  return sendDiscordNotifications(deps);
}

afterEach(async () => {
  // Leave no webhook behind for the other files' purchases.
  await runBatch([raw("UPDATE discord_settings SET webhook_url = NULL WHERE id = 1")]);
});

describe("Discord notifications", () => {
  it("sends a purchase once, after a 500 with backoff and a 429 as long as retry_after says", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    expect(
      (
        await configure(admin.token, [
          ["webhookUrl", webhook.url],
          ["events", "purchase"],
        ])
      ).data,
    ).toEqual({
      ok: true,
      message: "Настройки уведомлений сохранены",
    });
    await script(webhook, [{ status: 500 }, { status: 429, retry_after: 90.5 }]);
    const nickname = `Покупатель-${crypto.randomUUID().slice(0, 8)}`;
    const start = clock.now().getTime();
    await buy(nickname, "VIP «Золото»");
    expect(await outboxFor(nickname)).toHaveLength(1);

    await send(nickname); // 500
    expect(await outboxFor(nickname)).toEqual([
      { attempts: 1, next_attempt_at: start + MINUTE, last_error: "HTTP 500" },
    ]);
    clock.advance(MINUTE - 1);
    await send(nickname); // not due yet
    expect((await outboxFor(nickname))[0]?.attempts).toBe(1);
    clock.advance(1);
    await send(nickname); // 429, retry_after 90.5 s
    expect(await outboxFor(nickname)).toEqual([
      { attempts: 2, next_attempt_at: start + MINUTE + 90_500, last_error: "HTTP 429" },
    ]);
    clock.advance(90_499);
    await send(nickname);
    expect(await received(webhook)).toEqual([]);
    clock.advance(1);
    await send(nickname); // sent
    clock.advance(10 * MINUTE);
    await send(nickname);
    expect(await received(webhook)).toEqual([`🛒 Покупка: ${nickname} — «VIP „Золото“» (Classic) за 250 ₽`]);
    expect(await outboxFor(nickname)).toEqual([]);
  });

  it("shows a Steam name's markdown as text: no disguised link, and item names quoted the Russian way (issue 36)", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "purchase"],
    ]);
    const tag = crypto.randomUUID().slice(0, 8);
    const nickname = `[Проверьте оплату](https://evil.example/pay) **${tag}**`;
    await buy(nickname, "Набор «Старт»");
    await send(tag);
    expect(await received(webhook)).toEqual([
      `🛒 Покупка: \\[Проверьте оплату\\]\\(https://evil.example/pay\\) \\*\\*${tag}\\*\\* — «Набор „Старт“» (Classic) за 250 ₽`,
    ]);
  });

  it("drops a message still failing after a day, with a journal line signed by the admin who set the webhook", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "purchase"],
    ]);
    await script(
      webhook,
      Array.from({ length: 40 }, () => ({ status: 502 })),
    );
    const nickname = `Неудачник-${crypto.randomUUID().slice(0, 8)}`;
    await buy(nickname, "Кит");
    const [row] = await rows<{ id: number }>("SELECT id FROM discord_outbox WHERE payload LIKE ?", `%${nickname}%`);
    expect(row).toBeDefined();
    // Every hour for a day: each attempt fails, the backoff grows to an hour.
    for (let hour = 0; hour < 24; hour += 1) {
      await send(nickname);
      clock.advance(60 * MINUTE - 1);
    }
    expect(await outboxFor(nickname)).toHaveLength(1);
    const [created] = await rows<{ created_at: number }>("SELECT created_at FROM discord_outbox WHERE id = ?", row?.id);
    clock.set((created?.created_at ?? 0) + DISCORD_GIVE_UP_MS);
    await send(nickname);
    expect(await outboxFor(nickname)).toEqual([]);
    expect(await received(webhook)).toEqual([]);
    const journal = await auditRowsFor(deps, "discord", row?.id ?? 0);
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({
      action: "discord.drop",
      operator_steam_id: admin.steamId,
      reason: "Уведомление не удалось доставить в Discord за сутки: HTTP 502",
    });
    expect(JSON.parse(journal[0]?.before ?? "{}")).toMatchObject({ event: "purchase" });
  });

  it("tells of a provider's refund and the debt it left, and only of the events chosen", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "provider_refund"],
      ["events", "debt"],
    ]);
    const player = await createPlayer({
      deps,
      nickname: `Должник-${crypto.randomUUID().slice(0, 8)}`,
      balance: 20_000,
    });
    const paymentId = crypto.randomUUID();
    await runBatch([
      raw(
        `INSERT INTO payments (id, user_id, provider, provider_payment_id, amount, email, status, completed_at)
         VALUES (?, ?, 'yookassa', ?, 50000, 'p@example.com', 'completed', 1)`,
        paymentId,
        player.id,
        `yk-${paymentId}`,
      ),
    ]);
    expect(await debitRefund(deps, { paymentId, providerRefundId: `rf-${paymentId}`, amount: 50_000 })).toBe("debited");
    await buy(`${player.nickname}-покупка`, "Не о нём"); // purchases are not chosen: no row
    await send(player.nickname);
    expect(await received(webhook)).toEqual([
      `↩️ Возврат платежа провайдером: ${player.nickname}, 500 ₽; списано с баланса 200 ₽`,
      `❗ Игрок в долгу: ${player.nickname} должен 300 ₽ после возврата платежа; покупки закрыты до погашения`,
    ]);
  });

  it("tells of a top-up once, however many times its notification comes", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "topup"],
    ]);
    const player = await createPlayer({ deps, nickname: `Вкладчик-${crypto.randomUUID().slice(0, 8)}` });
    const paymentId = crypto.randomUUID();
    await runBatch([
      raw(
        `INSERT INTO payments (id, user_id, provider, provider_payment_id, amount, email, status)
         VALUES (?, ?, 'yookassa', ?, 49990, 'p@example.com', 'pending')`,
        paymentId,
        player.id,
        `yk-${paymentId}`,
      ),
    ]);
    const payment = { paymentId, provider: "yookassa", providerPaymentId: `yk-${paymentId}`, amount: 49_990 };
    expect(await creditPayment(deps, payment)).toBe("credited");
    expect(await creditPayment(deps, payment)).toBe("already_settled");
    await send(player.nickname);
    expect(await received(webhook)).toEqual([`💳 Пополнение: ${player.nickname} пополнил баланс на 499,90 ₽`]);
  });

  it("tells of a revoke stranded by the minutely maintenance", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "revoke_stranded"],
    ]);
    const player = await createPlayer({ deps, nickname: `Випчик-${crypto.randomUUID().slice(0, 8)}` });
    const serverType = uniqueServerType();
    const itemId = await createItem({ name: "VIP на месяц", serverType });
    const entry = await createEntry(deps, { userId: player.id, itemId, serverType, durationDays: 30 });
    // A revoke due now whose granting server is unknown: it can run nowhere.
    await runBatch([
      raw(
        `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
         VALUES (?, ?, 'revoke', ?, ?, 0, 'pending', 0, ?, ?)`,
        crypto.randomUUID(),
        entry.id,
        serverType,
        player.steamId,
        clock.now().getTime() - MINUTE,
        clock.now().getTime() - MINUTE,
      ),
    ]);
    await strandRevokes(deps);
    await send(player.nickname);
    expect(await received(webhook)).toEqual([
      `⚠️ Снятие привилегии застряло: «VIP на месяц» у ${player.nickname}: Неизвестно, какой сервер выдал привилегию; снимите её вручную`,
    ]);
  });

  it("tells of a delivery failed for good, written by the game server's acknowledgement", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "delivery_failed"],
    ]);
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    const player = await createPlayer({ deps, nickname: `Игрок-${crypto.randomUUID().slice(0, 8)}` });
    const item = await createDeliverableItem(deps, { serverType, name: "Набор «Старт»" });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    // Interrupted mid-delivery: failed at once, for an operator to check by hand.
    await sim.tick([player.steamId], { crashMidDelivery: true });
    clock.advance(1000);
    expect(await sim.restart().flushAcks()).toBe(200);
    await send(player.nickname);
    expect(await received(webhook)).toEqual([
      `⚠️ Выдача не удалась: «Набор „Старт“» для ${player.nickname} (${serverType}): Доставка прервана, проверьте вручную`,
    ]);
  });

  it("keeps the webhook secret, refuses what is not a Discord webhook, and is the admin's alone", async () => {
    const admin = await createOperator(deps, "admin");
    const webhook = newWebhook();
    await configure(admin.token, [
      ["webhookUrl", webhook.url],
      ["events", "topup"],
    ]);
    const page = await loader(consoleArgs(deps, "/admin/discord", { token: admin.token }));
    expect(page).toEqual({
      webhook: `https://discord.com/api/webhooks/…/****${webhook.token.slice(-4)}`,
      events: ["topup"],
    });
    expect(JSON.stringify(page)).not.toContain(webhook.token);

    for (const bad of [
      "https://evil.example/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz",
      "http://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz",
      "https://discord.com/api/webhooks/123456789012345678",
      "javascript:alert(1)",
    ]) {
      expect(
        await configure(admin.token, [
          ["webhookUrl", bad],
          ["events", "purchase"],
        ]),
      ).toEqual({
        status: 400,
        data: {
          ok: false,
          error:
            "Это не адрес вебхука Discord: нужен адрес вида https://discord.com/api/webhooks/<id>/<токен> из настроек канала",
        },
      });
    }
    // An empty address keeps the stored one; discordapp.com is Discord too.
    await configure(admin.token, [
      ["webhookUrl", ""],
      ["events", "purchase"],
    ]);
    expect((await loader(consoleArgs(deps, "/admin/discord", { token: admin.token }))).webhook).toBe(page.webhook);
    const other = newWebhook();
    await configure(admin.token, [["webhookUrl", other.url.replace("discord.com", "discordapp.com")]]);
    expect(await loader(consoleArgs(deps, "/admin/discord", { token: admin.token }))).toEqual({
      webhook: `https://discordapp.com/api/webhooks/…/****${other.token.slice(-4)}`,
      events: [],
    });

    const journal = await auditRowsFor(deps, "discord", "settings");
    const mine = journal.filter((row) => row.operator_steam_id === admin.steamId);
    expect(mine.map((row) => row.action)).toEqual(["discord.settings", "discord.settings", "discord.settings"]);
    expect(JSON.stringify(mine)).not.toContain(webhook.token);
    expect(JSON.parse(mine[0]?.after ?? "{}")).toEqual({ webhook: page.webhook, events: ["topup"] });

    const support = await createOperator(deps, "support");
    expect((await thrownStatus(loader(consoleArgs(deps, "/admin/discord", { token: support.token })))).status).toBe(
      403,
    );
    expect(
      (
        await thrownStatus(
          action(
            consoleArgs(deps, "/admin/discord", { token: support.token, form: [["webhookUrl", newWebhook().url]] }),
          ),
        )
      ).status,
    ).toBe(403);
    expect((await loader(consoleArgs(deps, "/admin/discord", { token: admin.token }))).webhook).toContain(
      other.token.slice(-4),
    );
  });
});
