// The Корзина's states as a player reads them, each reached the way it happens: deliveries through the
// game plugin's API (the simulator signs like the real plugin), a refund through the operator console.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider, type RouterProvider as RP } from "react-router";
import { describe, expect, it } from "vitest";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { actionResult, consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer } from "#tests/support/players.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { api, createItem } from "#tests/support/profile-fixtures.ts";
import { sessionCookie } from "#tests/support/sign-in.ts";
import type { Deps } from "#worker/deps.ts";
import { createSession } from "#worker/services/auth/sessions.ts";
import { InventoryList } from "../app/components/profile/inventory-list.tsx";
import { action as playerAction } from "../app/routes/admin.player.tsx";
import { loader as inventoryLoader } from "../app/routes/profile.inventory.tsx";
import { middleware } from "../app/routes/profile.tsx";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The Корзина page's loader for the player, its list rendered, reduced to visible text and links. */
async function korzina(deps: Deps, token: string): Promise<{ text: string; html: string }> {
  const url = "http://localhost/profile";
  const request = new Request(url, { headers: { Cookie: sessionCookie(token).cookie } });
  const context = createRouterContext(deps);
  const args = { request, context, params: {}, url: new URL(url), pattern: "/profile" };
  const [run] = middleware;
  if (!run) throw new Error("no middleware");
  await run(args as never, async () => new Response(null));
  // biome-ignore lint/suspicious/noExplicitAny: the route's generated args type
  const data = await inventoryLoader(args as any);
  const router = createMemoryRouter(
    [
      {
        path: "/profile",
        element: createElement(InventoryList, { items: data.items, now: data.now, servers: data.servers }),
      },
    ],
    { initialEntries: ["/profile"] },
  );
  const html = renderToStaticMarkup(createElement(RouterProvider as typeof RP, { router }));
  return { html, text: html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ") };
}

async function world({ durations = [] as number[] } = {}) {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType, name: "Свобода #9 | MAX 2" });
  const player = await createPlayer({ deps });
  const item = await createDeliverableItem(deps, {
    serverType,
    requiresOnline: true,
    durations,
    grant: ["oxide.grant user {steamid} kits.start"],
    revoke: durations.length > 0 ? ["oxide.revoke user {steamid} kits.start"] : [],
    name: "Набор «Старт»",
  });
  const sim = new PluginSimulator({
    transport: clockedTransport(clock.now),
    serverId: server.id,
    serverKey: server.key,
    now: clock.now,
  });
  return { clock, deps, serverType, server, player, item, sim };
}

