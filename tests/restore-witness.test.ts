// Decision 133: the site notices a restore it was not told about. A database put back behind its
// back (D1 Time Travel, Turso's restore, a file copied over) is behind the witness the site keeps
// outside it, and the next minute's cron holds every type's deliveries until each server has sent
// again what it delivered since — so another server of the type can't give it a second time.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveries, inventoryEntries, servers } from "#db/schema.ts";
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
import { PluginSimulator } from "#tests/support/plugin-simulator.ts";
import { runScheduled } from "#worker/cron/index.ts";
import type { Deps } from "#worker/deps.ts";
import { rebuildWaiting } from "#worker/services/game/poll.ts";
import { RESTORE_MARKER_KEY } from "#worker/services/payments/after-restore.ts";
import { runAfterRestoreSteps } from "#worker/services/restore/after-restore.ts";
import { type DetectedRestore, RESTORE_KEY } from "#worker/services/restore/watch.ts";
import { STATUS_KEY } from "#worker/services/server-status.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The minutely cron, as the Worker's trigger and the Node server's schedule run it. */
const cron = (deps: Deps) => runScheduled("* * * * *", deps, { serverStatus: { steamTimeoutMs: 25 } });

async function serverList(deps: Deps) {
  const transport = clockedTransport(deps.now);
  const response = await transport(new Request("http://localhost:5173/api/server-status"));
  expect(response.status).toBe(200);
  return (await response.json()) as { servers: { name: string }[] };
}

