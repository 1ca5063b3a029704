import { sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { lastServerQueueText } from "#core/messages/admin.ts";
import { PURCHASE_ERRORS } from "#core/messages/shop.ts";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  createLegacyGameServer,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer, uniqueSteamId } from "#tests/support/players.ts";
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { CATALOG_TRUST_MS } from "#worker/services/shop/catalog-snapshot.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import AdminServers, { action, loader } from "../app/routes/admin.servers.tsx";

const clock = testClock();
const deps = testDeps({ now: clock.now });

const post = (token: string, form: Record<string, string>) =>
  action(consoleArgs(deps, "/admin/servers", { token, form })).then(actionResult);

function simulator(serverId: number, serverKey: string) {
  return new PluginSimulator({ transport: clockedTransport(clock.now), serverId, serverKey, now: clock.now });
}

const randomAddress = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}:28015`;

describe("Серверы", () => {
  it("answers an intent it doesn't have with 400 and adds nothing (it once ran «Добавить»)", async () => {
    const admin = await createOperator(deps, "admin");
    const ipPort = randomAddress();
    const form = { intent: "rotate-all", name: "Свобода #43 | SOLO", serverType: "SOLO", ipPort };
    expect(await post(admin.token, form)).toEqual({ status: 400, data: { ok: false, error: "Неизвестное действие" } });
    const rows = await deps.db.orm.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM servers WHERE ip_port = ${ipPort}`);
    expect(rows[0]?.n).toBe(0);
  });

  it("adds a server whose key, shown once, signs the plugin's requests; a new key retires the old one", async () => {
    const admin = await createOperator(deps, "admin");
    const ipPort = randomAddress();
    const added = await post(admin.token, { intent: "add", name: "Свобода #42 | SOLO", serverType: "SOLO", ipPort });
    expect(added.status).toBe(200);
    const { serverId, key } = added.data as { serverId: number; key: string };
    expect(key).toMatch(/^rsk_[\w-]{43}$/);

    const plugin = simulator(serverId, key);
    expect((await plugin.heartbeat([uniqueSteamId()])).status).toBe(200);
    const list = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(list.servers.find((server) => server.id === serverId)).toMatchObject({ ipPort, online: true, hasKey: true });
    // The page never carries a key.
    expect(JSON.stringify(list)).not.toContain(key);

    const rotated = await post(admin.token, { intent: "rotate", serverId: String(serverId) });
    const fresh = (rotated.data as { key: string }).key;
    expect(fresh).not.toBe(key);
    clock.advance(1000);
    expect((await plugin.heartbeat([])).status).toBe(401);
    expect((await simulator(serverId, fresh).heartbeat([])).status).toBe(200);
    const audit = await auditRowsFor(deps, "server", serverId);
    expect(audit.map((row) => row.action)).toEqual(["server.add", "server.rotate_key"]);
    expect(audit.some((row) => `${row.before}${row.after}`.includes(fresh))).toBe(false);
  });

  it("flags a server with a key from before decision 103 until «Новый ключ» replaces it", async () => {
    const admin = await createOperator(deps, "admin");
    const legacy = await createLegacyGameServer(deps);
    const list = async () =>
      (await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }))).servers.find(
        (server) => server.id === legacy.id,
      );
    expect(await list()).toMatchObject({ hasKey: true, legacyKey: true });
    expect((await simulator(legacy.id, legacy.key).heartbeat([])).status).toBe(200);
    const rotated = await post(admin.token, { intent: "rotate", serverId: String(legacy.id) });
    expect(rotated.status).toBe(200);
    expect(await list()).toMatchObject({ hasKey: true, legacyKey: false });
    clock.advance(1000);
    expect((await simulator(legacy.id, legacy.key).heartbeat([])).status).toBe(401);
    expect((await simulator(legacy.id, (rotated.data as { key: string }).key).heartbeat([])).status).toBe(200);
  });

  it("refuses a bad or taken address in Russian; support can't open servers", async () => {
    const admin = await createOperator(deps, "admin");
    expect(await post(admin.token, { intent: "add", name: "X", serverType: "SOLO", ipPort: "example.com" })).toEqual({
      status: 400,
      data: { ok: false, error: "Адрес в виде 1.2.3.4:28015" },
    });
    expect(
      await post(admin.token, { intent: "add", name: "X", serverType: "SOLO", ipPort: "999.2.3.8:99999" }),
    ).toEqual({ status: 400, data: { ok: false, error: "Адрес в виде 1.2.3.4:28015" } });
    const ipPort = randomAddress();
    await post(admin.token, { intent: "add", name: "A", serverType: "SOLO", ipPort });
    expect(await post(admin.token, { intent: "add", name: "B", serverType: "MAX2", ipPort })).toEqual({
      status: 409,
      data: { ok: false, error: "Сервер с таким адресом уже есть" },
    });
    const support = await createOperator(deps, "support");
    expect((await thrownStatus(loader(consoleArgs(deps, "/admin/servers", { token: support.token })))).status).toBe(
      403,
    );
  });

  it("removes a server only once it holds no leased delivery; the revokes of ranks it granted are left to an operator", async () => {
    const admin = await createOperator(deps, "admin");
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType, name: "Свобода #77 | Тест" });
    const item = await createDeliverableItem(deps, {
      serverType,
      revoke: ["oxide.usergroup remove {steamid} vip"],
      durations: [30],
    });
    const player = await createPlayer({ deps });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType, durationDays: 30 });
    const plugin = simulator(server.id, server.key);
    const polled = await plugin.poll([player.steamId]);
    expect(polled.deliveries).toHaveLength(1);

    // Leased: the plugin may be running it, and its acknowledgement must find the server.
    expect(await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes" })).toEqual({
      status: 409,
      data: {
        ok: false,
        error: "Сервер сейчас выполняет доставки: удалите его, когда он их подтвердит (не позже чем через 5 минут)",
      },
    });
    expect((await plugin.ack([{ delivery_id: polled.deliveries[0]?.delivery_id ?? "", ok: true }])).status).toBe(200);

    expect(await post(admin.token, { intent: "remove", serverId: String(server.id) })).toEqual({
      status: 400,
      data: { ok: false, error: "Отметьте «Удалить навсегда», чтобы удалить сервер" },
    });
    const removed = await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes" });
    expect(removed).toEqual({
      status: 200,
      data: {
        ok: true,
        serverId: server.id,
        message: `Сервер №${server.id} удалён; снятий привилегий, выданных на нём, осталось без сервера: 1 — они в разделе «Доставки». Серверов типа ${serverType} больше нет: магазин не продаёт его товары, пока не добавлен новый`,
      },
    });

    const list = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(list.servers.some((row) => row.id === server.id)).toBe(false);
    clock.advance(1000);
    expect((await plugin.heartbeat([])).status).toBe(401);
    const revokes = await deps.db.orm.all<{ status: string; last_error: string }>(
      sql`SELECT d.status, d.last_error FROM deliveries d JOIN inventory_entries e ON e.id = d.inventory_entry_id
          WHERE e.user_id = ${player.id} AND d.kind = 'revoke'`,
    );
    expect(revokes).toEqual([
      {
        status: "stranded",
        last_error: `Сервер #${server.id} «Свобода #77 | Тест», выдавший привилегию, удалён; снимите её вручную по окончании срока`,
      },
    ]);
    const audit = await auditRowsFor(deps, "server", server.id);
    expect(audit.map((row) => row.action)).toEqual(["server.remove"]);
    expect(JSON.parse(audit[0]?.before ?? "{}")).toMatchObject({ name: "Свобода #77 | Тест", pending_revokes: 1 });

    expect(await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes" })).toEqual({
      status: 404,
      data: { ok: false, error: "Сервер не найден" },
    });
  });

  it("warns with the count before removing the last server of a type with items waiting, and removes it only when confirmed", async () => {
    const admin = await createOperator(deps, "admin");
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType, name: "Свобода #88 | Последний" });
    const item = await createDeliverableItem(deps, { serverType, name: "Набор" });
    const players = await Promise.all([1, 2, 3].map(() => createPlayer({ deps, balance: 50_000 })));
    for (const player of players) {
      const bought = await purchaseItem(deps, player.id, {
        itemId: item.id,
        serverType,
        durationDays: null,
        idempotencyKey: crypto.randomUUID(),
      });
      expect(bought.ok).toBe(true);
    }

    // The first submit only warns, with the count (the grants are not even queued yet: a purchase
    // a moment ago counts), and offers a second form that confirms.
    const warned = await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes" });
    expect(warned).toEqual({
      status: 409,
      data: {
        ok: false,
        error: `На этот тип серверов (${serverType}) ждут выдачи 3 предмета, а это последний сервер типа ${serverType}. После удаления они останутся в очереди и будут выданы, когда появится сервер этого типа; до тех пор магазин не продаёт товары ${serverType}.`,
        queued: { serverId: server.id, serverType, waiting: 3 },
      },
    });
    const listed = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(listed.servers.some((row) => row.id === server.id)).toBe(true);
    expect(await auditRowsFor(deps, "server", server.id)).toEqual([]);
    // Still sold while the server is there.
    expect(await getItem(deps, item.id)).toMatchObject({ is_available: true, no_server: false });

    const removed = await post(admin.token, {
      intent: "remove",
      serverId: String(server.id),
      confirm: "yes",
      confirmQueued: "yes",
    });
    expect(removed).toEqual({
      status: 200,
      data: {
        ok: true,
        serverId: server.id,
        message: `Сервер №${server.id} удалён. Серверов типа ${serverType} больше нет: магазин не продаёт его товары, пока не добавлен новый; в очереди 3 предмета — они будут выданы, когда появится сервер этого типа`,
      },
    });
    const [audit] = await auditRowsFor(deps, "server", server.id);
    expect(JSON.parse(audit?.before ?? "{}")).toMatchObject({ last_of_type: true, grants_waiting: 3 });

    // The type is not sold now: the item page and the API say so, a purchase is refused, no money moves.
    expect(await getItem(deps, item.id)).toMatchObject({ is_available: false, no_server: true });
    const refused = await purchaseItem(deps, players[0]?.id ?? 0, {
      itemId: item.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(refused).toEqual({ ok: false, status: 409, error: PURCHASE_ERRORS.noServer });
    const page = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(page.unserved).toContainEqual({ serverType, waiting: 3 });

    // A server of the type again (here as SQL typed by hand: the console offers only the spec's types):
    // its row moves the catalog's revision, so within the 5 s a kept catalog is trusted the type is
    // sold again, and the queue that waited is delivered to it.
    const { id: serverId, key } = await createGameServer(deps, { serverType, name: "Свобода #89 | Новый" });
    clock.advance(CATALOG_TRUST_MS);
    expect(await getItem(deps, item.id)).toMatchObject({ is_available: true, no_server: false });
    const plugin = simulator(serverId, key);
    const polled = await plugin.poll(players.map((player) => player.steamId));
    expect(polled.deliveries.map((delivery) => delivery.steam_id).toSorted()).toEqual(
      players.map((player) => player.steamId).toSorted(),
    );
    const acked = await plugin.ack(
      polled.deliveries.map((delivery) => ({ delivery_id: delivery.delivery_id, ok: true })),
    );
    expect(acked.status).toBe(200);
    const after = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(after.unserved.some((type) => type.serverType === serverType)).toBe(false);
    const again = await purchaseItem(deps, players[0]?.id ?? 0, {
      itemId: item.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(again.ok).toBe(true);
  });

  it("removes the last server of a type without a warning when nothing waits, and another of a type with a queue", async () => {
    const admin = await createOperator(deps, "admin");
    const serverType = uniqueServerType();
    const first = await createGameServer(deps, { serverType });
    const second = await createGameServer(deps, { serverType });
    const item = await createDeliverableItem(deps, { serverType });
    const player = await createPlayer({ deps, balance: 50_000 });
    const bought = await purchaseItem(deps, player.id, {
      itemId: item.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(bought.ok).toBe(true);
    // Another server of the type stays: no warning, the type is still sold.
    expect(await post(admin.token, { intent: "remove", serverId: String(first.id), confirm: "yes" })).toMatchObject({
      status: 200,
      data: { ok: true, message: `Сервер №${first.id} удалён` },
    });
    expect(await getItem(deps, item.id)).toMatchObject({ is_available: true, no_server: false });
    // Once delivered, nothing waits: the last one goes at once, saying the type is no longer sold.
    const plugin = simulator(second.id, second.key);
    const polled = await plugin.poll([player.steamId]);
    expect(polled.deliveries).toHaveLength(1);
    await plugin.ack([{ delivery_id: polled.deliveries[0]?.delivery_id ?? "", ok: true }]);
    expect(await post(admin.token, { intent: "remove", serverId: String(second.id), confirm: "yes" })).toEqual({
      status: 200,
      data: {
        ok: true,
        serverId: second.id,
        message: `Сервер №${second.id} удалён. Серверов типа ${serverType} больше нет: магазин не продаёт его товары, пока не добавлен новый`,
      },
    });
    expect(await getItem(deps, item.id)).toMatchObject({ is_available: false, no_server: true });
  });

  it("says the count with the right Russian plural", () => {
    const forms = [1, 2, 5, 11, 21, 3364].map((count) => lastServerQueueText("SOLO", count).split(",")[0]);
    expect(forms).toEqual([
      "На этот тип серверов (SOLO) ждут выдачи 1 предмет",
      "На этот тип серверов (SOLO) ждут выдачи 2 предмета",
      "На этот тип серверов (SOLO) ждут выдачи 5 предметов",
      "На этот тип серверов (SOLO) ждут выдачи 11 предметов",
      "На этот тип серверов (SOLO) ждут выдачи 21 предмет",
      "На этот тип серверов (SOLO) ждут выдачи 3\u00a0364 предмета",
    ]);
  });

  it("moves the catalog's revision when the console adds or removes a server, so the shop sees the change at once", async () => {
    const admin = await createOperator(deps, "admin");
    const revision = async () =>
      (await deps.db.orm.all<{ revision: number }>(sql`SELECT revision FROM catalog_revision WHERE id = 1`))[0]
        ?.revision ?? 0;
    const before = await revision();
    const added = await post(admin.token, {
      intent: "add",
      name: "Свобода #90",
      serverType: "MAX3",
      ipPort: randomAddress(),
    });
    const { serverId } = added.data as { serverId: number };
    const afterAdd = await revision();
    expect(afterAdd).toBeGreaterThan(before);
    // A new key is not a catalog change.
    await post(admin.token, { intent: "rotate", serverId: String(serverId) });
    expect(await revision()).toBe(afterAdd);
    await post(admin.token, { intent: "remove", serverId: String(serverId), confirm: "yes", confirmQueued: "yes" });
    expect(await revision()).toBeGreaterThan(afterAdd);
  });

  it("shows the warning with a plain form that confirms, and the types left unsold", async () => {
    const admin = await createOperator(deps, "admin");
    const serverType = uniqueServerType();
    const server = await createGameServer(deps, { serverType });
    const item = await createDeliverableItem(deps, { serverType });
    const player = await createPlayer({ deps, balance: 50_000 });
    await purchaseItem(deps, player.id, {
      itemId: item.id,
      serverType,
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
    });
    const warned = await action(
      consoleArgs(deps, "/admin/servers", {
        token: admin.token,
        form: { intent: "remove", serverId: String(server.id), confirm: "yes" },
      }),
    );
    const page = (actionData: unknown) =>
      renderToStaticMarkup(
        createElement(RouterProvider, {
          router: createMemoryRouter(
            [
              {
                path: "/admin/servers",
                // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
                element: createElement(AdminServers, { loaderData: listed, actionData } as any),
              },
            ],
            { initialEntries: ["/admin/servers"] },
          ),
        }),
      );
    const listed = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    const markup = page(actionResult(warned).data);
    expect(markup).toContain(`ждут выдачи 1 предмет, а это последний сервер типа ${serverType}`);
    const warning = markup.slice(markup.indexOf('data-testid="server-queue-warning"'));
    // The warning's own form, up to the end of the warning: it posts back to this page.
    const form = warning.slice(0, warning.indexOf("</div>"));
    expect(form).toMatch(/<form [^>]*action="\/admin\/servers" method="post">/);
    for (const field of [
      '<input type="hidden" name="intent" value="remove"/>',
      `<input type="hidden" name="serverId" value="${server.id}"/>`,
      '<input type="hidden" name="confirm" value="yes"/>',
      '<input type="hidden" name="confirmQueued" value="yes"/>',
    ]) {
      expect(form).toContain(field);
    }
    expect(form).toContain("Удалить всё равно");

    await post(admin.token, { intent: "remove", serverId: String(server.id), confirm: "yes", confirmQueued: "yes" });
    const after = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    const unsold = renderToStaticMarkup(
      createElement(RouterProvider, {
        router: createMemoryRouter(
          // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
          [{ path: "/", element: createElement(AdminServers, { loaderData: after } as any) }],
        ),
      }),
    );
    expect(unsold).toContain("Эти типы серверов не продаются, пока не добавлен сервер такого типа:");
    expect(unsold).toContain(`${serverType}: нет сервера; ждут выдачи 1 предмет`);
  });

  it("shows each server's doorbell as its last heartbeat told, an older plugin's heartbeat still taken (decision 146)", async () => {
    const admin = await createOperator(deps, "admin");
    const servers = await Promise.all([1, 2, 3].map(() => createGameServer(deps)));
    const beats: Record<string, unknown>[] = [{ doorbell: true }, { doorbell: false }, {}];
    for (const [index, server] of servers.entries()) {
      expect((await simulator(server.id, server.key).heartbeat([], beats[index])).status).toBe(200);
    }
    const listed = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(servers.map(({ id }) => listed.servers.find((server) => server.id === id)?.doorbell)).toEqual([
      true,
      false,
      null,
    ]);
    const page = renderToStaticMarkup(
      createElement(RouterProvider, {
        router: createMemoryRouter(
          // biome-ignore lint/suspicious/noExplicitAny: the route's generated props, filled by hand
          [{ path: "/", element: createElement(AdminServers, { loaderData: listed } as any) }],
        ),
      }),
    );
    expect(page).toContain("Звонок: подключён");
    expect(page).toContain("Звонок: нет — опрос раз в 30 с");
    expect(page).toContain("Звонок: плагин без звонка — опрос раз в 30 с");

    // A plugin that connects again is written at once, not after the heartbeat's usual 50 s.
    clock.advance(1000);
    const [, second] = servers;
    if (!second) throw new Error("no server");
    expect((await simulator(second.id, second.key).heartbeat([], { doorbell: true })).status).toBe(200);
    const again = await loader(consoleArgs(deps, "/admin/servers", { token: admin.token }));
    expect(again.servers.find((server) => server.id === second.id)?.doorbell).toBe(true);
  });
});