describe("the Корзина, one state at a time", () => {
  it("waiting: names the server type to join and links to each of its servers", async () => {
    const { deps, serverType, server, player, item, sim } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    // The player is not on the server: nothing is handed out.
    expect((await sim.poll([])).deliveries).toEqual([]);

    const { text, html } = await korzina(deps, player.token);
    expect(text).toContain("Ждёт выдачи");
    expect(text).toContain(`Зайдите на сервер ${serverType} — предмет придёт автоматически.`);
    expect(html).toContain(`href="steam://connect/${server.ipPort}"`);
    expect(text).toContain("Подключиться: Свобода #9 | MAX 2");
    expect(text).not.toContain("Использован");
  });

  it("delivered and running: active until the term's end, then expired", async () => {
    const { deps, serverType, player, item, sim, clock } = await world({ durations: [30] });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType, durationDays: 30 });
    const [served] = (await sim.poll([player.steamId])).deliveries;
    expect(served?.commands).toEqual([`oxide.grant user ${player.steamId} kits.start`]);
    expect((await sim.ack([{ delivery_id: served?.delivery_id ?? "", ok: true }])).status).toBe(200);

    const active = await korzina(deps, player.token);
    expect(active.text).toContain("Действует");
    expect(active.text).toMatch(/Действует до \d\d\.\d\d\.\d{4}, \d\d:\d\d\sМСК · осталось 30 дней/);
    expect(active.text).not.toContain("Ждёт выдачи");

    clock.advance(31 * DAY);
    // A month later the first session has run out: the player signs in again.
    const { token } = await createSession(deps, player.id);
    const expired = await korzina(deps, token);
    expect(expired.text).toMatch(/Срок истёк \d\d\.\d\d\.\d{4}, \d\d:\d\d/);
    expect(expired.text).not.toContain("Действует до");
  });

  it("given in the game and not yet saved: «Выдаётся», then «Получен» once the server's world is saved (decision 124)", async () => {
    const { deps, serverType, player, item, sim, clock } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const [served] = (await sim.poll([player.steamId])).deliveries;
    const report = (progress: string) => {
      clock.advance(1000);
      return sim.post("/api/game/ack", {
        results: [{ delivery_id: served?.delivery_id ?? "", ok: progress === "s", progress, lease: 1 }],
      });
    };
    expect((await report("g")).status).toBe(200);
    const delivering = await korzina(deps, player.token);
    expect(delivering.text).toContain("Выдаётся");
    expect(delivering.text).toContain(
      "Уже в игре: покупка отметится выданной после ближайшего сохранения сервера (обычно до 10 минут).",
    );
    expect(delivering.text).not.toContain("Ждёт выдачи");
    // /store in the game doesn't list it as waiting: it is in the player's inventory.
    expect((await sim.pending(player.steamId)).json.items).toEqual([]);

    expect((await report("s")).status).toBe(200);
    const received = await korzina(deps, player.token);
    expect(received.text).toMatch(/Получен Выдан в игре \d\d\.\d\d\.\d{4}, \d\d:\d\d/);
    expect(received.text).not.toContain("Выдаётся");
  });

  it("delivered once: received, with the day", async () => {
    const { deps, serverType, player, item, sim } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const [served] = (await sim.poll([player.steamId])).deliveries;
    await sim.ack([{ delivery_id: served?.delivery_id ?? "", ok: true }]);
    const { text } = await korzina(deps, player.token);
    expect(text).toMatch(/Получен Выдан в игре \d\d\.\d\d\.\d{4}, \d\d:\d\d/);
    expect(text).not.toContain("Ждёт выдачи");
  });

  it("failed: the player's reason, never the plugin's note, and that it will be retried", async () => {
    const { deps, serverType, player, item, sim, clock } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    for (let attempt = 0; attempt < 5; attempt++) {
      const [served] = (await sim.poll([player.steamId])).deliveries;
      expect(served).toBeDefined();
      await sim.ack([{ delivery_id: served?.delivery_id ?? "", ok: false, message: "Kit start was not found" }]);
      // While retries remain the player still just waits.
      if (attempt < 4) expect((await korzina(deps, player.token)).text).toContain("Ждёт выдачи");
      clock.advance(61 * MINUTE);
    }
    const { text } = await korzina(deps, player.token);
    expect(text).toContain("Не удалось выдать");
    expect(text).toContain("Сервер не смог выдать предмет.");
    expect(text).not.toContain("Kit start was not found");
    expect(text).toContain("Выдача будет повторена: администратор видит ошибку.");
  });

  it("refunded: the money went back to the balance", async () => {
    const deps = testDeps();
    const admin = await createOperator(deps, "admin");
    const player = await createPlayer({ deps, balance: 50_000 });
    const item = await createItem(deps, { name: "Кит «Старт»" });
    const bought = await api(`/purchase/items/${item.id}`, { token: player.token, body: { server_type: "SOLO" } });
    expect(bought.status).toBe(201);
    const purchaseId = (bought.json as unknown as { purchase: { id: number } }).purchase.id;
    const refund = await playerAction(
      consoleArgs(deps, `/admin/players/${player.steamId}`, {
        token: admin.token,
        params: { steamId: player.steamId },
        form: { intent: "refund", purchaseId, reason: "Игрок передумал" },
      }),
    ).then(actionResult);
    expect(refund.status).toBe(302);
    const { text } = await korzina(deps, player.token);
    expect(text).toContain("Возвращён");
    expect(text).toContain("Покупка отменена, деньги вернулись на баланс.");
  });
});
