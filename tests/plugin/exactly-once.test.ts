// Issue 35, each item run with the real plugin against the site: every command of a delivery takes
// effect in the game world at most once, and at least once unless an operator decides otherwise, with
// two servers of a type, crashes with world rollback, refused and forged answers, older plugins'
// journals and a site restored from a backup (decision 124). Items 8 and 9 and the lang files of 10
// have their own scenarios.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { GameServerProcess } from "./harness.ts";
import { crashWith, given, scenario, secondServer } from "./scenario.ts";
import {
  buy,
  consoleRow,
  createItem,
  credit,
  db,
  delivery,
  entry,
  giveEntry,
  leaseLapsed,
  one,
  pressRefund,
  pressRetry,
  retryIsDue,
  signIn,
} from "./site.ts";

const KIT = ["inventory.giveto {steamid} wood 1000", "oxide.grant user {steamid} kits.x"];

/** The first server has not heartbeated for an hour: for the site it is gone. */
async function silence(serverId: number) {
  await db().execute({
    sql: "UPDATE server_heartbeats SET received_at = ? WHERE server_id = ?",
    args: [Date.now() - 3_600_000, serverId],
  });
}

test("item 1: a retry stays with the server that ran the first attempt while it lives, and runs only what failed there", async () => {
  const s = await scenario();
  const b = await secondServer(s);
  try {
    const itemId = await createItem({ serverType: s.type, name: "Набор «Старт»", grant: KIT });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15); // Kits is not loaded on A: the grant fails, the wood is given
    await s.game.save();
    assert.deepEqual((await delivery(entryId))?.states, ["saved", "failed"]);

    // The player moves to B. A lives: B gets nothing, so the wood is never given twice.
    await s.game.send(`leave ${s.player}`);
    await b.game.start();
    await b.game.send("permission kits.x");
    await b.game.join(s.player);
    await retryIsDue(entryId);
    await b.game.advance(45);
    assert.deepEqual(given(b.game, s.player), {});
    assert.equal(await b.game.hasPermission(s.player, "kits.x"), false);

    // Back on A, with Kits loaded: only the grant runs.
    await b.game.send(`leave ${s.player}`);
    await s.game.join(s.player);
    await s.game.send("permission kits.x");
    await retryIsDue(entryId);
    await s.game.advance(15);
    await s.game.save();
    assert.deepEqual(given(s.game, s.player), { wood: 1000 });
    assert.equal(await s.game.hasPermission(s.player, "kits.x"), true);
    const done = await delivery(entryId);
    assert.equal(done?.status, "done");
    assert.equal(done?.done_server_id, s.server.id);
  } finally {
    await b.game.stop();
    await s.end();
  }
});

test("item 1: after its server dies, the retry goes to another with its progress: the wood is not given again", async () => {
  const s = await scenario();
  const b = await secondServer(s);
  try {
    const itemId = await createItem({ serverType: s.type, name: "Набор «Старт»", grant: KIT });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    await s.game.stop(); // A goes away for good
    await silence(s.server.id);

    await b.game.start();
    await b.game.send("permission kits.x");
    await b.game.join(s.player);
    await retryIsDue(entryId);
    await b.game.advance(15);
    await b.game.save();
    assert.deepEqual(given(b.game, s.player), {});
    assert.equal(await b.game.hasPermission(s.player, "kits.x"), true);
    const done = await delivery(entryId);
    assert.equal(done?.status, "done");
    assert.deepEqual(done?.states, ["saved", "saved"]);
    assert.deepEqual(given(s.game, s.player), { wood: 1000 });
  } finally {
    await b.game.stop();
    await s.end();
  }
});

