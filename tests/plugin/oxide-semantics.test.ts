// The real plugin against Oxide's own rules (issue 35, items 8, 9 and 10's lang part; decision 125):
// permissions held through groups, parent groups and wildcards, a player's name of seventeen digits,
// and lang files an owner has edited. The stand-in's rules are Oxide.Core's (plugins/oxide/stubs/Oxide.cs).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { GameServerProcess } from "./harness.ts";
import { chats, given, type Scenario, scenario } from "./scenario.ts";
import { buy, createItem, credit, db, delivery, giveEntry, one, signIn, timeRunsOut } from "./site.ts";

interface Holds {
  holds: boolean;
  own: boolean;
  groups: string[];
}

/** What Oxide answers about the player and a permission: held at all, held as their own, their groups. */
async function holds(game: GameServerProcess, steamId: string, perm: string): Promise<Holds> {
  const events = await game.send(`holds ${steamId} ${perm}`);
  const answer = events.find((event) => event.ev === "holds");
  if (!answer) throw new Error("no answer to holds");
  return { holds: answer.holds === true, own: answer.own === true, groups: answer.groups as string[] };
}

/**
 * Lets one poll round run the delivery, saves the world and lets the next round report it: it counts
 * as delivered once the world is saved (decision 124). The delivery as the site then has it.
 */
async function deliveredAndSaved(s: Scenario, entryId: number, kind: "grant" | "revoke" = "grant") {
  await s.game.advance(15);
  await s.game.send("save");
  await s.game.advance(15);
  return delivery(entryId, kind);
}

function permEvents(game: GameServerProcess, from = 0): string[][] {
  return game.all("perm", from).map((event) => [String(event.op), String(event.steam_id), String(event.perm)]);
}

test("a kit the VIP group also holds: the purchase grants it as the player's own, its end revokes only that, and both are done", async () => {
  const s = await scenario({ groups: ["vip"], permissions: ["kits.vip"] });
  try {
    await s.game.send("console oxide.grant group vip kits.vip");
    await s.game.send(`console oxide.usergroup add ${s.player} vip`);
    assert.deepEqual(await holds(s.game, s.player, "kits.vip"), { holds: true, own: false, groups: ["vip"] });

    const itemId = await createItem({
      serverType: s.type,
      name: "Набор VIP",
      durations: [30],
      grant: ["oxide.grant user {steamid} kits.vip"],
      revoke: ["oxide.revoke user {steamid} kits.vip"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type, 30);
    await s.game.join(s.player);
    assert.equal((await deliveredAndSaved(s, entryId))?.status, "done");
    assert.deepEqual(permEvents(s.game), [["grant", s.player, "kits.vip"]]);
    assert.deepEqual(await holds(s.game, s.player, "kits.vip"), { holds: true, own: true, groups: ["vip"] });

    await timeRunsOut(entryId);
    const revoke = await deliveredAndSaved(s, entryId, "revoke");
    assert.equal(revoke?.status, "done");
    assert.equal(revoke?.last_error, null);
    assert.deepEqual(permEvents(s.game), [
      ["grant", s.player, "kits.vip"],
      ["revoke", s.player, "kits.vip"],
    ]);
    // The purchase's own permission is gone; the VIP group's, which the purchase never gave, stays.
    assert.deepEqual(await holds(s.game, s.player, "kits.vip"), { holds: true, own: false, groups: ["vip"] });
    assert.deepEqual(chats(s.game, s.player), [
      "Магазин: вы получили «Набор VIP» на 30 дн. Срок действия — в Корзине на сайте.",
      "Магазин: срок «Набор VIP» закончился.",
    ]);
    assert.ok(
      s.game
        .logs("info")
        .some((line) => line.includes(`${s.player} still has kits.vip through the Oxide group(s) vip`)),
    );
    assert.deepEqual(s.game.logs("error"), []);
  } finally {
    await s.end();
  }
});

test("a wildcard: the group's kits.* holds each kit registered then; the item's kits.* grants and revokes the player's own, and a later kit is not held", async () => {
  const s = await scenario({ groups: ["vip"], permissions: ["kits.start", "kits.vip"] });
  try {
    // Oxide expands a wildcard when it is granted, over the permissions registered at that moment.
    await s.game.send("console oxide.grant group vip kits.*");
    await s.game.send(`console oxide.usergroup add ${s.player} vip`);
    await s.game.send("permission kits.late");
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: true, own: false, groups: ["vip"] });
    assert.deepEqual(await holds(s.game, s.player, "kits.late"), { holds: false, own: false, groups: ["vip"] });

    const itemId = await createItem({
      serverType: s.type,
      name: "Все наборы",
      durations: [7],
      grant: ["oxide.grant user {steamid} kits.*"],
      revoke: ["oxide.revoke user {steamid} kits.*"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type, 7);
    await s.game.join(s.player);
    assert.equal((await deliveredAndSaved(s, entryId))?.status, "done");
    assert.deepEqual(
      permEvents(s.game)
        .map(([op, , perm]) => `${op} ${perm}`)
        .sort(),
      ["grant kits.late", "grant kits.start", "grant kits.vip"],
    );

    await timeRunsOut(entryId);
    const revoke = await deliveredAndSaved(s, entryId, "revoke");
    assert.equal(revoke?.status, "done");
    assert.equal(revoke?.last_error, null);
    // Only the player's own kits went; the group's two stay with the player, kits.late (never the group's) does not.
    assert.deepEqual(await holds(s.game, s.player, "kits.vip"), { holds: true, own: false, groups: ["vip"] });
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: true, own: false, groups: ["vip"] });
    assert.deepEqual(await holds(s.game, s.player, "kits.late"), { holds: false, own: false, groups: ["vip"] });
  } finally {
    await s.end();
  }
});

