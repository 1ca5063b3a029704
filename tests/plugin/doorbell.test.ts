// The doorbell (issue 48, decision 148): the site rings the plugin's WebSocket when a delivery becomes due
// and the plugin polls at once. The game's clock never moves in these scenarios unless said: no poll timer
// can fire, so only a ring explains a poll (frames pass in real time meanwhile, `logged` and `requested`).
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { test } from "node:test";
import { given, type Scenario, scenario, secondServer } from "./scenario.ts";
import { buy, createItem, credit, restartSite, signIn } from "./site.ts";

/** A type the shop sells (the purchase checks it) and no other plugin scenario uses. */
const type = "SOLO";
/** Polls every 10 minutes either way: a delivery within the scenario is the doorbell's doing. */
const DOORBELL = { pollSeconds: 600, doorbellPollSeconds: 600 };
const CONNECTED = "Doorbell connected";
const GIVEN = "given, counted once the world is saved";

async function wood(s: Scenario): Promise<number> {
  return createItem({ serverType: s.type, name: "Дерево", grant: ["inventory.giveto {steamid} wood 1000"] });
}

/** A ring as the site sends it, signed with the server's key (or with `sig`), sent at `t` (now unless given). */
function signedRing(s: Scenario) {
  const key = createHash("sha256").update(s.server.key).digest();
  return (n: number, sig?: string, t = Math.floor(Date.now() / 1000)) =>
    JSON.stringify({
      ring: n,
      t,
      sig: sig ?? createHmac("sha256", key).update(`doorbell\n${s.server.id}\n${n}\n${t}`).digest("hex"),
    });
}

