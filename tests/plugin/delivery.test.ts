// The real plugin against the running site: a purchase reaches the game once, whatever happens
// between them (issues 21 and 35). Each test is one game server with its own server type and folder.
// A delivery counts once the world is saved after it (decision 124): `save()` is Rust's automated save.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { GameServerProcess } from "./harness.ts";
import { chats, crashBeforeAck, given, scenario, secondServer } from "./scenario.ts";
import {
  all,
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
  pressRetry,
  retryIsDue,
  SITE_ORIGIN,
  signIn,
  timeRunsOut,
} from "./site.ts";

test("bought on the site: given once in the game, the player told in their language, the Корзина says delivered", async () => {
  const s = await scenario({ type: "MAX3" });
  try {
    const itemId = await createItem({
      serverType: "MAX3",
      name: "Набор «Дерево»",
      grant: ["inventory.giveto {steamid} wood 3000", "inventory.giveto {steamid} stones 1000"],
    });
    const session = await signIn(s.player);
    await credit(s.player, 100);
    const bought = await buy(session, itemId, "MAX3");
    assert.equal(bought.status, 201);
    const { id: entryId } = await one<{ id: number }>(
      "SELECT e.id FROM inventory_entries e JOIN users u ON u.id = e.user_id WHERE u.steam_id = ?",
      s.player,
    );

    await s.game.join(s.player, "ru");
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { wood: 3000, stones: 1000 });
    assert.deepEqual(chats(s.game, s.player), ["Магазин: вы получили «Набор «Дерево»»."]);
    assert.deepEqual(await s.game.inventory(s.player), { wood: 3000, stones: 1000 });
    // In the game, not yet in a save: the site waits for the world's save (decision 124).
    const given1 = await delivery(entryId);
    assert.equal(given1?.status, "pending");
    assert.deepEqual(given1?.states, ["given", "given"]);
    assert.ok(given1?.saving_since);
    assert.equal((await entry(entryId)).status, "not_used");
    const korzina = async () => {
      const response = await fetch(`${SITE_ORIGIN}/api/inventory`, { headers: { cookie: session } });
      return ((await response.json()) as { items: { delivering: boolean; status: string }[] }).items[0];
    };
    // The player's Корзина says «Выдаётся» meanwhile.
    assert.deepEqual(await korzina(), { ...(await korzina()), status: "not_used", delivering: true });

    await s.game.save();
    assert.deepEqual(await korzina(), { ...(await korzina()), status: "used", delivering: false });
    const after = await entry(entryId);
    assert.equal(after.status, "used");
    assert.equal(after.used_server_id, s.server.id);
    const done = await delivery(entryId);
    assert.equal(done?.status, "done");
    assert.deepEqual(done?.states, ["saved", "saved"]);

    // Later polls, a reconnect, a plugin reload and a server restart never give it again.
    await s.game.advance(120);
    await s.game.send("unload");
    await s.game.send("load");
    await s.game.advance(30);
    await s.game.stop();
    await s.game.start();
    await s.game.join(s.player, "ru");
    await s.game.advance(60);
    assert.deepEqual(given(s.game, s.player), { wood: 3000, stones: 1000 });
    assert.deepEqual(await s.game.inventory(s.player), { wood: 3000, stones: 1000 });
  } finally {
    await s.end();
  }
});