test("item 3: a retry the plugin refuses keeps what ran; restored, only the rest runs", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({ serverType: s.type, name: "Набор «Старт»", grant: KIT });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    const id = (await delivery(entryId))?.id ?? "";

    // The operator puts in a command the plugin's allowlist refuses, and retries.
    const setSecond = (template: string) =>
      db().execute({
        sql: "UPDATE item_commands SET template = ? WHERE item_id = ? AND template LIKE 'oxide.grant%' OR (item_id = ? AND template = 'server.writecfg')",
        args: [template, itemId, itemId],
      });
    await setSecond("server.writecfg");
    assert.equal(await pressRetry(id), 302);
    await s.game.advance(15);
    const refused = await delivery(entryId);
    assert.equal(refused?.last_error, "Команда не разрешена в настройках плагина: server.writecfg");
    assert.deepEqual(refused?.states, ["saved", "failed"]);

    // Restored, with Kits loaded: the retry runs the grant alone.
    await setSecond("oxide.grant user {steamid} kits.x");
    await s.game.send("permission kits.x");
    assert.equal(await pressRetry(id), 302);
    await s.game.advance(15);
    await s.game.save();
    assert.deepEqual(given(s.game, s.player), { wood: 1000 });
    assert.deepEqual(await s.game.inventory(s.player), { wood: 1000 });
    assert.equal(await s.game.hasPermission(s.player, "kits.x"), true);
    assert.equal((await delivery(entryId))?.status, "done");
  } finally {
    await s.end();
  }
});

test("item 5: «Повторить» on a delivery a crash interrupted says what it will run, runs it once, and the rest is never repeated", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Объявление",
      grant: ["inventory.giveto {steamid} wood 100", "say {nickname} купил объявление"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player, "ru", "Строитель");
    await crashWith(s, "crash-on-write 4"); // dies as the say begins
    await s.game.start();
    await s.game.join(s.player, "ru", "Строитель");
    await leaseLapsed(entryId);
    await s.game.advance(15);
    const interrupted = await delivery(entryId);
    assert.equal(interrupted?.status, "failed");
    const id = interrupted?.id ?? "";

    const row = await consoleRow(id, "failed");
    assert.match(row, /не выполнена .*могла выполниться до сбоя сервера/);
    assert.match(
      row,
      new RegExp(
        // Nothing of it took effect anywhere: any server of the type may run it.
        `Повторить выполнит: 1\\. inventory\\.giveto ${s.player} wood 100; 2\\. say Игрок купил объявление \\(снова\\) — на любом сервере типа ${s.type}\\.`,
      ),
    );
    const from = s.game.events.length;
    assert.equal(await pressRetry(id), 302);
    await s.game.advance(15);
    await s.game.save();
    assert.deepEqual(given(s.game, s.player, from), { wood: 100 });
    assert.deepEqual(await s.game.inventory(s.player), { wood: 100 });
    assert.equal(s.game.all("broadcast").length, 1);
    assert.equal((await delivery(entryId))?.status, "done");
    await s.game.advance(60);
    assert.equal(s.game.all("broadcast").length, 1);
  } finally {
    await s.end();
  }
});

/** A delivery row as the site made it for an older plugin, leased to `serverId` and lapsed. */
async function olderLease(entryId: number, steamId: string, serverType: string, serverId: number, attempts: number) {
  const id = randomUUID();
  await db().execute({
    sql: `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts,
            not_before, lease_until, leased_server_id, created_at)
          VALUES (?, ?, 'grant', ?, ?, 1, 'pending', ?, ?, ?, ?, ?)`,
    args: [id, entryId, serverType, steamId, attempts, Date.now() - 1000, Date.now() - 1000, serverId, Date.now()],
  });
  return id;
}

function writeJournal(game: GameServerProcess, entries: Record<string, unknown>) {
  const data = join(game.root, "oxide", "data");
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "RustStoreDelivery_journal.json"), JSON.stringify({ Seq: 7, Entries: entries }));
}

test("item 6: a plugin 2.0 journal migrates: its failed delivery runs only what had not succeeded", async () => {
  const s = await scenario({ start: false });
  const { type, server, game, player } = s;
  try {
    const itemId = await createItem({ serverType: type, name: "Набор «Старт»", grant: KIT });
    const entryId = await giveEntry(player, itemId, type);
    const id = await olderLease(entryId, player, type, server.id, 1);
    writeJournal(game, {
      [id]: {
        State: "failed",
        Message: "Право «kits.x» не зарегистрировано",
        Acked: true,
        SetAside: false,
        RecordedAt: Math.floor(Date.now() / 1000),
        Done: [`0:inventory.giveto ${player} wood 1000`],
      },
    });
    await game.start();
    await game.send("permission kits.x");
    await game.join(player);
    await game.advance(15);
    await game.save();
    assert.deepEqual(given(game, player), {});
    assert.equal(await game.hasPermission(player, "kits.x"), true);
    assert.equal((await delivery(entryId))?.status, "done");
  } finally {
    await s.end();
  }
});