test("a parent group: a kit the player holds through vip's parent stays after the purchase's revoke, which is done", async () => {
  const s = await scenario({ groups: ["default", "vip"], permissions: ["kits.start"] });
  try {
    await s.game.send("console oxide.grant group default kits.start");
    const parent = await s.game.send("console oxide.group parent vip default");
    assert.deepEqual(
      parent.filter((event) => event.ev === "reply").map((event) => event.text),
      ["Group 'vip' parent changed to 'default'"],
    );
    await s.game.send(`console oxide.usergroup add ${s.player} vip`);
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: true, own: false, groups: ["vip"] });

    const itemId = await createItem({
      serverType: s.type,
      name: "Стартовый набор",
      durations: [7],
      grant: ["oxide.grant user {steamid} kits.start"],
      revoke: ["oxide.revoke user {steamid} kits.start"],
    });
    const entryId = await giveEntry(s.player, itemId, s.type, 7);
    await s.game.join(s.player);
    assert.equal((await deliveredAndSaved(s, entryId))?.status, "done");
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: true, own: true, groups: ["vip"] });

    await timeRunsOut(entryId);
    await s.game.send(`leave ${s.player}`);
    // The revoke runs with the player offline.
    const revoke = await deliveredAndSaved(s, entryId, "revoke");
    assert.equal(revoke?.status, "done");
    assert.equal(revoke?.last_error, null);
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: true, own: false, groups: ["vip"] });
    assert.ok(
      s.game
        .logs("info")
        .some((line) => line.includes(`${s.player} still has kits.start through the Oxide group(s) vip`)),
    );

    // Without the parent group the kit is gone: the group chain is what held it.
    await s.game.send("console oxide.group remove default");
    assert.deepEqual(await holds(s.game, s.player, "kits.start"), { holds: false, own: false, groups: ["vip"] });
  } finally {
    await s.end();
  }
});

test("a Steam name of seventeen digits: bought, delivered once, the chat shows the name, and no SteamID rule trips", async () => {
  // A type the shop sells (the purchase checks it), which no other scenario uses.
  const s = await scenario({ type: "VANILLA", groups: ["vip"] });
  try {
    const itemId = await createItem({
      serverType: s.type,
      name: "VIP",
      grant: ["say {nickname} купил VIP", "oxide.usergroup add {steamid} vip"],
    });
    const session = await signIn(s.player);
    // The player's Steam name, as the site keeps it: someone else's SteamID, for all anyone can tell.
    const name = "76561198999999999";
    await db().execute({ sql: "UPDATE users SET nickname = ? WHERE steam_id = ?", args: [name, s.player] });
    await credit(s.player, 100);
    const bought = await buy(session, itemId, s.type);
    assert.equal(bought.status, 201, JSON.stringify(bought.body));
    const { id: entryId } = await one<{ id: number }>(
      "SELECT e.id FROM inventory_entries e JOIN users u ON u.id = e.user_id WHERE u.steam_id = ?",
      s.player,
    );

    await s.game.join(s.player, "ru", name);
    const done = await deliveredAndSaved(s, entryId);
    assert.equal(done?.status, "done");
    assert.equal(done?.last_error, null);
    assert.deepEqual(
      s.game.all("broadcast").map((event) => [event.username, event.text]),
      [["SERVER", `${name} купил VIP`]],
    );
    assert.deepEqual(
      s.game.all("group").map((event) => [event.op, event.steam_id, event.group]),
      [["add", s.player, "vip"]],
    );
    assert.deepEqual(chats(s.game, s.player), ["Магазин: вы получили «VIP»."]);
    assert.deepEqual(s.game.logs("error"), []);

    // Later polls never run it again.
    await s.game.advance(60);
    assert.equal(s.game.all("broadcast").length, 1);
  } finally {
    await s.end();
  }
});

