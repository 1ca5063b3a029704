// What the site answers the plugin is trusted only when signed — and nothing unsigned changes the
// journal — one bad acknowledgement never blocks the others, and a delivery a silent server may have
// run is never handed to another by itself (issue 26, items 3 and 7; issue 35, items 4 and 7).
import assert from "node:assert/strict";
import { test } from "node:test";
import { chats, crashBeforeAck, given, scenario, secondServer } from "./scenario.ts";
import { consoleRow, createItem, db, delivery, giveEntry, leaseLapsed, pressRetry } from "./site.ts";

test("a result the site itself refuses (a signed 400) is set aside; the others in its batch are taken", async () => {
  const s = await scenario();
  try {
    const bad = await createItem({ serverType: s.type, name: "Плохой", grant: ["inventory.giveto {steamid} wood 10"] });
    const good = await createItem({
      serverType: s.type,
      name: "Хороший",
      grant: ["inventory.giveto {steamid} stones 10"],
    });
    const badEntry = await giveEntry(s.player, bad, s.type);
    const goodEntry = await giveEntry(s.player, good, s.type);
    // The first acknowledgement is lost; meanwhile the bad delivery's commands change under it, so the
    // plugin's report no longer fits them and the site refuses it, signed.
    s.proxy.respond = (path) => (path === "/api/game/ack" ? { status: 503, body: "{}" } : null);
    await s.game.join(s.player);
    await s.game.advance(15);
    const badId = (await delivery(badEntry))?.id ?? "";
    await db().execute({
      sql: `UPDATE deliveries SET commands = '["inventory.giveto 1 wood 10","say 1"]' WHERE id = ?`,
      args: [badId],
    });
    s.proxy.respond = null;
    await s.game.save();
    await s.game.advance(15);
    assert.equal((await delivery(goodEntry))?.status, "done");
    assert.ok(s.game.logs("error").some((line) => line.includes(`The site refused the result of delivery ${badId}`)));
    const acks: string[] = [];
    s.proxy.onRequest = (path) => {
      if (path === "/api/game/ack") acks.push(path);
    };
    await s.game.advance(60);
    assert.deepEqual(acks, []);
    assert.equal((await delivery(badEntry))?.status, "pending");
  } finally {
    await s.end();
  }
});

test("an unsigned 400 (a proxy, a firewall, anyone on the path) sets nothing aside: the result is sent again and delivered once", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Уголь",
      grant: ["inventory.giveto {steamid} sulfur 20"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    s.proxy.respond = (path) => (path === "/api/game/ack" ? { status: 400, body: '{"error":"Bad Request"}' } : null);
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    await s.game.advance(30);
    assert.ok(s.game.logs("warn").some((line) => line.includes("Ack answered 400 without the site's signature")));
    assert.ok(!s.game.logs("error").some((line) => line.includes("set aside")));
    assert.equal((await delivery(entryId))?.status, "pending");

    s.proxy.respond = null;
    await s.game.advance(15);
    assert.equal((await delivery(entryId))?.status, "done");
    assert.deepEqual(given(s.game, s.player), { sulfur: 20 });
    // Long after (the old journal forgot answered entries after an hour or a week): never run again.
    await leaseLapsed(entryId);
    await s.game.advance(3 * 3600);
    assert.deepEqual(given(s.game, s.player), { sulfur: 20 });
  } finally {
    await s.end();
  }
});

test("a failure text longer than the site keeps is cut to 300 characters and accepted", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Длинный",
      grant: [`inventory.giveto {steamid} ${"x".repeat(2500)} 1`],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    const failed = await delivery(entryId);
    assert.equal(failed?.attempts, 1);
    assert.equal(failed?.last_error?.length, 300);
    assert.ok(failed?.last_error?.startsWith("Нет такого предмета в Rust: xxx"));
  } finally {
    await s.end();
  }
});

