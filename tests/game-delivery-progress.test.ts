// The site's half of decision 124, spoken as plugin 3 speaks it: each command's progress is reported
// and kept with the delivery, a delivery is done once every command is saved, a retry stays with the
// server where something took effect while it lives and carries the progress when it moves, a
// failure counts once per lease, and «Повторить» says what it will run and where.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveries, itemCommands, servers } from "#db/schema.ts";
import { consoleArgs, createOperator } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  rewindDelivery,
  uniqueServerType,
} from "#tests/support/game-fixtures.ts";
import { createPlayer } from "#tests/support/players.ts";
import { answerSignature, PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { Plugin3 } from "#tests/support/plugin3.ts";
import { firstRow } from "#tests/support/sql.ts";
import { LEASE_MS } from "#worker/services/game/deliveries.ts";
import { ALIVE_AFTER_HEARTBEAT_MS } from "#worker/services/game/liveness.ts";
import { action, loader } from "../app/routes/admin.deliveries.tsx";

const MINUTE = 60_000;

async function world(grant = ["inventory.giveto {steamid} wood 1000", "oxide.grant user {steamid} kits.x"]) {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const player = await createPlayer({ deps, nickname: "Строитель" });
  const item = await createDeliverableItem(deps, { serverType, grant, name: "Набор «Дом»" });
  const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
  const transport = clockedTransport(clock.now);
  const pluginFor = async (name: string) => {
    const server = await createGameServer(deps, { serverType, name });
    return {
      server,
      plugin: new Plugin3(
        new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now }),
        server.key,
      ),
    };
  };
  const row = async () => {
    const [found] = await deps.db.orm.select().from(deliveries).where(eq(deliveries.inventoryEntryId, entry.id));
    if (!found) throw new Error("no delivery");
    return found;
  };
  const online = [player.steamId];
  const tick = () => clock.advance(1000);
  return { clock, deps, serverType, player, item, entry, pluginFor, row, online, tick };
}

