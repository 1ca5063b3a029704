import { describe, expect, it } from "vitest";
import { LEASE_MS } from "#worker/services/game/deliveries.ts";
import { ALIVE_AFTER_HEARTBEAT_MS } from "#worker/services/game/liveness.ts";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { testClock, testDeps } from "./support/deps.ts";
import {
  clockedTransport,
  createDeliverableItem,
  createEntry,
  createGameServer,
  uniqueServerType,
} from "./support/game-fixtures.ts";
import { createPlayer } from "./support/players.ts";
import { PluginSimulator } from "./support/plugin-simulator.ts";
import { firstRow, rows } from "./support/sql.ts";

const MINUTE = 60_000;
/** The simulator checked the answer's signature; the test sees it is there. */
const SIGNED = { response_signature: expect.stringMatching(/^[0-9a-f]{64}$/) };
/** An accepted acknowledgement's answer also carries the server's counter, signed for plugin 3 (decision 124). */
const ACK_SIGNED = {
  ...SIGNED,
  ack_seq: expect.any(Number),
  response_signature_v3: expect.stringMatching(/^[0-9a-f]{64}$/),
};
const DAY = 24 * 60 * MINUTE;

async function world({
  requiresOnline = true,
  grant,
  revoke,
  durations,
  nickname,
}: {
  requiresOnline?: boolean;
  grant?: string[];
  revoke?: string[];
  durations?: number[];
  nickname?: string;
} = {}) {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const server = await createGameServer(deps, { serverType, name: "Свобода #9 | MAX 2" });
  const player = await createPlayer({ deps, nickname });
  const item = await createDeliverableItem(deps, { serverType, requiresOnline, grant, revoke, durations });
  const transport = clockedTransport(clock.now);
  const sim = new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now });
  const simFor = (other: { id: number; key: string }) =>
    new PluginSimulator({ transport, serverId: other.id, serverKey: other.key, now: clock.now });
  return { clock, deps, serverType, server, player, item, sim, simFor };
}

function entryRow(id: number) {
  return firstRow("SELECT * FROM inventory_entries WHERE id = ?", id);
}

async function deliveryRows(entryId: number) {
  return rows("SELECT * FROM deliveries WHERE inventory_entry_id = ? ORDER BY kind", entryId);
}