test("the chat message comes from the lang files Oxide writes, in Russian and in English", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "VIP",
      durations: [30],
      grant: ["oxide.usergroup add {steamid} vip"],
      revoke: ["oxide.usergroup remove {steamid} vip"],
    });
    await s.game.send("console oxide.group add vip");
    const english = `${s.player.slice(0, -1)}${(Number(s.player.at(-1)) + 1) % 10}`;
    await giveEntry(s.player, itemId, s.type, 30);
    await giveEntry(english, itemId, s.type, 30);
    await s.game.join(s.player, "ru");
    await s.game.join(english, "en");
    await s.game.advance(15);
    assert.deepEqual(chats(s.game, s.player), [
      "Магазин: вы получили «VIP» на 30 дн. Срок действия — в Корзине на сайте.",
    ]);
    assert.deepEqual(chats(s.game, english), [
      'Store: you received "VIP" for 30 d. See the end date in your inventory on the site.',
    ]);

    const ru = JSON.parse(readFileSync(join(s.game.root, "oxide", "lang", "ru", "RustStoreDelivery.json"), "utf8"));
    const en = JSON.parse(readFileSync(join(s.game.root, "oxide", "lang", "en", "RustStoreDelivery.json"), "utf8"));
    assert.equal(ru.DeliveredDays, "Магазин: вы получили «{0}» на {1} дн. Срок действия — в Корзине на сайте.");
    assert.equal(ru.Delivered, "Магазин: вы получили «{0}».");
    assert.equal(ru.NoRoom, "Магазин: освободите {0} ячеек инвентаря, чтобы получить «{1}». Выдача продолжится сама.");
    assert.equal(en.Delivered, 'Store: you received "{0}".');
    assert.deepEqual(Object.keys(ru).sort(), Object.keys(en).sort());
  } finally {
    await s.end();
  }
});

test("killed after a save and before the acknowledgement: restarted, it reports and never runs it again", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 500"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    // The world is saved, and the server dies before the site hears of it.
    s.proxy.mode = "down";
    await s.game.save();
    await s.game.kill();
    s.proxy.mode = "up";
    assert.deepEqual(given(s.game, s.player), { sulfur: 500 });
    assert.equal((await delivery(entryId))?.status, "pending");

    const from = s.game.events.length;
    await s.game.start();
    await s.game.join(s.player);
    await leaseLapsed(entryId);
    await s.game.advance(30);
    assert.deepEqual(given(s.game, s.player, from), {});
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 500 });
    assert.equal((await delivery(entryId))?.status, "done");
    assert.equal((await entry(entryId)).status, "used");
  } finally {
    await s.end();
  }
});

test("killed after running and before the world's save: the world rolled back, so it is given again, once", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 500"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    // The acknowledgement never gets an answer; the server dies while waiting for it, long before a save.
    await crashBeforeAck(s);
    assert.deepEqual(given(s.game, s.player), { sulfur: 500 });
    assert.equal((await delivery(entryId))?.status, "pending");

    const from = s.game.events.length;
    await s.game.start();
    // The restart loaded the last save: the player has nothing.
    await s.game.join(s.player);
    assert.deepEqual(await s.game.inventory(s.player), {});
    assert.ok(s.game.logs("warn").some((line) => line.includes("rolled back by the restart; they will run once more")));
    await leaseLapsed(entryId);
    await s.game.advance(30);
    assert.deepEqual(given(s.game, s.player, from), { sulfur: 500 });
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 500 });
    await s.game.save();
    assert.equal((await delivery(entryId))?.status, "done");
    await s.game.advance(60);
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 500 });
  } finally {
    await s.end();
  }
});