test("a forged acknowledgement answer changes nothing: the results are sent again until a signed answer comes", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Камень",
      grant: ["inventory.giveto {steamid} stones 100"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    let acks = 0;
    s.proxy.onRequest = (path) => {
      if (path === "/api/game/ack") acks++;
    };
    s.proxy.rewrite = (path, body) =>
      path === "/api/game/ack"
        ? body.replace(/"response_signature(_v3)?":"[0-9a-f]+"/g, `"response_signature$1":"${"0".repeat(64)}"`)
        : body;
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    assert.ok(s.game.logs("error").some((line) => line.includes("Ack answer has a wrong signature")));
    const before = acks;
    s.proxy.rewrite = null;
    await s.game.advance(15);
    assert.ok(acks > before);
    const after = acks;
    await s.game.advance(30);
    assert.equal(acks, after, "nothing left to acknowledge once a signed answer came");
    assert.equal((await delivery(entryId))?.status, "done");
    assert.deepEqual(given(s.game, s.player), { stones: 100 });
  } finally {
    await s.end();
  }
});

test("/store shows what is waiting only from a signed answer", async () => {
  const s = await scenario();
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "VIP",
      durations: [30],
      grant: ["oxide.usergroup add {steamid} vip"],
    });
    await giveEntry(s.player, itemId, s.type, 30);
    // A player who is not yet able to receive it (still connecting) asks what is waiting.
    await s.game.join(s.player);
    await s.game.send(`flag ${s.player} connecting`);
    await s.game.send(`chat ${s.player} store`);
    assert.deepEqual(chats(s.game, s.player), [
      "Ожидают выдачи: VIP (30 дн.). Предметы выдаются автоматически, пока вы на сервере.",
    ]);

    s.proxy.rewrite = (path, body) => (path === "/api/game/pending" ? body.replace("VIP", "Админка") : body);
    await s.game.advance(11);
    await s.game.send(`chat ${s.player} store`);
    assert.equal(chats(s.game, s.player)[1], "Магазин сейчас недоступен, попробуйте позже.");
    assert.ok(s.game.logs("error").some((line) => line.includes("/store answer has a wrong signature")));
  } finally {
    await s.end();
  }
});

test("a delivery whose server died without a report is never handed over by itself; «Повторить» moves it, and the world holds it once", async () => {
  const s = await scenario();
  const { other, game: otherGame } = await secondServer(s);
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 100"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await crashBeforeAck(s);

    // Long past the old hand-off time, and the first server is silent: the second gets nothing.
    const id = (await delivery(entryId))?.id ?? "";
    await db().execute({
      sql: "UPDATE deliveries SET lease_until = ? WHERE inventory_entry_id = ?",
      args: [Date.now() - 3_600_000, entryId],
    });
    await db().execute({
      sql: "UPDATE server_heartbeats SET received_at = ? WHERE server_id = ?",
      args: [Date.now() - 3_600_000, s.server.id],
    });
    await otherGame.start();
    await otherGame.join(s.player);
    await otherGame.advance(30);
    assert.deepEqual(given(otherGame, s.player), {});
    const row = await consoleRow(id, "pending");
    assert.match(row, new RegExp(`Сервер №${s.server.id} взял доставку и не отвечает с .*: он мог её выполнить`));
    assert.match(
      row,
      new RegExp(
        `Повторить выполнит: 1\\. inventory\\.giveto ${s.player} sulfur 100 — на любом сервере типа ${s.type} \\(сервер №${s.server.id} не отвечает с`,
      ),
    );

    // The operator decides: the second server delivers it.
    assert.equal(await pressRetry(id), 302);
    await otherGame.advance(15);
    await otherGame.save();
    assert.deepEqual(given(otherGame, s.player), { sulfur: 100 });
    assert.equal((await delivery(entryId))?.done_server_id, other.id);

    // The first comes back from its crash: its world rolled back, so it never had the sulfur, and its
    // report (nothing took effect there) is refused without a warning of a double.
    await s.game.start();
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.deepEqual(await s.game.inventory(s.player), {});
    assert.deepEqual(await otherGame.inventory(s.player), { sulfur: 100 });
    assert.ok(!s.game.logs("error").some((line) => line.includes("it may be delivered twice")));
  } finally {
    await otherGame.stop();
    await s.end();
  }
});