describe("each command's progress (decision 124)", () => {
  it("keeps what each command did; a command given and not yet saved holds the delivery; done once all are saved", async () => {
    const { pluginFor, row, online, tick, entry } = await world();
    const { server, plugin } = await pluginFor("A");
    const [served] = await plugin.poll(online);
    expect(served).toMatchObject({ done: [], lease: 1, retry: 0 });
    const id = served?.delivery_id ?? "";

    tick();
    const given = await plugin.report([{ delivery_id: id, ok: false, progress: "gg", lease: 1 }]);
    expect(given.json.results).toEqual([{ delivery_id: id, status: "progress" }]);
    const held = await row();
    expect(held).toMatchObject({ status: "pending", homeServerId: server.id, leaseUntil: null });
    expect(held.savingSince).not.toBeNull();
    expect(JSON.parse(held.progress ?? "[]").map((c: { state: string }) => c.state)).toEqual(["given", "given"]);
    // Waiting for the world's save: nobody gets it, not even its own server.
    tick();
    expect(await plugin.poll(online)).toEqual([]);
    const { plugin: twin } = await pluginFor("B");
    expect(await twin.poll(online)).toEqual([]);

    tick();
    const saved = await plugin.report([{ delivery_id: id, ok: true, progress: "ss", lease: 1 }]);
    expect(saved.json.results).toEqual([{ delivery_id: id, status: "done" }]);
    expect(await row()).toMatchObject({ status: "done", doneServerId: server.id, savingSince: null });
    expect(await firstRow("SELECT status, used_server_id FROM inventory_entries WHERE id = ?", entry.id)).toMatchObject(
      {
        status: "used",
        used_server_id: server.id,
      },
    );
  });

  it("a poll writes nothing while its player's delivery waits for the world's save or for the server holding it (decision 126)", async () => {
    const { pluginFor, row, online, tick, clock } = await world();
    const { server, plugin } = await pluginFor("A");
    const { server: other, plugin: twin } = await pluginFor("B");
    const [served] = await plugin.poll(online);
    const id = served?.delivery_id ?? "";
    tick();
    await plugin.report([{ delivery_id: id, ok: false, progress: "gg", lease: 1 }]);
    const marks = () =>
      firstRow(
        "SELECT server_id, newest, recent FROM game_request_marks WHERE server_id IN (?, ?) ORDER BY server_id",
        server.id,
        other.id,
      );
    const before = { delivery: await row(), marks: await marks() };
    // Its player online on both servers, polls every 30 s for ten minutes: the delivery waits for A's
    // save, nobody leases it, and neither poll is recorded (a recorded poll is a row written).
    for (let poll = 0; poll < 20; poll++) {
      clock.advance(30_000);
      expect(await plugin.poll(online)).toEqual([]);
      expect(await twin.poll(online)).toEqual([]);
    }
    expect({ delivery: await row(), marks: await marks() }).toEqual(before);
    // A's heartbeat stops: B still doesn't take it (A's journal knows what ran), and still writes nothing.
    clock.advance(ALIVE_AFTER_HEARTBEAT_MS);
    expect(await twin.poll(online)).toEqual([]);
    expect({ delivery: await row(), marks: await marks() }).toEqual(before);
  });

  it("fixes the commands at the first lease: an edit of the item later does not shift what ran", async () => {
    const { pluginFor, row, online, tick, deps, item } = await world();
    const { plugin } = await pluginFor("A");
    const [served] = await plugin.poll(online);
    const id = served?.delivery_id ?? "";
    tick();
    await plugin.report([
      { delivery_id: id, ok: false, progress: "sf", lease: 1, message: "Право не зарегистрировано" },
    ]);
    // The operator puts a command in front of the others.
    await deps.db.orm
      .insert(itemCommands)
      .values({ itemId: item.id, phase: "grant", template: "say {nickname} строит дом", sortOrder: -1 });
    await deps.db.orm.update(deliveries).set({ notBefore: 0 }).where(eq(deliveries.id, id));
    tick();
    const [retry] = await plugin.poll(online);
    expect(retry?.commands).toEqual(served?.commands);
    expect(retry).toMatchObject({ done: [0], lease: 2 });
    expect((await row()).attempts).toBe(1);
  });

  it("counts a failure once per lease: the same failure sent again after a re-lease is a duplicate", async () => {
    const { pluginFor, row, online, tick, deps } = await world();
    const { plugin } = await pluginFor("A");
    const [served] = await plugin.poll(online);
    const id = served?.delivery_id ?? "";
    const failure = { delivery_id: id, ok: false, progress: "sf", lease: 1, message: "Kits не загружен" };
    tick();
    expect((await plugin.report([failure])).json.results).toEqual([{ delivery_id: id, status: "retry" }]);
    await deps.db.orm.update(deliveries).set({ notBefore: 0 }).where(eq(deliveries.id, id));
    tick();
    expect(await plugin.poll(online)).toMatchObject([{ delivery_id: id, lease: 2, done: [0] }]);
    // The plugin never heard the first answer and sends its failure again, under the old lease.
    tick();
    expect((await plugin.report([failure])).json.results).toEqual([{ delivery_id: id, status: "duplicate" }]);
    expect(await row()).toMatchObject({ attempts: 1, status: "pending" });
    // The retry itself fails: that one counts.
    tick();
    expect((await plugin.report([{ ...failure, lease: 2 }])).json.results).toEqual([
      { delivery_id: id, status: "retry" },
    ]);
    expect((await row()).attempts).toBe(2);
  });

  it("a retry stays with the server where a command took effect; once it is silent, another gets it with the progress", async () => {
    const { pluginFor, online, tick, clock, deps } = await world();
    const a = await pluginFor("A");
    const b = await pluginFor("B");
    expect((await a.plugin.sim.heartbeat(online)).status).toBe(200);
    const [served] = await a.plugin.poll(online);
    const id = served?.delivery_id ?? "";
    tick();
    await a.plugin.report([{ delivery_id: id, ok: false, progress: "sf", lease: 1, message: "Kits не загружен" }]);
    await deps.db.orm.update(deliveries).set({ notBefore: 0 }).where(eq(deliveries.id, id));

    // The player moved to B: A lives, so B gets nothing and the wood is never given twice.
    tick();
    expect(await b.plugin.poll(online)).toEqual([]);
    clock.advance(ALIVE_AFTER_HEARTBEAT_MS);
    expect(await b.plugin.poll(online)).toMatchObject([{ delivery_id: id, done: [0], lease: 2 }]);
  });

  it("a delivery the plugin did not start is released with its next poll, for any server of the type", async () => {
    const { pluginFor, row, online, tick } = await world();
    const a = await pluginFor("A");
    const b = await pluginFor("B");
    const [served] = await a.plugin.poll(online);
    const id = served?.delivery_id ?? "";
    // The player was dead: A did not start it, and says so when it polls next (the player is gone from A).
    tick();
    expect(await a.plugin.poll([], [{ delivery_id: id, lease: 1 }])).toEqual([]);
    expect(await row()).toMatchObject({ leaseUntil: null, leasedServerId: null });
    tick();
    expect(await b.plugin.poll(online)).toMatchObject([{ delivery_id: id, lease: 2, done: [] }]);
  });

  it("a lease never reported binds the delivery to its holder, silent or not: it may have run it", async () => {
    const { pluginFor, online, tick, clock } = await world();
    const a = await pluginFor("A");
    const b = await pluginFor("B");
    await a.plugin.poll(online);
    clock.advance(LEASE_MS + 60 * MINUTE);
    expect(await b.plugin.poll(online)).toEqual([]);
    tick();
    expect(await a.plugin.poll(online)).toHaveLength(1);
  });

  it("answers a report that does not fit the delivery with a signed 400 naming it, and changes nothing", async () => {
    const { pluginFor, row, online, tick } = await world();
    const { plugin, server } = await pluginFor("A");
    const [served] = await plugin.poll(online);
    const id = served?.delivery_id ?? "";
    const before = await row();
    tick();
    const answer = await plugin.report([{ delivery_id: id, ok: true, progress: "sss", lease: 1 }]);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: "Неверный формат запроса", delivery_ids: [id] });
    expect(answer.json.response_signature).toBe(
      await answerSignature(server.key, `${answer.requestSignature}\ninvalid\n${id}`),
    );
    expect(await row()).toEqual(before);
  });

  it("«Повторить» says what it will run and where, keeps what was saved and takes the item's fixed command", async () => {
    const { pluginFor, row, online, tick, clock, deps, item, serverType, player } = await world([
      "inventory.giveto {steamid} wood 1000",
      "inventory.giveto {steamid} rifle.ak47 1",
    ]);
    const { plugin, server } = await pluginFor("Свобода #1");
    expect((await plugin.sim.heartbeat(online)).status).toBe(200);
    let [served] = await plugin.poll(online);
    const id = served?.delivery_id ?? "";
    for (let lease = 1; lease <= 5; lease++) {
      tick();
      await plugin.report([
        { delivery_id: id, ok: false, progress: "sf", lease, message: "Нет такого предмета в Rust: rifle.ak47" },
      ]);
      await deps.db.orm.update(deliveries).set({ notBefore: 0 }).where(eq(deliveries.id, id));
      tick();
      if (lease < 5) [served] = await plugin.poll(online);
    }
    expect(await row()).toMatchObject({ status: "failed", attempts: 5 });
    await deps.db.orm
      .update(itemCommands)
      .set({ template: "inventory.giveto {steamid} rifle.ak 1" })
      .where(eq(itemCommands.template, "inventory.giveto {steamid} rifle.ak47 1"));
    expect(item.id).toBeGreaterThan(0);

    const support = await createOperator(deps, "support");
    const page = await loader(consoleArgs(deps, `/admin/deliveries?type=${serverType}`, { token: support.token }));
    const [listed] = page.rows;
    expect(listed?.commandProgress.map((c) => [c.number, c.state, c.serverId])).toEqual([
      [1, "saved", server.id],
      [2, "failed", server.id],
    ]);
    expect(listed?.retryPlan).toBe(
      `Повторить выполнит: 2. inventory.giveto ${player.steamId} rifle.ak 1 — на сервере №${server.id} «Свобода #1» — уже выполнены и не повторятся: 1.`,
    );

    const result = await action(
      consoleArgs(deps, "/admin/deliveries", { token: support.token, form: { intent: "retry", deliveryId: id } }),
    );
    expect(result).toBeInstanceOf(Response);
    tick();
    const [again] = await plugin.poll(online);
    expect(again).toMatchObject({
      delivery_id: id,
      commands: [`inventory.giveto ${player.steamId} wood 1000`, `inventory.giveto ${player.steamId} rifle.ak 1`],
      done: [0],
      retry: 1,
    });
    clock.advance(1000);
  });

  it("after a restore from a backup the type waits until each server has re-sent what the site forgot; an operator may stop waiting for one", async () => {
    const { pluginFor, row, online, tick, deps, serverType } = await world(["inventory.giveto {steamid} wood 1000"]);
    const a = await pluginFor("A");
    const b = await pluginFor("B");
    const [served] = await a.plugin.poll(online);
    const id = served?.delivery_id ?? "";
    tick();
    const done = await a.plugin.report([{ delivery_id: id, ok: true, progress: "s", lease: 1 }]);
    expect(done.json).toMatchObject({ results: [{ delivery_id: id, status: "done" }], ack_seq: 1 });

    // The owner restores a backup from before that delivery (npm run db:restore marks every server).
    await rewindDelivery(deps, id);
    await deps.db.orm.update(servers).set({ ackSeq: 0, needsResync: true }).where(eq(servers.serverType, serverType));

    // B has nothing to re-send, but A has not re-sent yet: nothing of the type moves.
    tick();
    const first = await b.plugin.sim.post("/api/game/queue", { online, site_seq: 0 });
    expect(first.json).toMatchObject({ deliveries: [], resync_from: 0 });
    tick();
    expect(await b.plugin.sim.post("/api/game/queue", { online, site_seq: 0, resynced: true })).toMatchObject({
      json: { deliveries: [] },
    });
    const support = await createOperator(deps, "support");
    const page = await loader(consoleArgs(deps, `/admin/deliveries?type=${serverType}`, { token: support.token }));
    expect(page.awaited.map((server) => server.id)).toEqual([a.server.id]);

    // A polls with the counter it saw, is told to re-send, and does: the forgotten row is taken as done.
    tick();
    const asked = await a.plugin.sim.post("/api/game/queue", { online, site_seq: 1 });
    expect(asked.json).toMatchObject({ deliveries: [], resync_from: 0 });
    tick();
    const again = await a.plugin.report([{ delivery_id: id, ok: true, progress: "s", lease: 1 }]);
    expect(again.json.results).toEqual([{ delivery_id: id, status: "done" }]);
    expect(await row()).toMatchObject({ status: "done", doneServerId: a.server.id });
    tick();
    await a.plugin.sim.post("/api/game/queue", { online, site_seq: 1, resynced: true });
    expect((await loader(consoleArgs(deps, "/admin/deliveries", { token: support.token }))).awaited).toEqual([]);

    // A server that never comes back: the operator stops waiting for it.
    await deps.db.orm.update(servers).set({ needsResync: true }).where(eq(servers.id, b.server.id));
    const skipped = await action(
      consoleArgs(deps, "/admin/deliveries", {
        token: support.token,
        form: { intent: "skip-resync", serverId: String(b.server.id) },
      }),
    );
    expect(skipped).toBeInstanceOf(Response);
    expect((await loader(consoleArgs(deps, "/admin/deliveries", { token: support.token }))).awaited).toEqual([]);
  });
});
