// Issue 44 item 5: a power loss during a journal write. Oxide writes data files in place with no flush,
// so what was written in the last 30 s can come back empty (the stand-in's `fault power-loss-on-write`);
// the journal is written beside its file, flushed to disk and renamed over it, so it keeps its last
// complete state: nothing given twice, nothing lost.
import assert from "node:assert/strict";
import { test } from "node:test";
import { crashWith, given, scenario } from "./scenario.ts";
import { createItem, delivery, entry, giveEntry, leaseLapsed } from "./site.ts";

test("power lost as the journal is written: it keeps its last complete state, each delivery runs once", async () => {
  const s = await scenario();
  try {
    const sulfur = await createItem({
      serverType: s.type,
      name: "Сера",
      grant: ["inventory.giveto {steamid} sulfur 500"],
    });
    const wood = await giveEntry(
      s.player,
      await createItem({ serverType: s.type, name: "Дерево", grant: ["inventory.giveto {steamid} wood 100"] }),
      s.type,
    );
    const first = await giveEntry(s.player, sulfur, s.type);
    await s.game.join(s.player);
    await s.game.advance(15);
    await s.game.save();
    assert.equal((await delivery(first))?.status, "done");

    const second = await giveEntry(s.player, sulfur, s.type);
    // The next journal write (the second delivery starting) is where the power fails, seconds after the last one.
    await crashWith(s, "power-loss-on-write 1");

    const from = s.game.events.length;
    await s.game.start();
    await s.game.join(s.player);
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 500, wood: 100 });
    await leaseLapsed(second);
    await s.game.advance(15);
    await s.game.save();
    assert.deepEqual(s.game.logs("error"), []);
    assert.deepEqual(given(s.game, s.player, from), { sulfur: 500 });
    assert.deepEqual(await s.game.inventory(s.player), { sulfur: 1000, wood: 100 });
    for (const id of [wood, first, second]) {
      assert.equal((await delivery(id))?.status, "done");
      assert.equal((await entry(id)).status, "used");
    }
  } finally {
    await s.end();
  }
});
