// Decision 132: a rank split by a hand-off is taken back on every server where its grant took effect.
// VIP is `oxide.usergroup add` + `oxide.grant … kits.vip`. On A the group is added and saved and the
// grant fails (Kits not loaded); A goes silent, so B gets the delivery with the group marked done, runs
// only the grant and becomes the entry's server. Whatever ends the entry — its time, a refund, its
// server's wipe — the revoke must reach A too, once, and only A may run A's.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inventoryEntries, purchases, servers } from "#db/schema.ts";
import { createOperator } from "#tests/support/admin-fixtures.ts";
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
import { Plugin3 } from "#tests/support/plugin3.ts";
import { rows } from "#tests/support/sql.ts";
import { unique } from "#tests/support/unique.ts";
import type { Deps } from "#worker/deps.ts";
import { refundPurchase } from "#worker/services/admin/refund.ts";
import { removeServer } from "#worker/services/admin/servers.ts";
import { ALIVE_AFTER_HEARTBEAT_MS } from "#worker/services/game/liveness.ts";
import { runGameMaintenance } from "#worker/services/game/maintenance.ts";
import { endWipedEntries } from "#worker/services/game/wipe-ends.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const VIP = {
  grant: ["oxide.usergroup add {steamid} vip", "oxide.grant user {steamid} kits.vip"],
  revoke: ["oxide.usergroup remove {steamid} vip", "oxide.revoke user {steamid} kits.vip"],
};

async function adminOf(deps: Deps) {
  const operator = await createOperator(deps, "admin");
  return { userId: operator.id, steamId: operator.steamId, nickname: operator.nickname, role: "admin" as const };
}

/** VIP for `days` (0: «до вайпа»), split by a hand-off: the group on A, the kit's permission on B. */
async function splitVip(days: number) {
  const clock = testClock();
  const deps = testDeps({ now: clock.now });
  const serverType = uniqueServerType();
  const player = await createPlayer({ deps, nickname: "Рейдер" });
  const vip = await createDeliverableItem(deps, { serverType, name: "VIP", ...VIP, durations: [days || 1] });
  const entry = await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: days });
  const transport = clockedTransport(clock.now);
  const pluginFor = async (name: string) => {
    const server = await createGameServer(deps, { serverType, name });
    const sim = new PluginSimulator({ transport, serverId: server.id, serverKey: server.key, now: clock.now });
    return { server, sim, plugin: new Plugin3(sim, server.key) };
  };
  const a = await pluginFor("A");
  const b = await pluginFor("B");
  const online = [player.steamId];

  expect((await a.sim.heartbeat(online)).status).toBe(200);
  const [onA] = await a.plugin.poll(online);
  if (!onA) throw new Error("A got nothing");
  await a.plugin.report([
    { delivery_id: onA.delivery_id, ok: false, progress: "sf", lease: onA.lease, message: "Kits не загружен" },
  ]);
  // A restarts and stays down over 3 minutes: B gets the delivery with the group done and runs the rest.
  clock.advance(ALIVE_AFTER_HEARTBEAT_MS + MINUTE);
  expect((await b.sim.heartbeat(online)).status).toBe(200);
  const [onB] = await b.plugin.poll(online);
  expect(onB).toMatchObject({ delivery_id: onA.delivery_id, done: [0] });
  const acked = await b.plugin.report([
    { delivery_id: onA.delivery_id, ok: true, progress: "ss", lease: onB?.lease ?? 0 },
  ]);
  expect(acked.json.results).toEqual([{ delivery_id: onA.delivery_id, status: "done" }]);
  const [used] = await deps.db.orm
    .select({ status: inventoryEntries.status, usedServerId: inventoryEntries.usedServerId })
    .from(inventoryEntries)
    .where(eq(inventoryEntries.id, entry.id));
  expect(used).toEqual({ status: "used", usedServerId: b.server.id });

  /** What a server's poll now serves the player, and its report that everything ran and was saved. */
  const serve = async (on: typeof a) => {
    clock.advance(1000);
    expect((await on.sim.heartbeat(online)).status).toBe(200);
    const served = await on.plugin.poll(online);
    for (const delivery of served) {
      const progress = "s".repeat(delivery.commands.length);
      const answer = await on.plugin.report([
        { delivery_id: delivery.delivery_id, ok: true, progress, lease: delivery.lease },
      ]);
      expect(answer.status).toBe(200);
    }
    return served.map(({ kind, commands }) => ({ kind, commands }));
  };
  const revoked = [
    { kind: "revoke", commands: VIP.revoke.map((template) => template.replace("{steamid}", player.steamId)) },
  ];
  return { clock, deps, serverType, player, vip, entry, a, b, online, serve, revoked };
}

