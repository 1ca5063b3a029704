// Issue 44, item 3, with the real plugin against the site (decision 132): a rank split by a hand-off
// is taken back on every server where its grant took effect. VIP is `oxide.usergroup add` + `oxide.grant
// … kits.vip`. On A the group is added and saved and the grant fails (Kits not loaded); A goes down for
// over 3 minutes; B runs only the grant and becomes the entry's server. When the time runs out, the
// revoke runs on B and on A, once each, and only the server it is for runs it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Scenario, scenario, secondServer } from "./scenario.ts";
import { all, createItem, db, delivery, entry, giveEntry, one, retryIsDue } from "./site.ts";

const VIP = ["oxide.usergroup add {steamid} vip", "oxide.grant user {steamid} kits.vip"];
const VIP_REVOKE = ["oxide.usergroup remove {steamid} vip", "oxide.revoke user {steamid} kits.vip"];

/** For the site, a server that has not heartbeated for an hour is gone: its deliveries move on. */
async function silence(serverId: number) {
  await db().execute({
    sql: "UPDATE server_heartbeats SET received_at = ? WHERE server_id = ?",
    args: [Date.now() - 3_600_000, serverId],
  });
}

/** The paid time has run out: the entry and every revoke of it (on each server) are due now. */
async function timeRunsOut(entryId: number) {
  const past = Date.now() - 1000;
  await db().execute({ sql: "UPDATE inventory_entries SET expires_at = ? WHERE id = ?", args: [past, entryId] });
  await db().execute({
    sql: "UPDATE deliveries SET not_before = ? WHERE inventory_entry_id = ? AND kind <> 'grant'",
    args: [past, entryId],
  });
}

function revokes(entryId: number) {
  return all<{ status: string; done_server_id: number | null }>(
    "SELECT status, done_server_id FROM deliveries WHERE inventory_entry_id = ? AND kind <> 'grant' ORDER BY done_server_id",
    entryId,
  );
}

/**
 * VIP for `days` (0: «до вайпа») split by a hand-off: on A the group is added and saved and the grant
 * fails (Kits is not loaded there); A stops and, for the site, stays down; B gets the delivery with the
 * group done, runs only the grant and becomes the entry's server. A is left stopped.
 */
async function splitVip(s: Scenario, b: Awaited<ReturnType<typeof secondServer>>, days: number): Promise<number> {
  const itemId = await createItem({ serverType: s.type, name: "VIP", grant: VIP, revoke: VIP_REVOKE, durations: [30] });
  const entryId = await giveEntry(s.player, itemId, s.type, days);
  await s.game.join(s.player);
  await s.game.advance(15);
  await s.game.save();
  assert.deepEqual((await delivery(entryId))?.states, ["saved", "failed"]);
  assert.equal(await s.game.inGroup(s.player, "vip"), true);

  await s.game.stop();
  await silence(s.server.id);
  await b.game.start();
  await b.game.send("console oxide.group add vip");
  await b.game.send("permission kits.vip");
  await b.game.save();
  await b.game.join(s.player);
  await retryIsDue(entryId);
  await b.game.advance(15);
  await b.game.save();
  await b.game.advance(15);
  const granted = await delivery(entryId);
  assert.equal(granted?.status, "done");
  assert.deepEqual(granted?.states, ["saved", "saved"]);
  assert.equal((await entry(entryId)).used_server_id, b.other.id);
  assert.equal(await b.game.hasPermission(s.player, "kits.vip"), true);
  return entryId;
}

/** A comes back with its saved world, the group in it, and takes the group away (a revoke needs nobody online). */
async function aTakesTheGroup(s: Scenario): Promise<void> {
  const from = s.game.events.length;
  await s.game.start();
  await s.game.join(s.player);
  await s.game.advance(15);
  await s.game.save();
  await s.game.advance(15);
  assert.equal(await s.game.inGroup(s.player, "vip"), false);
  assert.deepEqual(
    s.game.all("group", from).map((event) => [event.op, event.steam_id, event.group]),
    [["remove", s.player, "vip"]],
  );
}

test("item 3: a rank split by a hand-off is taken back on both servers when its time runs out, once on each", async () => {
  const s = await scenario({ groups: ["vip"] });
  const b = await secondServer(s);
  try {
    const entryId = await splitVip(s, b, 30);

    // The month is over: B takes the permission away, and B alone never touches A's group.
    await timeRunsOut(entryId);
    await b.game.advance(15);
    await b.game.save();
    await b.game.advance(15);
    assert.equal(await b.game.hasPermission(s.player, "kits.vip"), false);

    // A's revoke waits for A, the only server that may run it.
    assert.deepEqual(await revokes(entryId), [
      { status: "pending", done_server_id: null },
      { status: "done", done_server_id: b.other.id },
    ]);

    await aTakesTheGroup(s);
    // Two revokes, one done by each server (A was registered first).
    assert.deepEqual(await revokes(entryId), [
      { status: "done", done_server_id: s.server.id },
      { status: "done", done_server_id: b.other.id },
    ]);

    // Once each: after a restart of A and more rounds on both, nothing else changes the player's rank.
    await s.game.stop();
    await s.game.start();
    await s.game.join(s.player);
    const [fromA, fromB] = [s.game.events.length, b.game.events.length];
    await s.game.advance(30);
    await b.game.advance(30);
    for (const [game, from] of [
      [s.game, fromA],
      [b.game, fromB],
    ] as const) {
      assert.deepEqual([...game.all("group", from), ...game.all("perm", from)], []);
    }
    assert.equal(await s.game.inGroup(s.player, "vip"), false);
  } finally {
    await b.game.stop();
    await s.end();
  }
});

test("item 3: «до вайпа» split by a hand-off ends with B's wipe, and A takes its part away too", async () => {
  const s = await scenario({ groups: ["vip"] });
  const b = await secondServer(s);
  try {
    const entryId = await splitVip(s, b, 0);
    const used = await one<{ used_at: number }>("SELECT used_at FROM inventory_entries WHERE id = ?", entryId);

    // The owner wipes B (its map's save is deleted, the server stopped); its plugin reports the new map.
    await b.game.stop();
    const wait = Number(used.used_at) + 1000 - Date.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    b.game.wipe();
    await b.game.start();
    await b.game.advance(15);
    await b.game.save();
    await b.game.advance(15);
    assert.equal(await b.game.hasPermission(s.player, "kits.vip"), false);
    assert.notEqual((await entry(entryId)).expires_at, null);
    assert.deepEqual(await revokes(entryId), [
      { status: "pending", done_server_id: null },
      { status: "done", done_server_id: b.other.id },
    ]);

    await aTakesTheGroup(s);
    assert.deepEqual(await revokes(entryId), [
      { status: "done", done_server_id: s.server.id },
      { status: "done", done_server_id: b.other.id },
    ]);
  } finally {
    await b.game.stop();
    await s.end();
  }
});