/** Waits (up to 20 s) for a log line the game server prints while an instruction runs. */
async function logSeen(s: Scenario, text: string, from: number): Promise<void> {
  const until = Date.now() + 20_000;
  while (!s.game.events.slice(from).some((event) => event.ev === "log" && String(event.text).includes(text))) {
    if (Date.now() > until) throw new Error(`no log line «${text}»`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

async function buyWood(s: Scenario, itemId: number): Promise<void> {
  const session = await signIn(s.player);
  await credit(s.player, 100);
  const bought = await buy(session, itemId, s.type);
  assert.equal(bought.status, 201, JSON.stringify(bought.body));
}

/** An online player buys wood and has it: with no poll timer due, only a ring explains it. */
async function boughtAndGiven(s: Scenario): Promise<void> {
  const itemId = await wood(s);
  await s.game.join(s.player, "ru");
  const from = s.game.events.length;
  await buyWood(s, itemId);
  assert.ok(await s.game.logged(GIVEN, from));
  assert.deepEqual(given(s.game, s.player), { wood: 1000 });
}

test("a purchase reaches the online player through the doorbell, with no poll due for ten minutes", async () => {
  const s = await scenario({ type, doorbell: DOORBELL });
  try {
    assert.ok(await s.game.logged(CONNECTED));
    await boughtAndGiven(s);
  } finally {
    await s.end();
  }
});

test("the site restarted: the plugin says it polls meanwhile, reconnects, and the next purchase rings again", async () => {
  const s = await scenario({ type, doorbell: { pollSeconds: 30, doorbellPollSeconds: 600 } });
  try {
    assert.ok(await s.game.logged(CONNECTED));
    const itemId = await wood(s);
    await s.game.join(s.player, "ru");
    const from = s.game.events.length;
    await restartSite();

    assert.ok(await s.game.logged("Doorbell dropped", from));
    assert.ok(
      s.game
        .logs("warn")
        .some((line) => /Doorbell dropped \(.+\); polling every 30 s until it reconnects\./.test(line)),
    );
    // The first reconnection waits up to 1 s of the game's clock (full jitter).
    await s.game.advance(1);
    assert.ok(await s.game.logged(CONNECTED, from));
    const bought = s.game.events.length;
    await buyWood(s, itemId);
    assert.ok(await s.game.logged(GIVEN, bought));
    assert.deepEqual(given(s.game, s.player), { wood: 1000 });
  } finally {
    await s.end();
  }
});

test("a forged or stale ring is ignored, said once; a ring signed with the server's key polls", async () => {
  const s = await scenario({ type, doorbell: DOORBELL });
  try {
    assert.ok(await s.game.logged(CONNECTED));
    const polls: number[] = [];
    s.proxy.onRequest = (path, serverId) => {
      if (path === "/api/game/queue") polls.push(serverId);
    };
    const ring = signedRing(s);
    const now = Math.floor(Date.now() / 1000);
    // Frames reach the main thread in order: if either of the first two made a poll, the third would make
    // a second one after it.
    assert.ok(s.proxy.forgeFrame(s.server.id, ring(1000, "0".repeat(64))));
    assert.ok(s.proxy.forgeFrame(s.server.id, ring(1001, undefined, now - 3600)));
    assert.ok(s.proxy.forgeFrame(s.server.id, ring(1002)));

    assert.ok(await s.game.requested("/api/game/queue"));
    assert.deepEqual(polls, [s.server.id]);
    assert.equal(s.game.logs("warn").filter((line) => line.includes("Doorbell: ignored an unsigned ring")).length, 1);
  } finally {
    s.proxy.onRequest = null;
    await s.end();
  }
});

test("rings while a poll runs make one more poll, not one each", async () => {
  const s = await scenario({ type, doorbell: DOORBELL });
  try {
    assert.ok(await s.game.logged(CONNECTED));
    const polls: number[] = [];
    let polled: () => void = () => {};
    const first = new Promise<void>((done) => {
      polled = done;
    });
    s.proxy.onRequest = (path, serverId) => {
      if (path !== "/api/game/queue") return;
      polls.push(serverId);
      polled();
    };
    let answer: () => void = () => {};
    s.proxy.delay.set(
      "/api/game/queue",
      new Promise((done) => {
        answer = done;
      }),
    );
    const ring = signedRing(s);
    assert.ok(s.proxy.forgeFrame(s.server.id, ring(1000)));
    const settled = s.game.requested("/api/game/queue");
    await first;
    // Two more rings while that poll waits for its answer, then a bad one: its warning says all three were read.
    const from = s.game.events.length;
    for (const frame of [ring(1001), ring(1002), ring(1003, "0".repeat(64))])
      assert.ok(s.proxy.forgeFrame(s.server.id, frame));
    await logSeen(s, "Doorbell: ignored an unsigned ring", from);
    s.proxy.delay.clear();
    answer();

    assert.ok(await settled);
    assert.deepEqual(polls, [s.server.id, s.server.id]);
  } finally {
    s.proxy.onRequest = null;
    await s.end();
  }
});

test("two servers of a type are both rung and poll; the purchase is leased to one and given once", async () => {
  const s = await scenario({ type, doorbell: DOORBELL });
  const b = await secondServer(s, DOORBELL);
  try {
    await b.game.start();
    assert.ok(await s.game.logged(CONNECTED));
    assert.ok(await b.game.logged(CONNECTED));
    const itemId = await wood(s);
    // The same player is seen online on both, so either may lease the delivery.
    await s.game.join(s.player, "ru");
    await b.game.join(s.player, "ru");
    const polls: number[] = [];
    s.proxy.onRequest = (path, serverId) => {
      if (path === "/api/game/queue") polls.push(serverId);
    };
    await buyWood(s, itemId);

    const [aPolled, bPolled] = await Promise.all([
      s.game.requested("/api/game/queue"),
      b.game.requested("/api/game/queue"),
    ]);
    assert.ok(aPolled && bPolled);
    assert.deepEqual([...new Set(polls)].sort(), [s.server.id, b.other.id].sort());
    const a = given(s.game, s.player).wood ?? 0;
    const other = given(b.game, s.player).wood ?? 0;
    assert.deepEqual([a, other].sort(), [0, 1000]);
  } finally {
    s.proxy.onRequest = null;
    await b.game.stop();
    await s.end();
  }
});

test("behind a proxy that refuses upgrades the plugin says so once and polls as configured: only timing changes", async () => {
  const s = await scenario({ type, doorbell: { pollSeconds: 30, doorbellPollSeconds: 600 }, start: false });
  try {
    s.proxy.refuseUpgrades = true;
    await s.game.start();
    // The site's probe says it would have taken the upgrade: once may pass, twice in a row is the proxy.
    assert.ok(await s.game.logged("Doorbell can't connect"));
    await s.game.advance(1);
    assert.ok(await s.game.logged("Doorbell refused on the way"));
    assert.ok(
      s.game
        .logs("warn")
        .some((line) => line.includes("polling every 30 s, trying the doorbell again every 10 minutes")),
    );
    const itemId = await wood(s);
    await s.game.join(s.player, "ru");
    await buyWood(s, itemId);

    await s.game.advance(30);
    assert.deepEqual(given(s.game, s.player), { wood: 1000 });
  } finally {
    await s.end();
  }
});

test("an upgrade answered 502 on the way while the site answers: the plugin reconnects within its backoff, the next purchase rings", async () => {
  const s = await scenario({ type, doorbell: DOORBELL, start: false });
  try {
    s.proxy.upgradeAnswers.push(502);
    await s.game.start();
    assert.ok(await s.game.logged("Doorbell can't connect"));
    // The first reconnection waits up to 1 s of the game's clock (full jitter), not 10 minutes.
    await s.game.advance(1);
    assert.ok(await s.game.logged(CONNECTED));
    await boughtAndGiven(s);
  } finally {
    await s.end();
  }
});
