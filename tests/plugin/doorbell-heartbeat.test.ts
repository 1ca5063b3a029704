// The heartbeat with the doorbell (decision 151): while connected the plugin beats at its own, rarer
// cadence, since the site counts a server whose heartbeat said «doorbell» alive for 9 minutes; it beats at
// once when the doorbell connects or drops, so a dropped one is back on the 3-minute rule at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { scenario } from "./scenario.ts";
import { one } from "./site.ts";

/** Short intervals, so the game's clock moves little: beats every 10 s without the doorbell, every 40 s with it. */
const DOORBELL = { pollSeconds: 600, doorbellPollSeconds: 600, heartbeatSeconds: 10, doorbellHeartbeatSeconds: 40 };

/**
 * Until the wall clock's second turns. The site keeps a heartbeat only when signed in a later second than
 * the stored one (its replay guard), and the harness's game clock runs far ahead of the wall's: a beat the
 * scenario wants stored must not share its second with the one before.
 */
async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === second) await new Promise((done) => setTimeout(done, 10));
}

test("connected, the plugin beats at the doorbell's cadence; a drop is told with a heartbeat at once", async () => {
  const s = await scenario({ doorbell: DOORBELL, start: false });
  /** The `doorbell` of each heartbeat that reached the site, in order. */
  const beats: boolean[] = [];
  s.proxy.respond = (path, body) => {
    if (path === "/api/game/heartbeat") beats.push((JSON.parse(body) as { doorbell: boolean }).doorbell);
    return null;
  };
  const storedFlag = async () =>
    (await one<{ doorbell: number | null }>("SELECT doorbell FROM server_heartbeats WHERE server_id = ?", s.server.id))
      .doorbell;
  try {
    await s.game.start();
    assert.ok(await s.game.logged("Doorbell connected"));
    assert.ok(s.game.logs().some((line) => line.includes("safety poll every 600 s, heartbeat every 40 s.")));
    await nextSecond();
    // 44 s of the game's clock (below the 45 s ping, whose pong frames would need real time): the beat at
    // load, the one the connection sent, and one 40 s later; the plain cadence would have sent four.
    await s.game.advance(44);
    assert.deepEqual(beats, [false, true, true]);
    assert.equal(await storedFlag(), 1);

    // The network cuts the socket, and upgrades are refused from now on (the doorbell rests 10 minutes).
    s.proxy.refuseUpgrades = true;
    const dropped = beats.length;
    await nextSecond();
    const from = s.game.events.length;
    assert.ok(s.proxy.cutDoorbell(s.server.id));
    assert.ok(await s.game.logged("Doorbell dropped", from));
    // Told at once, the game's clock still: the site is back on the 3-minute rule.
    assert.deepEqual(beats.slice(dropped), [false]);
    assert.equal(await storedFlag(), 0);
    // Then every 10 s again.
    await s.game.advance(30);
    assert.deepEqual(beats.slice(dropped), [false, false, false, false]);
  } finally {
    s.proxy.respond = null;
    await s.end();
  }
});
