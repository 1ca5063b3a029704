import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
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
import { action, loader } from "../app/routes/admin.servers.tsx";

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
        message: `Сервер №${server.id} удалён; снятий привилегий, выданных на нём, осталось без сервера: 1 — они в разделе «Доставки»`,
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
});
