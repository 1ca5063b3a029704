// One mode of `npm run bench:delivery` against one running site (bench/delivery.ts starts it and sets
// PLUGIN_SITE_ORIGIN, PLUGIN_DATABASE_URL as tests/plugin/run.ts does): the real plugin in the harness
// with its default intervals, the game's clock kept at real time, online players each buying once, one
// purchase every BENCH_SPACING_MS; prints one JSON line with each purchase's time from its HTTP 201 to
// the item in that player's inventory (the harness's "give" event).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenario } from "../../tests/plugin/scenario.ts";
import { buy, createItem, credit, signIn, uniqueSteamId } from "../../tests/plugin/site.ts";

const doorbell = process.env.BENCH_DOORBELL === "on";
const count = Number(process.env.BENCH_PURCHASES ?? 100);
const spacingMs = Number(process.env.BENCH_SPACING_MS ?? 300);
const CONFIG = ["oxide", "config", "RustStoreDelivery.json"];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// The type the e2e seed sells; the plugin runs with its own defaults (30 s poll, 120 s with the doorbell).
const s = await scenario({ type: "SOLO", start: false });
const configFile = join(s.game.root, ...CONFIG);
const written = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
const config = Object.fromEntries(
  Object.entries(written).filter(([key]) => key.startsWith("Site URL") || key.startsWith("Server ")),
);
writeFileSync(configFile, JSON.stringify({ ...config, "Doorbell (the site rings when a delivery is due)": doorbell }));

// When each player's item arrived, stamped as the harness's line is read.
const givenAt = new Map<string, number>();
const push = s.game.events.push.bind(s.game.events);
s.game.events.push = (...events) => {
  for (const event of events) if (event.ev === "give") givenAt.set(String(event.steam_id), performance.now());
  return push(...events);
};

try {
  await s.game.start();
  if (doorbell && !(await s.game.logged("Doorbell connected"))) throw new Error("the doorbell did not connect");
  const itemId = await createItem({
    serverType: s.type,
    name: "Дерево",
    grant: ["inventory.giveto {steamid} wood 1000"],
  });
  const players = Array.from({ length: count }, () => uniqueSteamId());
  const sessions: string[] = [];
  for (const player of players) {
    await s.game.join(player, "ru");
    await credit(player, 100);
    sessions.push(await signIn(player));
  }

  // The game's clock follows the wall clock: timers (polls, heartbeats, saves) fire when they would on a server.
  let running = true;
  const startedAt = performance.now();
  let gameSeconds = 0;
  const clock = (async () => {
    while (running) {
      const now = (performance.now() - startedAt) / 1000;
      await s.game.advance(Math.max(0, now - gameSeconds));
      gameSeconds = now;
      await sleep(20);
    }
  })();

  const answeredAt = new Map<string, number>();
  const purchases = players.map(async (player, i) => {
    await sleep(i * spacingMs);
    const bought = await buy(sessions[i] as string, itemId, s.type);
    if (bought.status !== 201) throw new Error(`purchase answered ${bought.status}: ${JSON.stringify(bought.body)}`);
    answeredAt.set(player, performance.now());
  });
  await Promise.all(purchases);
  const until = performance.now() + 180_000;
  while (givenAt.size < count && performance.now() < until) await sleep(100);
  running = false;
  await clock;

  const latencies = players.flatMap((player) => {
    const answered = answeredAt.get(player);
    const given = givenAt.get(player);
    return answered !== undefined && given !== undefined ? [given - answered] : [];
  });
  console.log(JSON.stringify({ doorbell, purchases: count, delivered: latencies.length, spacingMs, latencies }));
} finally {
  await s.end();
}
process.exit(0);
