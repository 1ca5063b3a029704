// What the site answers the plugin is trusted only when signed, one bad acknowledgement never
// blocks the others, and a delivery is handed to another server only when its own has gone quiet
// (issue 26, items 3 and 7).
import assert from "node:assert/strict";
import { test } from "node:test";
import { GameServerProcess } from "./harness.ts";
import { chats, crashBeforeAck, given, scenario } from "./scenario.ts";
import { createGameServer, createItem, db, delivery, giveEntry, one } from "./site.ts";

const HANDOFF_MS = 30 * 60 * 1000;

test("a result the site refuses as malformed is set aside; the other results in its batch are taken", async () => {
  const s = await scenario();
  try {
    const bad = await createItem({
      serverType: s.type,
      name: "Плохой",
      grant: ["inventory.giveto {steamid} nosuchitem 1"],
    });
    const good = await createItem({
      serverType: s.type,
      name: "Хороший",
      grant: ["inventory.giveto {steamid} wood 10"],
    });
    const badEntry = await giveEntry(s.player, bad, s.type);
    const goodEntry = await giveEntry(s.player, good, s.type);
    const badId = (
      await one<{ id: string }>("SELECT id FROM deliveries WHERE inventory_entry_id = ?", badEntry).catch(() => null)
    )?.id;
    let refusedId = badId ?? "";
    const ackBodies: string[] = [];
    s.proxy.respond = (path, body) => {
      if (path !== "/api/game/ack") return null;
      ackBodies.push(body);
      if (!refusedId)
        refusedId = String(
          (JSON.parse(body) as { results: { delivery_id: string; ok: boolean }[] }).results.find((r) => !r.ok)
            ?.delivery_id ?? "",
        );
      return body.includes(refusedId) ? { status: 400, body: '{"error":"Неверный запрос"}' } : null;
    };
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { wood: 10 });
    assert.equal((await delivery(goodEntry))?.status, "done");
    assert.ok(
      s.game.logs("error").some((line) => line.includes(`The site refused the result of delivery ${refusedId}`)),
    );

    const sent = ackBodies.length;
    await s.game.advance(60);
    assert.ok(ackBodies.slice(sent).every((body) => !body.includes(refusedId)));
    assert.equal((await delivery(badEntry))?.attempts, 0);
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
        ? body.replace(/"response_signature":"[0-9a-f]+"/, `"response_signature":"${"0".repeat(64)}"`)
        : body;
    await s.game.join(s.player);
    await s.game.advance(15);
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

test("a lapsed delivery stays with its server while that server heartbeats; handed over when it is gone, and the first server says so", async () => {
  const s = await scenario();
  const other = await createGameServer(s.type);
  const otherGame = new GameServerProcess({
    siteUrl: `http://127.0.0.1:${s.proxy.port}`,
    serverId: other.id,
    serverKey: other.key,
  });
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 100"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type);
    await s.game.join(s.player);
    await crashBeforeAck(s);

    // Long past the hand-off time, but the first server heartbeated a moment ago: it stays there.
    await db().execute({
      sql: "UPDATE deliveries SET lease_until = ? WHERE inventory_entry_id = ?",
      args: [Date.now() - HANDOFF_MS - 60_000, entryId],
    });
    await otherGame.start();
    await otherGame.join(s.player);
    await otherGame.advance(15);
    assert.deepEqual(given(otherGame, s.player), {});

    // The first server has gone quiet: the second one takes it.
    await db().execute({
      sql: "UPDATE server_heartbeats SET received_at = ? WHERE server_id = ?",
      args: [Date.now() - 3_600_000, s.server.id],
    });
    await otherGame.advance(15);
    assert.deepEqual(given(otherGame, s.player), { sulfur: 100 });
    assert.equal((await delivery(entryId))?.done_server_id, other.id);

    // The first comes back with its result: the site refuses it, and the server's log says why that matters.
    await s.game.start();
    await s.game.advance(15);
    assert.ok(
      s.game
        .logs("error")
        .some((line) =>
          line.includes("ran here, but the site has handed it to another server: it may be delivered twice"),
        ),
    );
  } finally {
    await otherGame.stop();
    await s.end();
  }
});