test("a command naming another player is still refused, by the argument it acts on", async () => {
  const s = await scenario({ groups: ["vip"], permissions: ["kits.vip"] });
  try {
    const group = await createItem({
      serverType: s.type,
      name: "Чужая группа",
      grant: ["oxide.usergroup add 76561198999999999 vip"],
    });
    const perm = await createItem({
      serverType: s.type,
      name: "Чужой набор",
      grant: ["say {steamid} купил набор", "oxide.grant user 76561198999999999 kits.vip"],
    });
    const groupEntry = await giveEntry(s.player, group, s.type);
    const permEntry = await giveEntry(s.player, perm, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    assert.equal(
      (await delivery(groupEntry))?.last_error,
      "В команде чужой SteamID: oxide.usergroup add 76561198999999999 vip",
    );
    assert.equal(
      (await delivery(permEntry))?.last_error,
      "В команде чужой SteamID: oxide.grant user 76561198999999999 kits.vip",
    );
    assert.deepEqual(s.game.all("group"), []);
    assert.deepEqual(s.game.all("perm"), []);
    assert.deepEqual(s.game.all("broadcast"), []);
  } finally {
    await s.end();
  }
});

test("lang files an owner edited keep the owner's texts across restarts and reloads; a new key is added, an old one dropped", async () => {
  const s = await scenario();
  try {
    const ruFile = join(s.game.root, "oxide", "lang", "ru", "RustStoreDelivery.json");
    const enFile = join(s.game.root, "oxide", "lang", "en", "RustStoreDelivery.json");
    const defaults = JSON.parse(readFileSync(ruFile, "utf8")) as Record<string, string>;
    assert.equal(defaults.Delivered, "Магазин: вы получили «{0}».");

    // The owner rewords a message, and the file lacks a key a newer plugin has and keeps one it dropped.
    await s.game.stop();
    const edited: Record<string, string> = { ...defaults, Delivered: "Спасибо за покупку! Держи «{0}»." };
    delete edited.NoRoom;
    edited.Obsolete = "старый текст";
    writeFileSync(ruFile, JSON.stringify(edited, null, 2));
    writeFileSync(
      enFile,
      JSON.stringify({ ...JSON.parse(readFileSync(enFile, "utf8")), Delivered: 'Thanks! Here is "{0}".' }),
    );

    await s.game.start();
    const merged = JSON.parse(readFileSync(ruFile, "utf8")) as Record<string, string>;
    assert.equal(merged.Delivered, "Спасибо за покупку! Держи «{0}».");
    assert.equal(merged.NoRoom, defaults.NoRoom);
    assert.equal(merged.Obsolete, undefined);
    assert.deepEqual(Object.keys(merged).sort(), Object.keys(defaults).sort());

    const itemId = await createItem({
      serverType: s.type,
      name: "Дерево",
      grant: ["inventory.giveto {steamid} wood 100"],
    });
    const english = `${s.player.slice(0, -1)}${(Number(s.player.at(-1)) + 1) % 10}`;
    await giveEntry(s.player, itemId, s.type);
    await giveEntry(english, itemId, s.type);
    await s.game.join(s.player, "ru");
    await s.game.join(english, "en");
    await s.game.advance(15);
    assert.deepEqual(given(s.game, s.player), { wood: 100 });
    assert.deepEqual(chats(s.game, s.player), ["Спасибо за покупку! Держи «Дерево»."]);
    assert.deepEqual(chats(s.game, english), ['Thanks! Here is "Дерево".']);

    // An edit while the server runs shows after the plugin is reloaded (Oxide reads the file again then).
    writeFileSync(ruFile, JSON.stringify({ ...merged, Delivered: "Выдано: «{0}»" }));
    await s.game.send("unload");
    await s.game.send("load");
    const from = s.game.events.length;
    await giveEntry(s.player, itemId, s.type);
    await s.game.advance(15);
    assert.deepEqual(chats(s.game, s.player, from), ["Выдано: «Дерево»"]);
    assert.equal(JSON.parse(readFileSync(ruFile, "utf8")).Delivered, "Выдано: «{0}»");
  } finally {
    await s.end();
  }
});