test("a permission saved with the world outlives a crash: the player keeps it and nothing is granted again", async () => {
  const s = await scenario();
  try {
    await s.game.send("permission kits.start");
    const itemId = await createItem({
      serverType: s.type,
      name: "Набор «Старт»",
      grant: ["oxide.grant user {steamid} kits.start"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.equal(await s.game.hasPermission(s.player, "kits.start"), true);
    await s.game.save();
    assert.equal((await delivery(entryId))?.status, "done");

    await s.game.kill();
    const from = s.game.events.length;
    await s.game.start();
    // Oxide's data is read back from the save, as the world is; the Kits plugin registers its permission again.
    await s.game.send("permission kits.start");
    await s.game.join(s.player);
    assert.equal(await s.game.hasPermission(s.player, "kits.start"), true);
    await s.game.advance(30);
    assert.deepEqual(s.game.all("perm", from), []);
  } finally {
    await s.end();
  }
});

test("the site down for a while: nothing is lost, it is delivered once the site answers again", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Металл",
      grant: ["inventory.giveto {steamid} metal.fragments 2000"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    s.proxy.mode = "down";
    await s.game.advance(90);
    assert.deepEqual(given(s.game, s.player), {});
    assert.ok(s.game.logs("warn").some((line) => line.includes("Queue answered 0")));
    assert.equal(await s.game.send("timers").then((events) => events.find((e) => e.ev === "timers")?.count), 2);

    s.proxy.mode = "up";
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { "metal.fragments": 2000 });
    await s.game.save();
    assert.equal((await delivery(entryId))?.status, "done");
    await s.game.advance(60);
    assert.deepEqual(given(s.game, s.player), { "metal.fragments": 2000 });
  } finally {
    await s.end();
  }
});

test("the third of three commands fails: the retry runs only the third; the operator's fix runs through «Повторить», saying so first", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Набор «Рейд»",
      grant: [
        "inventory.giveto {steamid} wood 1000",
        "inventory.giveto {steamid} stones 1000",
        "inventory.giveto {steamid} rifle.ak47 1",
      ],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { wood: 1000, stones: 1000 });
    const failed = await delivery(entryId);
    assert.equal(failed?.status, "pending");
    assert.equal(failed?.attempts, 1);
    assert.equal(failed?.last_error, "Нет такого предмета в Rust: rifle.ak47");
    assert.deepEqual(failed?.states, ["given", "given", "failed"]);
    await s.game.save();
    assert.deepEqual((await delivery(entryId))?.states, ["saved", "saved", "failed"]);

    // Retried as it is: still only the third runs, and fails again.
    await retryIsDue(entryId);
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { wood: 1000, stones: 1000 });
    assert.equal((await delivery(entryId))?.attempts, 2);

    // The operator fixes the item's third command. The delivery's commands were fixed at its first
    // lease, so the automatic retry still fails; «Повторить» says it will run the fixed command alone.
    await db().execute({
      sql: "UPDATE item_commands SET template = 'inventory.giveto {steamid} rifle.ak 1' WHERE item_id = ? AND template LIKE '%rifle.ak47%'",
      args: [itemId],
    });
    const id = (await delivery(entryId))?.id ?? "";
    await retryIsDue(entryId);
    await s.game.advance(15);
    assert.equal((await delivery(entryId))?.attempts, 3);
    await retryIsDue(entryId);
    const row = await consoleRow(id, "pending");
    assert.match(
      row,
      new RegExp(
        `Повторить выполнит: 3\\. inventory\\.giveto ${s.player} rifle\\.ak 1 — на сервере №${s.server.id} «Сервер ${s.type}» — уже выполнены и не повторятся: 1, 2\\.`,
      ),
    );
    assert.match(row, /выполнена и сохранена .*выполнена и сохранена .*ошибка/);
    assert.equal(await pressRetry(id), 302);
    await s.game.advance(15);
    await s.game.save();
    assert.deepEqual(given(s.game, s.player), { wood: 1000, stones: 1000, "rifle.ak": 1 });
    assert.deepEqual(await s.game.inventory(s.player), { wood: 1000, stones: 1000, "rifle.ak": 1 });
    assert.equal((await delivery(entryId))?.status, "done");
    assert.equal((await entry(entryId)).status, "used");
  } finally {
    await s.end();
  }
});

test("a timed rank that expires is revoked by the server that granted it, not by another of the type", async () => {
  const s = await scenario({ groups: ["vip"] });
  const { game: otherGame } = await secondServer(s);
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "VIP",
      durations: [7],
      grant: ["oxide.usergroup add {steamid} vip"],
      revoke: ["oxide.usergroup remove {steamid} vip"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type, 7);
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.deepEqual(
      s.game.all("group").map((event) => [event.op, event.steam_id, event.group]),
      [["add", s.player, "vip"]],
    );
    await s.game.save();
    const granted = await entry(entryId);
    assert.equal(granted.status, "used");
    assert.ok((granted.expires_at ?? 0) > Date.now() + 6 * 86_400_000);

    await timeRunsOut(entryId);
    await otherGame.start();
    await otherGame.send("console oxide.group add vip");
    await otherGame.advance(15);
    assert.deepEqual(otherGame.all("group"), []);
    assert.equal((await delivery(entryId, "revoke"))?.status, "pending");

    await s.game.send(`leave ${s.player}`);
    await s.game.advance(15); // revokes run with the player offline
    assert.deepEqual(
      s.game.all("group").map((event) => [event.op, event.steam_id, event.group]),
      [
        ["add", s.player, "vip"],
        ["remove", s.player, "vip"],
      ],
    );
    await s.game.save();
    assert.equal(await s.game.inGroup(s.player, "vip"), false);
    const revoke = await delivery(entryId, "revoke");
    assert.equal(revoke?.status, "done");
    assert.equal(revoke?.done_server_id, s.server.id);
  } finally {
    await otherGame.stop();
    await s.end();
  }
});