test("item 6: a plugin 1.x entry says nothing of what ran: reported for a check by hand, never run by itself; «Повторить» runs it", async () => {
  const s = await scenario({ start: false });
  const { type, server, game, player } = s;
  try {
    const itemId = await createItem({
      serverType: type,
      name: "Дерево",
      grant: ["inventory.giveto {steamid} wood 500"],
    });
    const entryId = await giveEntry(player, itemId, type);
    const id = await olderLease(entryId, player, type, server.id, 0);
    // 1.x wrote "ok" before running and died before its acknowledgement.
    writeJournal(game, { [id]: { Ok: true, Message: "", Acked: false, RecordedAt: Math.floor(Date.now() / 1000) } });
    await game.start();
    await game.join(player);
    await game.advance(45);
    assert.deepEqual(given(game, player), {});
    const failed = await delivery(entryId);
    assert.equal(failed?.status, "failed");
    assert.equal(failed?.last_error, "Доставка прервана, проверьте вручную");

    // The operator checked the player's inventory and decides it did not run.
    assert.equal(await pressRetry(id), 302);
    await game.advance(15);
    await game.save();
    assert.deepEqual(given(game, player), { wood: 500 });
    assert.equal((await delivery(entryId))?.status, "done");
  } finally {
    await s.end();
  }
});

test("issue 44 item 4: a plugin 1.x entry the site recorded as failed stays failed: its retry runs, no operator is asked", async () => {
  const s = await scenario({ start: false });
  const { type, server, game, player } = s;
  try {
    const itemId = await createItem({
      serverType: type,
      name: "Дерево",
      grant: ["inventory.giveto {steamid} wood 500"],
    });
    const entryId = await giveEntry(player, itemId, type);
    // The site heard "failed" from 1.x and its retry is due now.
    const id = await olderLease(entryId, player, type, server.id, 1);
    writeJournal(game, {
      [id]: { Ok: false, Message: "Couldn't find player!", Acked: true, RecordedAt: Math.floor(Date.now() / 1000) },
    });
    await game.start();
    await game.join(player);
    await game.advance(15);
    await game.save();
    assert.deepEqual(given(game, player), { wood: 500 });
    const done = await delivery(entryId);
    assert.equal(done?.status, "done");
    assert.notEqual(done?.last_error, "Доставка прервана, проверьте вручную");
  } finally {
    await s.end();
  }
});

test("item 7: a heartbeat with a hostname the site would not keep still keeps the server alive", async () => {
  const s = await scenario();
  try {
    await s.game.send(`console server.hostname ${"Свобода | MAX 2 | ".repeat(20)}`);
    // The plugin signs with the wall clock in whole seconds, and a heartbeat is written only when signed
    // later than the stored one (decision 126); the harness's 30 s pass in a moment, so let a second go by.
    await new Promise((done) => setTimeout(done, 1100));
    const before = Date.now();
    await s.game.advance(30);
    const beat = await one<{ received_at: number; hostname: string }>(
      "SELECT received_at, hostname FROM server_heartbeats WHERE server_id = ?",
      s.server.id,
    );
    assert.ok(Number(beat.received_at) >= before);
    assert.equal(beat.hostname.length, 200);
    assert.ok(!s.game.logs("warn").some((line) => line.startsWith("[RustStoreDelivery] Heartbeat answered 400")));
  } finally {
    await s.end();
  }
});

test("item 10: a give the inventory takes only in part leaves the rest at the player's feet, and no retry gives it again", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 600"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.send("fault give-partly sulfur");
    await s.game.advance(15);
    await s.game.save();
    await s.game.advance(60);
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 600 });
    assert.deepEqual(
      s.game.all("drop").map((event) => [event.item, event.amount]),
      [["sulfur", 300]],
    );
    assert.equal((await delivery(entryId))?.status, "done");
  } finally {
    await s.end();
  }
});