describe("delivery queue and acknowledgements", () => {
  it("gives a plugin before 3.0 nothing and says why in its console; its heartbeats still count (decision 134)", async () => {
    const { deps, player, item, sim, serverType } = await world();
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    expect((await sim.heartbeat([player.steamId])).status).toBe(200);
    // Plugin 2.0 polls with the online players only (no counter: it can't re-send after a restore).
    const signed = await sim.sign("/api/game/queue", { online: [player.steamId] });
    const answer = await sim.send(signed);
    const text = await answer.text();
    expect(answer.status).toBe(426);
    // What 2.0 prints for it (git show 55fc412:plugins/oxide/RustStoreDelivery.cs, Poll: PrintWarning
    // "Queue answered {0}: {1}" with the answer cut at 200 characters by Short): the whole reason.
    expect(text.length).toBeLessThanOrEqual(200);
    expect(`Queue answered ${answer.status}: ${text}`).toBe(
      'Queue answered 426: {"error":"Плагин старше 3.0 не получает выдач: после восстановления сайта он выдал бы их снова. Обновите RustStoreDelivery.cs до 3.x"}',
    );
    expect(await deliveryRows(entry.id)).toEqual([]);
    expect(await entryRow(entry.id)).toMatchObject({ status: "not_used" });
    // Upgraded to 3.x, the same server is served.
    expect((await sim.poll([player.steamId])).deliveries).toHaveLength(1);
  });

  it("serves a grant once to an online player and marks the Корзина entry used; repeated polls and acks change nothing", async () => {
    const { deps, server, player, item, sim, serverType, clock } = await world({
      grant: ["oxide.usergroup add {steamid} vip", "say {nickname} получил VIP на {server}"],
    });
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });

    expect((await sim.poll([])).deliveries).toEqual([]);
    const first = await sim.poll([player.steamId]);
    expect(first.status).toBe(200);
    expect(first.deliveries).toEqual([
      {
        // Derived from the entry (decision 124): an RFC 9562 version-8 id.
        delivery_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        kind: "grant",
        steam_id: player.steamId,
        requires_online: true,
        title: "VIP",
        duration_days: null,
        commands: [`oxide.usergroup add ${player.steamId} vip`, "say Игрок получил VIP на Свобода #9 | MAX 2"],
        done: [],
        lease: 1,
        retry: 0,
      },
    ]);
    const id = first.deliveries[0]?.delivery_id ?? "";
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);

    clock.advance(1000);
    const ack = await sim.ack([{ delivery_id: id, ok: true }]);
    expect(ack).toMatchObject({ status: 200, json: { results: [{ delivery_id: id, status: "done" }], ...ACK_SIGNED } });
    const used = await entryRow(entry.id);
    expect(used).toMatchObject({
      status: "used",
      used_at: clock.now().getTime(),
      used_server_id: server.id,
      expires_at: null,
      last_error: null,
    });
    const [delivered] = await deliveryRows(entry.id);
    expect(delivered).toMatchObject({ status: "done", done_server_id: server.id, attempts: 0 });

    clock.advance(1000);
    const again = await sim.ack([{ delivery_id: id, ok: true }]);
    expect(again.json).toEqual({ results: [{ delivery_id: id, status: "duplicate" }], ...ACK_SIGNED });
    const lateFailure = await sim.ack([{ delivery_id: id, ok: false, message: "late" }]);
    expect(lateFailure.status).toBe(200);
    expect(await entryRow(entry.id)).toEqual(used);
    expect(await deliveryRows(entry.id)).toEqual([delivered]);

    clock.advance(LEASE_MS + 30 * MINUTE);
    expect((await sim.poll([player.steamId])).deliveries).toEqual([]);
  });

  it("never serves a delivery to a server of another type", async () => {
    const { deps, player, item, sim, serverType } = await world({ requiresOnline: false });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const otherType = await createGameServer(deps, { serverType: uniqueServerType() });
    const other = new PluginSimulator({
      transport: clockedTransport(deps.now),
      serverId: otherType.id,
      serverKey: otherType.key,
      now: deps.now,
    });
    expect((await other.poll([player.steamId])).deliveries).toEqual([]);
    expect((await sim.poll([player.steamId])).deliveries).toHaveLength(1);
  });

  it("refuses acks for another server's deliveries with 403 and for unknown ids with 404, changing nothing", async () => {
    const { deps, player, item, sim, simFor, serverType, clock } = await world();
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const twin = simFor(await createGameServer(deps, { serverType }));
    const [served] = (await sim.poll([player.steamId])).deliveries;
    const id = served?.delivery_id ?? "";
    // Leased: the other server of the same type doesn't get it.
    expect((await twin.poll([player.steamId])).deliveries).toEqual([]);
    const entryBefore = await entryRow(entry.id);
    const deliveriesBefore = await deliveryRows(entry.id);

    const stolen = await twin.ack([{ delivery_id: id, ok: true }]);
    expect(stolen.status).toBe(403);
    expect(stolen.json).toEqual({ error: "Доставки выданы другому серверу", delivery_ids: [id], ...SIGNED });
    clock.advance(1000);
    const stolenFailure = await twin.ack([{ delivery_id: id, ok: false, message: "x" }]);
    expect(stolenFailure.status).toBe(403);

    const unknown = crypto.randomUUID();
    const mixed = await sim.ack([
      { delivery_id: id, ok: true },
      { delivery_id: unknown, ok: true },
    ]);
    expect(mixed.status).toBe(404);
    expect(mixed.json).toEqual({ error: "Неизвестные доставки", delivery_ids: [unknown], ...SIGNED });

    // Nothing changed but the console's mark that the twin acknowledged it (decision 104).
    expect(await entryRow(entry.id)).toEqual(entryBefore);
    expect(await deliveryRows(entry.id)).toEqual(
      deliveriesBefore.map((row) => ({
        ...row,
        ack_refused_at: clock.now().getTime(),
        ack_refused_server_id: twin.serverId,
      })),
    );

    // A done delivery stays refused to the server that didn't do it.
    expect((await sim.ack([{ delivery_id: id, ok: true }])).status).toBe(200);
    clock.advance(1000); // a new request, not a replay of the first refused one
    expect((await twin.ack([{ delivery_id: id, ok: true }])).status).toBe(403);
  });

  it("gives one delivery to only one of two servers polling at the same moment", async () => {
    const { deps, player, item, sim, simFor, serverType } = await world({ requiresOnline: false });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const twin = simFor(await createGameServer(deps, { serverType }));
    const [a, b] = await Promise.all([sim.poll([]), twin.poll([])]);
    expect((a?.deliveries.length ?? 0) + (b?.deliveries.length ?? 0)).toBe(1);
  });

  it("serves an unacknowledged delivery again to the same server after the lease, never to another while that lease is unreported (decision 124)", async () => {
    const { deps, player, item, sim, simFor, serverType, clock } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const twin = simFor(await createGameServer(deps, { serverType }));
    const [served] = (await sim.poll([player.steamId])).deliveries;
    clock.advance(LEASE_MS);
    expect((await twin.poll([player.steamId])).deliveries).toEqual([]);
    const [again] = (await sim.poll([player.steamId])).deliveries;
    expect(again?.delivery_id).toBe(served?.delivery_id);
    // The holder never reports and never heartbeats: it may have run it, so nobody else runs it.
    for (const wait of [LEASE_MS + 30 * MINUTE, DAY]) {
      clock.advance(wait);
      expect((await twin.poll([player.steamId])).deliveries).toEqual([]);
    }
    const [holder] = (await sim.poll([player.steamId])).deliveries;
    expect(holder?.delivery_id).toBe(served?.delivery_id);
  });

  it("keeps a reported delivery with its home while the home heartbeats, and hands it over once it has been silent 3 minutes", async () => {
    const { deps, player, item, sim, simFor, serverType, clock } = await world();
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const twin = simFor(await createGameServer(deps, { serverType }));
    expect((await sim.heartbeat([player.steamId])).status).toBe(200);
    const [served] = (await sim.poll([player.steamId])).deliveries;
    const id = served?.delivery_id ?? "";
    // Its plugin reports a failure: the lease ends, and the retry stays with this server.
    expect((await sim.ack([{ delivery_id: id, ok: false, message: "Группа vip не найдена" }])).status).toBe(200);

    for (let minute = 0; minute < 40; minute += 2) {
      clock.advance(2 * MINUTE);
      expect((await sim.heartbeat([player.steamId])).status).toBe(200);
      expect((await twin.poll([player.steamId])).deliveries).toEqual([]);
    }

    // Its last heartbeat is three minutes old: it is gone, the twin takes the retry.
    clock.advance(ALIVE_AFTER_HEARTBEAT_MS - 1000);
    expect((await twin.poll([player.steamId])).deliveries).toEqual([]);
    clock.advance(1000);
    const [handedOff] = (await twin.poll([player.steamId])).deliveries;
    expect(handedOff?.delivery_id).toBe(id);
  });

  it("an interrupted delivery fails at once with «Доставка прервана, проверьте вручную»; acking it again is a duplicate", async () => {
    const { deps, player, item, sim, serverType, clock } = await world({
      grant: ["oxide.usergroup add {steamid} vip", "say done"],
    });
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const [served] = await sim.tick([player.steamId], { crashMidDelivery: true });
    const id = served?.delivery_id ?? "";
    expect(sim.console.commandsFor(id)).toEqual([`oxide.usergroup add ${player.steamId} vip`]);

    // Restarted: the journal says it started and never finished; it is reported, never run again.
    const restarted = sim.restart();
    clock.advance(1000);
    expect(await restarted.flushAcks()).toBe(200);
    expect(await deliveryRows(entry.id)).toMatchObject([
      { status: "failed", attempts: 1, last_error: "Доставка прервана, проверьте вручную", lease_until: null },
    ]);
    expect(await entryRow(entry.id)).toMatchObject({
      status: "not_used",
      last_error: "Доставка прервана, проверьте вручную",
    });
    expect((await restarted.pending(player.steamId)).json.items).toEqual([
      { name: "VIP", duration_days: null, failed: true },
    ]);

    clock.advance(1000);
    const again = await restarted.ack([{ delivery_id: id, ok: false, interrupted: true }]);
    expect(again.json).toEqual({ results: [{ delivery_id: id, status: "duplicate" }], ...ACK_SIGNED });
    clock.advance(LEASE_MS + 30 * MINUTE);
    expect(await restarted.tick([player.steamId])).toEqual([]);
    expect(restarted.console.executed).toHaveLength(1);
  });

  it("retries a failure with a growing delay and shows the reason in the Корзина after five failures", async () => {
    const { deps, player, item, sim, serverType, clock } = await world();
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const online = [player.steamId];
    const delays = [1, 5, 15, 60].map((minutes) => minutes * MINUTE);

    for (const [attempt, delay] of delays.entries()) {
      const [served] = (await sim.poll(online)).deliveries;
      expect(served).toBeDefined();
      const id = served?.delivery_id ?? "";
      const failed = await sim.ack([{ delivery_id: id, ok: false, message: `Unknown command #${attempt + 1}` }]);
      expect(failed).toMatchObject({
        status: 200,
        json: { results: [{ delivery_id: id, status: "retry" }], ...ACK_SIGNED },
      });
      // The same failure reported twice is counted once.
      const repeated = await sim.ack([{ delivery_id: id, ok: false, message: "again" }]);
      expect(repeated.json).toEqual({ results: [{ delivery_id: id, status: "duplicate" }], ...ACK_SIGNED });
      const [row] = await deliveryRows(entry.id);
      expect(row).toMatchObject({
        status: "pending",
        attempts: attempt + 1,
        not_before: clock.now().getTime() + delay,
        last_error: `Unknown command #${attempt + 1}`,
      });
      expect((await entryRow(entry.id))?.last_error).toBeNull();
      clock.advance(delay - 1);
      expect((await sim.poll(online)).deliveries).toEqual([]);
      clock.advance(1);
    }

    const [last] = (await sim.poll(online)).deliveries;
    const id = last?.delivery_id ?? "";
    const final = await sim.ack([{ delivery_id: id, ok: false, message: "No such group: vip" }]);
    expect(final.json).toEqual({ results: [{ delivery_id: id, status: "failed" }], ...ACK_SIGNED });
    expect(await entryRow(entry.id)).toMatchObject({
      status: "not_used",
      last_error: "Не удалось выдать предмет на сервере: No such group: vip",
    });
    clock.advance(DAY);
    expect((await sim.poll(online)).deliveries).toEqual([]);
    expect((await sim.pending(player.steamId)).json).toEqual({
      items: [{ name: "VIP", duration_days: null, failed: true }],
      ...SIGNED,
    });
  });

  it("renders the templates and keeps a player's nickname from injecting console commands", async () => {
    const { deps, player, item, sim, serverType } = await world({
      nickname: `Evil"; quit;\nserver.stop 'x' \\ `,
      grant: ['say "{nickname}" got {days} days', "oxide.usergroup add {steamid} vip"],
      durations: [30],
    });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType, durationDays: 30 });
    const [served] = (await sim.poll([player.steamId])).deliveries;
    expect(served?.commands).toEqual([
      'say "Evil quit server.stop x" got 30 days',
      `oxide.usergroup add ${player.steamId} vip`,
    ]);
  });

  it("serves a delivery that may run offline without its player online, and lists waiting items without leasing them", async () => {
    const { deps, player, item, sim, serverType } = await world({ requiresOnline: false });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType, durationDays: 7 });
    expect((await sim.pending(player.steamId)).json).toEqual({
      items: [{ name: "VIP", duration_days: 7, failed: false }],
      ...SIGNED,
    });
    const [served] = (await sim.poll([])).deliveries;
    expect(served).toMatchObject({ steam_id: player.steamId, requires_online: false });
  });

  it("sets the expiry on delivery of a timed item and serves its revoke only when the time is up", async () => {
    const { deps, player, item, sim, serverType, clock } = await world({
      grant: ["oxide.usergroup add {steamid} vip"],
      revoke: ["oxide.usergroup remove {steamid} vip"],
      durations: [30],
    });
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType, durationDays: 30 });
    const [grant] = (await sim.poll([player.steamId])).deliveries;
    await sim.ack([{ delivery_id: grant?.delivery_id ?? "", ok: true }]);
    const deliveredAt = clock.now().getTime();
    expect(await entryRow(entry.id)).toMatchObject({ status: "used", expires_at: deliveredAt + 30 * DAY });

    clock.advance(30 * DAY - 1);
    expect((await sim.poll([])).deliveries).toEqual([]);
    clock.advance(1);
    const [revoke] = (await sim.poll([])).deliveries;
    expect(revoke).toMatchObject({
      kind: "revoke",
      requires_online: false,
      commands: [`oxide.usergroup remove ${player.steamId} vip`],
    });
    expect((await sim.ack([{ delivery_id: revoke?.delivery_id ?? "", ok: true }])).status).toBe(200);
    expect(await deliveryRows(entry.id)).toMatchObject([
      { kind: "grant", status: "done" },
      { kind: "revoke", status: "done", not_before: deliveredAt + 30 * DAY },
    ]);
  });

  it("a poll queues the grants of the entries made since the last one; the upkeep adds a missing grant hourly and a missing revoke daily, other minutes don't look", async () => {
    const { deps, server, player, item, sim, serverType, clock } = await world({
      revoke: ["oxide.usergroup remove {steamid} vip"],
      durations: [1],
    });
    const waitingList = async () =>
      JSON.parse(
        (
          await firstRow<{ ids: string }>(
            "SELECT entry_ids AS ids FROM deliveries_waiting WHERE server_type = ?",
            serverType,
          )
        )?.ids ?? "[]",
      );
    // A new entry is listed for its type (decision 126); the next poll of a server of the type queues
    // its grant, with the id decision 124 derives from the entry, and takes it off the list.
    const bought = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    expect(await waitingList()).toEqual([bought.id]);
    expect(await deliveryRows(bought.id)).toEqual([]);
    expect((await sim.poll([])).deliveries).toEqual([]);
    expect(await deliveryRows(bought.id)).toMatchObject([{ kind: "grant", status: "pending" }]);
    expect(await waitingList()).toEqual([]);

    // Entries whose listing was lost (made before the trigger, or by hand and taken off): one
    // waiting without its grant, one delivered before its item had revoke commands.
    const [waiting] = await rows<{ id: number }>(
      `INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status, created_at)
       VALUES (?1, ?2, ?3, 1, 0, 'not_used', ?4) RETURNING id`,
      player.id,
      item.id,
      serverType,
      clock.now().getTime(),
    );
    const [expired] = await rows<{ id: number }>(
      `INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status, used_at, expires_at, used_server_id, created_at)
       VALUES (?1, ?2, ?3, 1, 0, 'used', ?4, ?4, ?5, ?4) RETURNING id`,
      player.id,
      item.id,
      serverType,
      clock.now().getTime(),
      server.id,
    );
    if (!waiting || !expired) throw new Error("no entries");
    await rows("UPDATE deliveries_waiting SET entry_ids = '[]' WHERE server_type = ?", serverType);
    await sim.heartbeat([]);

    // A minute that isn't the hour's first: only due revokes are looked at.
    clock.set(Date.parse("2026-11-22T12:37:00Z"));
    expect(await runGameMaintenance(deps)).toMatchObject({ backstop: false, grantsQueued: 0, revokesQueued: 0 });
    expect(await deliveryRows(waiting.id)).toEqual([]);

    // The hour's first minute: the grant; the revoke waits for the day's first minute.
    clock.set(Date.parse("2026-11-22T13:00:00Z"));
    const report = await runGameMaintenance(deps);
    expect(report).toMatchObject({ backstop: true, revokesQueued: 0 });
    expect(report.grantsQueued).toBeGreaterThanOrEqual(1);
    expect(await deliveryRows(waiting.id)).toMatchObject([{ kind: "grant", status: "pending" }]);
    expect(await deliveryRows(expired.id)).toEqual([]);
    clock.set(Date.parse("2026-11-23T00:00:00Z"));
    expect((await runGameMaintenance(deps)).revokesQueued).toBeGreaterThanOrEqual(1);
    expect(await deliveryRows(expired.id)).toMatchObject([{ kind: "revoke", status: "pending" }]);
    expect((await runGameMaintenance(deps)).revokesQueued).toBe(0);

    // The backstop reads the last day's entries and ranks, not the whole history: an entry made two
    // days before, unlisted and without its grant, is an owner's to look at (the console lists it as waiting).
    const [old] = await rows<{ id: number }>(
      `INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status, created_at)
       VALUES (?1, ?2, ?3, 1, 0, 'not_used', ?4) RETURNING id`,
      player.id,
      item.id,
      serverType,
      Date.parse("2026-11-23T00:00:00Z"),
    );
    await rows("UPDATE deliveries_waiting SET entry_ids = '[]' WHERE server_type = ?", serverType);
    clock.set(Date.parse("2026-11-25T00:00:00Z"));
    expect(await runGameMaintenance(deps)).toMatchObject({ backstop: true, grantsQueued: 0, revokesQueued: 0 });
    expect(await deliveryRows(old?.id ?? 0)).toEqual([]);
  });
});