describe("a rank split by a hand-off (decision 132)", () => {
  it("is taken back at its end on both servers, each once, and each server runs only its own", async () => {
    const { clock, deps, a, b, serve, revoked } = await splitVip(1);
    clock.advance(DAY);
    await runGameMaintenance(deps);
    expect(await serve(b)).toEqual(revoked);
    // Today's site revoked on B alone: the player kept VIP on A.
    expect(await serve(a)).toEqual(revoked);
    expect(await serve(b)).toEqual([]);
    expect(await serve(a)).toEqual([]);
  });

  it("a refund takes it back at once on both servers", async () => {
    const { deps, player, vip, entry, a, b, serve, revoked, serverType } = await splitVip(1);
    const [purchase] = await deps.db.orm
      .insert(purchases)
      .values({
        userId: player.id,
        itemId: vip.id,
        transactionId: unique(),
        idempotencyKey: unique(),
        serverType,
        durationDays: 1,
        price: 10000,
        status: "completed",
      })
      .returning();
    if (!purchase) throw new Error("no purchase");
    await deps.db.orm
      .update(inventoryEntries)
      .set({ purchaseId: purchase.id })
      .where(eq(inventoryEntries.id, entry.id));
    const op = await adminOf(deps);
    expect(await refundPurchase(deps, op, { userId: player.id, purchaseId: purchase.id, reason: "Ошибка" })).toEqual({
      ok: true,
    });
    expect(await serve(a)).toEqual(revoked);
    expect(await serve(b)).toEqual(revoked);
  });

  it("«до вайпа» ends with its server's wipe, and A's part goes with it", async () => {
    const { clock, deps, b, a, serve, revoked } = await splitVip(0);
    clock.advance(MINUTE);
    await deps.db.orm.update(servers).set({ lastWipeAt: clock.now().getTime() }).where(eq(servers.id, b.server.id));
    expect(await endWipedEntries(deps, b.server.id)).toBe(1);
    expect(await serve(a)).toEqual(revoked);
    expect(await serve(b)).toEqual(revoked);
  });

  it("A's revoke is stranded for an operator when A is removed; B's still runs", async () => {
    const { clock, deps, a, b, serve, revoked, entry } = await splitVip(1);
    clock.advance(DAY);
    const op = await adminOf(deps);
    expect(await removeServer(deps, op, a.server.id)).toMatchObject({ ok: true, strandedRevokes: 1 });
    await runGameMaintenance(deps);
    expect(await serve(b)).toEqual(revoked);
    expect(
      await rows(
        "SELECT status, last_error FROM deliveries WHERE inventory_entry_id = ? AND kind <> 'grant' ORDER BY status",
        entry.id,
      ),
    ).toEqual([
      { status: "done", last_error: null },
      { status: "stranded", last_error: expect.stringContaining(`Сервер #${a.server.id} «A»`) },
    ]);
  });

  it("A's revoke is retired while A holds the rank longer by an entry delivered there", async () => {
    const { clock, deps, a, b, serve, revoked, player, vip, serverType } = await splitVip(1);
    // A is back; a month of the same rank is delivered there.
    await createEntry(deps, { userId: player.id, itemId: vip.id, serverType, durationDays: 30 });
    expect(await serve(a)).toEqual([
      {
        kind: "grant",
        commands: VIP.grant.map((template) => template.replace("{steamid}", player.steamId)),
      },
    ]);
    clock.advance(DAY);
    await runGameMaintenance(deps);
    expect(await serve(b)).toEqual(revoked);
    expect(await serve(a)).toEqual([]);
  });
});
