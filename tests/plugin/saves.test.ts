// Issue 44 (decision 131): Rust's save takes seconds — the OnServerSave hook first, then the caches over
// frames, one serialization frame, `.new` and the copy, SaveRestore.IsSaving all along (the stand-in
// world, plugins/oxide/stubs/World.cs). A delivery counts as given on the site only once a save that
// holds it has reached the disk, and nothing is given while a save runs. Each scenario kills, quits,
// reloads or fails the game server at one phase of a save and checks what the player holds after the
// restart and what the site says.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Scenario, scenario } from "./scenario.ts";
import { createItem, delivery, entry, giveEntry, leaseLapsed } from "./site.ts";

const SULFUR = ["inventory.giveto {steamid} sulfur 500"];

/** A player online and sulfur 500 bought for them; with `give`, one poll round gives it (not saved yet). */
async function sulfurBought(s: Scenario, give = true): Promise<number> {
  const itemId = await createItem({ serverType: s.type, name: "Сера ×500", grant: SULFUR });
  await s.game.join(s.player);
  const entryId = await giveEntry(s.player, itemId, s.type);
  if (give) await s.game.advance(15);
  return entryId;
}

/** The server is started again from its last completed save; the player joins; the plugin runs and the world saves. */
async function restartAndSettle(s: Scenario): Promise<void> {
  await s.game.start();
  await s.game.join(s.player);
  await s.game.advance(15);
  await s.game.save();
  await s.game.advance(15);
}

/** What the player holds once everything settled, and what the site says of the delivery and the entry. */
async function outcome(s: Scenario, entryId: number) {
  return {
    holds: await s.game.inventory(s.player),
    delivery: (await delivery(entryId))?.status,
    entry: (await entry(entryId)).status,
  };
}

const DELIVERED = { holds: { sulfur: 500 }, delivery: "done", entry: "used" };

/**
 * Sulfur 500 bought and given (not saved yet); then `during` does its worst to the game server around a
 * save, and when `restart` the server starts again from its last completed save. In the end the player
 * holds sulfur 500 exactly, and the site says so.
 */
function aroundASave(name: string, restart: boolean, during: (s: Scenario, entryId: number) => Promise<void>) {
  test(name, async () => {
    const s = await scenario();
    try {
      const entryId = await sulfurBought(s);
      await during(s, entryId);
      if (restart) await restartAndSettle(s);
      assert.deepEqual(await outcome(s, entryId), DELIVERED);
    } finally {
      await s.end();
    }
  });
}

async function notYetDone(entryId: number): Promise<void> {
  assert.notEqual((await delivery(entryId))?.status, "done");
}

aroundASave("a kill before the save's hook: the give was rolled back and runs once more", true, async (s) => {
  await s.game.kill();
});

aroundASave(
  "item 1: a kill between the hook and the write: not «Выдано» before the disk, and given again after the restart",
  true,
  async (s, entryId) => {
    await s.game.send("save-to cache");
    await notYetDone(entryId);
    await s.game.send("save-to serialized");
    await notYetDone(entryId);
    await s.game.kill();
  },
);

aroundASave(
  "item 1: a kill during the write of the save: the last completed save comes back, and the give runs once more",
  true,
  async (s) => {
    await s.game.send("fault crash-in-world-write");
    await s.game.send("save-to written").catch(() => []);
    await s.game.died();
  },
);

aroundASave(
  "a kill after the write, while IsSaving is still true: the save holds the sulfur and nothing is given twice",
  true,
  async (s) => {
    await s.game.send("save-to written");
    await s.game.kill();
  },
);

aroundASave("a save that completes: «Выдано» once it is on disk, with no poll in between", false, async (s) => {
  await s.game.save();
});

aroundASave(
  "item 1: `quit` during an automated save (Rust's shutdown save is refused): the give runs once more after the start",
  true,
  async (s) => {
    await s.game.send("save-to cache");
    await s.game.stop();
  },
);

aroundASave(
  "item 1: a `server.save` typed during an automated save is refused and counts nothing; a crash then loses nothing",
  true,
  async (s, entryId) => {
    await s.game.send("save-to cache");
    await s.game.send("console server.save");
    await notYetDone(entryId);
    await s.game.kill();
  },
);

aroundASave(
  "item 1: a plugin reload during an automated save counts nothing; a crash then loses nothing",
  true,
  async (s, entryId) => {
    await s.game.send("save-to cache");
    await s.game.send("unload");
    await s.game.send("load");
    await notYetDone(entryId);
    await s.game.kill();
  },
);

aroundASave(
  "a plugin reload during an automated save that completes: «Выдано» once, nothing given twice",
  false,
  async (s) => {
    await s.game.send("save-to cache");
    await s.game.send("unload");
    await s.game.send("load");
    await s.game.save();
    await s.game.advance(15);
  },
);

aroundASave(
  "item 1: a save whose write fails counts nothing; the next one that reaches the disk does",
  true,
  async (s, entryId) => {
    await s.game.send("fault world-write-fails");
    await s.game.save();
    await s.game.advance(15);
    await notYetDone(entryId);
    await s.game.kill();
  },
);

test("item 2: nothing is given while a save builds its caches: a crash before its write leaves sulfur 500, not 1000", async () => {
  const s = await scenario();
  try {
    await s.game.send("save-config cache 20");
    const entryId = await sulfurBought(s, false);
    await s.game.send("save-to cache");
    await s.game.advance(15); // a poll round well after the hook, while the caches are still being built
    await s.game.send("save-to written");
    await s.game.kill();
    await leaseLapsed(entryId); // the crash kept the skipped delivery's lease: the site serves it again after it
    await s.game.start();
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    await s.game.advance(15);
    assert.deepEqual(await outcome(s, entryId), DELIVERED);
  } finally {
    await s.end();
  }
});