test("item 10: a refund after the lease lapsed on a rank that ran: the rank is taken back on its server", async () => {
  // Bought through the shop, so a real server type (no other scenario uses VANILLA).
  const s = await scenario({ type: "VANILLA", groups: ["vip"] });
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "VIP",
      durations: [30],
      grant: ["oxide.usergroup add {steamid} vip"],
      revoke: ["oxide.usergroup remove {steamid} vip"],
    });
    const session = await signIn(s.player);
    await credit(s.player, 100);
    const bought = await buy(session, itemId, s.type, 30);
    assert.equal(bought.status, 201);
    const { id: entryId, purchase_id: purchaseId } = await one<{ id: number; purchase_id: number }>(
      "SELECT e.id, e.purchase_id FROM inventory_entries e JOIN users u ON u.id = e.user_id WHERE u.steam_id = ? AND e.item_id = ?",
      s.player,
      itemId,
    );
    await s.game.join(s.player);
    // It runs, and the site never hears of it before its lease lapses.
    s.proxy.respond = (path) => (path === "/api/game/ack" ? { status: 503, body: "{}" } : null);
    await s.game.advance(15);
    await s.game.save();
    assert.equal(await s.game.inGroup(s.player, "vip"), true);
    await leaseLapsed(entryId);

    assert.equal(await pressRefund(s.player, Number(purchaseId)), 302);
    assert.equal((await entry(entryId)).status, "refunded");
    s.proxy.respond = null;
    await s.game.advance(30);
    await s.game.save();
    assert.equal(await s.game.inGroup(s.player, "vip"), false);
    assert.equal((await delivery(entryId, "revoke"))?.status, "done");
    assert.equal((await delivery(entryId))?.status, "cancelled");
    assert.deepEqual((await delivery(entryId))?.states, ["saved"]);
  } finally {
    await s.end();
  }
});

/** What `npm run db:restore` leaves of a delivery made after the backup: pending, forgotten, servers marked. */
async function restoreFromBackup(entryId: number, type: string) {
  await db().execute({
    sql: `UPDATE deliveries SET status = 'pending', lease_until = NULL, leased_server_id = NULL, done_at = NULL,
            done_server_id = NULL, commands = NULL, progress = NULL, lease_seq = 0, home_server_id = NULL, saving_since = NULL
          WHERE inventory_entry_id = ? AND kind = 'grant'`,
    args: [entryId],
  });
  await db().execute({
    sql: "UPDATE inventory_entries SET status = 'not_used', used_at = NULL, used_server_id = NULL WHERE id = ?",
    args: [entryId],
  });
  await db().execute({ sql: "UPDATE servers SET ack_seq = 0, needs_resync = 1 WHERE server_type = ?", args: [type] });
}

test("item 10: a site restored from a backup learns from the server what it delivered since; another server of the type never runs it", async () => {
  const s = await scenario();
  const b = await secondServer(s);
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Металл",
      grant: ["inventory.giveto {steamid} metal.fragments 2000"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    assert.equal((await delivery(entryId))?.status, "done");
    // Long after, its journal has archived it.
    await s.game.advance(2 * 3600);

    await restoreFromBackup(entryId, s.type);
    await b.game.start();
    await b.game.join(s.player);
    await b.game.advance(30);
    assert.deepEqual(given(b.game, s.player), {});
    await s.game.advance(45);
    assert.ok(s.game.logs("warn").some((line) => line.includes("The site was restored from a backup")));
    const back = await delivery(entryId);
    assert.equal(back?.status, "done");
    assert.equal(back?.done_server_id, s.server.id);
    await b.game.advance(60);
    assert.deepEqual(given(b.game, s.player), {});
    assert.deepEqual(given(s.game, s.player), { "metal.fragments": 2000 });
    assert.deepEqual(await s.game.inventory(s.player), { "metal.fragments": 2000 });
  } finally {
    await b.game.stop();
    await s.end();
  }
});