describe("the site's witness of its progress (decision 133)", () => {
  // First in the file: the database is as a new site's, with nothing in it yet.
  it("a fresh, empty site is not taken for a restored one, even beside an earlier site's witness, and its first server delivers", async () => {
    const clock = testClock(Date.parse("2026-11-20T12:00:00Z"));
    const deps = testDeps({ now: clock.now });
    // The witness of a site whose database was deleted to start over (its file left in data/, or its
    // status document left in KV).
    const earlier = { at: clock.now().getTime() - DAY, progress: { ledger: 500, entries: 300, acks: { "1": 40 } } };
    if (deps.witness) await deps.witness.write(earlier);
    else await deps.kv.put(STATUS_KEY, JSON.stringify({ updated_at: earlier.at, servers: [], witness: earlier }));
    await cron(deps);
    clock.advance(3 * MINUTE);
    await cron(deps);
    expect(await deps.kv.get(RESTORE_KEY)).toBeNull();

    const serverType = uniqueServerType();
    const player = await createPlayer({ deps, nickname: "Первый" });
    const item = await createDeliverableItem(deps, { serverType, grant: ["inventory.giveto {steamid} wood 1000"] });
    await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const server = await createGameServer(deps, { serverType, name: "Первый сервер" });
    clock.advance(MINUTE);
    await cron(deps);
    expect(await deps.kv.get(RESTORE_KEY)).toBeNull();

    const sim = new PluginSimulator({
      transport: clockedTransport(clock.now),
      serverId: server.id,
      serverKey: server.key,
      now: clock.now,
    });
    const poll = await sim.post("/api/game/queue", { online: [player.steamId], site_seq: 0 });
    expect(poll.json.resync_from).toBeUndefined();
    expect(poll.json.deliveries).toHaveLength(1);
  });

  it("a database put back behind the site's back is noticed the next minute: the type waits for each server to re-send, so no other server gives it again", async () => {
    const clock = testClock(Date.parse("2026-11-22T12:00:00Z") + DAY);
    const deps = testDeps({ now: clock.now });
    const serverType = uniqueServerType();
    const player = await createPlayer({ deps, nickname: "Строитель" });
    const item = await createDeliverableItem(deps, {
      serverType,
      grant: ["inventory.giveto {steamid} metal.fragments 2000"],
    });
    const entry = await createEntry(deps, { userId: player.id, itemId: item.id, serverType });
    const transport = clockedTransport(clock.now);
    const pluginOf = async (name: string) => {
      const server = await createGameServer(deps, { serverType, name });
      return {
        server,
        sim: new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now }),
      };
    };
    const a = await pluginOf("A");
    const b = await pluginOf("B");
    const online = [player.steamId];
    const tick = () => clock.advance(1000);

    // A delivers and the site acknowledges it (A's counter is 1).
    const served = await a.sim.post("/api/game/queue", { online, site_seq: 0 });
    const [delivery] = served.json.deliveries as { delivery_id: string }[];
    const id = delivery?.delivery_id ?? "";
    tick();
    const acked = await a.sim.post("/api/game/ack", {
      results: [{ delivery_id: id, ok: true, progress: "s", lease: 1 }],
    });
    expect(acked.json).toMatchObject({ ack_seq: 1 });
    // The minute's cron: the witness now holds that progress.
    clock.advance(MINUTE);
    await cron(deps);

    // The database is put back to before that delivery, and nobody tells the site.
    await rewindDelivery(deps, id);
    await deps.db.orm
      .update(inventoryEntries)
      .set({ status: "not_used", usedAt: null, usedServerId: null })
      .where(eq(inventoryEntries.id, entry.id));
    await deps.db.orm.update(servers).set({ ackSeq: 0 }).where(eq(servers.serverType, serverType));
    // …with its list of who waits as it was then (kept by triggers, which an UPDATE here doesn't replay).
    await rebuildWaiting(deps);

    // The next minute notices. B, which delivered nothing, polls: it is asked to re-send, and nothing of
    // the type is leased to it (before, B was handed the delivery A had already given).
    clock.advance(MINUTE);
    await cron(deps);
    const detectedAt = clock.now().getTime();
    tick();
    const first = await b.sim.post("/api/game/queue", { online, site_seq: 0 });
    expect(first.json).toMatchObject({ deliveries: [], resync_from: 0 });
    tick();
    const after = await b.sim.post("/api/game/queue", { online, site_seq: 0, resynced: true });
    expect(after.json).toMatchObject({ deliveries: [] });
    // The finding is kept where the after-restore steps read it.
    const restore = JSON.parse((await deps.kv.get(RESTORE_KEY)) ?? "null") as { detectedAt: number; lost: string[] };
    expect(restore.detectedAt).toBe(detectedAt);
    expect(restore.lost).toContain(`server ${a.server.id} ack_seq 0 < 1`);

    // A re-sends what it gave: the forgotten delivery is done by A, once.
    tick();
    expect((await a.sim.post("/api/game/queue", { online, site_seq: 1 })).json).toMatchObject({ resync_from: 0 });
    tick();
    await a.sim.post("/api/game/ack", { results: [{ delivery_id: id, ok: true, progress: "s", lease: 1 }] });
    tick();
    await a.sim.post("/api/game/queue", { online, site_seq: 1, resynced: true });
    const [row] = await deps.db.orm.select().from(deliveries).where(eq(deliveries.inventoryEntryId, entry.id));
    expect(row).toMatchObject({ status: "done", doneServerId: a.server.id });

    // A minute later the site is not taken for restored again, and the server list still works.
    clock.advance(MINUTE);
    await cron(deps);
    const still = JSON.parse((await deps.kv.get(RESTORE_KEY)) ?? "null") as { detectedAt: number };
    expect(still.detectedAt).toBe(restore.detectedAt);
    const list = await serverList(deps);
    expect(list.servers.map((server) => server.name)).toEqual(expect.arrayContaining(["A", "B"]));
    expect(JSON.stringify(list)).not.toContain("witness");
    expect(await deps.kv.get(STATUS_KEY)).not.toBeNull();
  });

  it("a restore it finds asks for the payments walk, as db:restore does (decision 135)", async () => {
    const deps = testDeps({ now: testClock().now });
    await deps.kv.delete(RESTORE_MARKER_KEY);
    const now = deps.now().getTime();
    const found = { ledger: 1, entries: 1, acks: {} };
    const restore: DetectedRestore = {
      detectedAt: now,
      witnessedAt: now,
      dataUpTo: now - DAY,
      lost: ["ledger 1 < 2"],
      witnessed: { ...found, ledger: 2 },
      found,
    };
    await runAfterRestoreSteps(deps, restore);
    expect(JSON.parse((await deps.kv.get(RESTORE_MARKER_KEY)) ?? "null")).toMatchObject({ markedAt: now });
    await deps.kv.delete(RESTORE_MARKER_KEY);
  });
});