test("a tampered queue answer runs nothing; the untouched one later runs once", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Ткань",
      grant: ["inventory.giveto {steamid} cloth 100"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    s.proxy.rewrite = (path, body) =>
      path === "/api/game/queue" ? body.replace("cloth 100", "cloth 1000").replace("cloth 100", "cloth 1000") : body;
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), {});
    assert.ok(
      s.game.logs("error").some((line) => line.includes("Queue answer has a wrong signature; nothing was run")),
    );

    s.proxy.rewrite = null;
    await leaseLapsed(entryId);
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { cloth: 100 });
    await s.game.save();
    assert.equal((await delivery(entryId))?.status, "done");
  } finally {
    await s.end();
  }
});

test("a good start says so in the log, and the heartbeat carries the map and the last wipe to the site", async () => {
  const s = await scenario();
  try {
    const started = s.game.logs("info");
    assert.ok(
      started.some((line) =>
        line.startsWith(`[RustStoreDelivery] Started: site http://127.0.0.1:${s.proxy.port}, server #${s.server.id}`),
      ),
    );
    assert.ok(started.some((line) => line.includes(`as server #${s.server.id}: heartbeat accepted.`)));
    const beat = await one<{ map: string; map_size: number; map_seed: number; wiped_at: number }>(
      "SELECT map, map_size, map_seed, wiped_at FROM server_heartbeats WHERE server_id = ?",
      s.server.id,
    );
    assert.equal(beat.map, "Procedural Map");
    assert.equal(Number(beat.map_size), 4500);
    assert.equal(Number(beat.map_seed), 12345);
    const days = (Date.now() - Number(beat.wiped_at)) / 86_400_000;
    assert.ok(days > 1.9 && days < 2.1, `wiped ${days} days ago`);
    // The site records that wipe once, however many heartbeats repeat it (decision 128).
    const wipes = await all<{ wiped_at: number }>("SELECT wiped_at FROM server_wipes WHERE server_id = ?", s.server.id);
    assert.deepEqual(
      wipes.map((row) => Number(row.wiped_at)),
      [Number(beat.wiped_at)],
    );
  } finally {
    await s.end();
  }
});

test("a wrong server key: the queue's refusal, like the heartbeat's, says what to check (issue 45)", async () => {
  const s = await scenario({ start: false });
  // The owner pasted another server's key: the site refuses every signed request with 401.
  const other = await secondServer(s);
  const game = new GameServerProcess({
    siteUrl: `http://127.0.0.1:${s.proxy.port}`,
    serverId: s.server.id,
    serverKey: other.other.key,
  });
  try {
    await game.start();
    await game.advance(60);
    const hint = 'Check "Server id", "Server key" and this machine\'s clock.';
    const refused = game.logs("warn");
    assert.ok(
      refused.some((line) => line.startsWith("[RustStoreDelivery] Queue answered 401") && line.endsWith(hint)),
      refused.join("\n"),
    );
    assert.ok(
      refused.some((line) => line.startsWith("[RustStoreDelivery] Heartbeat answered 401") && line.endsWith(hint)),
    );
  } finally {
    await game.stop();
    await s.end();
  }
});

test("more due than one answer carries (20): the plugin polls again at once and all 25 are given before its next timer", async () => {
  // Polls every 5 minutes, no doorbell: one timer fires in this scenario (before Rust's save at 10 minutes).
  const s = await scenario({ pollSeconds: 300 });
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Дерево",
      grant: ["inventory.giveto {steamid} wood 10"],
    });
    for (let i = 0; i < 25; i++) await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player, "ru");

    await s.game.advance(300);
    assert.deepEqual(given(s.game, s.player), { wood: 250 });
  } finally {
    await s.end();
  }
});
