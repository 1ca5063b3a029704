// An upgrade and a rollback in the README's order, walked line by line (decision 136): from the
// previous release (releases.json's newest, built from git) to this build and back, the rollback being
// the previous code on the same data. Between every line while a site runs, a player signs in, tops up,
// buys, and a game server (the plugin's protocol, signed) gets the goods; after the rollback the
// previous release does all of that on the head's migrated database, and this build, started again on
// the same data, shows every payment, purchase and delivery of the three. Needs `npm run build:node`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { seedItemId } from "#db/seed/catalog.ts";
import { localDevKeySalt } from "#db/seed/server-keys.ts";
import { LOCAL_GAME_KEY_SECRET } from "#worker/config.ts";
import { deriveServerKey } from "#worker/services/game/keys.ts";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { PluginSimulator } from "../support/plugin-simulator.ts";
import { readmeShellBlocks, root, rows, run, siteFolder } from "./owner-site.ts";
import { buildPreviousRelease, previousRelease } from "./previous-release.ts";
import { signInThroughStandIn } from "./sign-in.ts";

const BUYER = "76561198000000009";
const ITEM = seedItemId("SOLO", 6);
/** The seeded SOLO server. */
const GAME_SERVER = 1;

interface Running extends NodeServer {
  origin: string;
}

/** `build`'s server (build-node/ beside its migrations/), in `site`, on `port`, as the unit starts it. */
async function startSite(build: string, site: string, port: number): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...localSiteEnv(port, ""), MIGRATE_ON_START: "1" };
  delete env.DATABASE_URL;
  return { ...(await serveNodeSite(env, site, build)), origin: `http://127.0.0.1:${port}` };
}

async function stopSite(site: Running): Promise<void> {
  site.process.kill("SIGTERM");
  const code = site.process.exitCode ?? (await new Promise((done) => site.process.once("exit", done)));
  assert.equal(code, 0, site.output());
}

let lastSigned = 0;
/** The plugin's clock: a second on at each request, as the site refuses a signed request seen before (409). */
function pluginClock(): Date {
  lastSigned = Math.max(Date.now(), lastSigned + 1000);
  return new Date(lastSigned);
}

interface Sales {
  purchases: number[];
  payments: string[];
  /** Deliveries the game server ran and the site acknowledged. */
  deliveries: string[];
}

const noSales = (): Sales => ({ purchases: [], payments: [], deliveries: [] });

/** A paid top-up (every other time), a purchase, and its delivery to the game server, through the running site. */
async function sell(site: Running, sales: Sales): Promise<void> {
  const cookie = await signInThroughStandIn(site.origin, BUYER);
  // Every other time (the first of each version's included): the site allows 10 top-ups an hour.
  if (sales.purchases.length % 2 === 0) {
    const created = await fetch(`${site.origin}/api/payment/create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ amount: 150, email: "player@example.com" }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { payment_url, payment_id } = (await created.json()) as { payment_url: string; payment_id: string };
    const paid = await fetch(payment_url, { method: "POST", body: new URLSearchParams({ action: "pay" }) });
    assert.equal(paid.status, 200);
    sales.payments.push(payment_id);
  }

  const bought = await fetch(`${site.origin}/api/purchase/items/${ITEM}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ server_type: "SOLO" }),
  });
  assert.equal(bought.status, 201, await bought.clone().text());
  sales.purchases.push(((await bought.json()) as { purchase: { id: number } }).purchase.id);

  const plugin = new PluginSimulator({
    transport: (request) => fetch(request),
    baseUrl: site.origin,
    serverId: GAME_SERVER,
    serverKey: await deriveServerKey(LOCAL_GAME_KEY_SECRET, GAME_SERVER, localDevKeySalt(GAME_SERVER)),
    now: pluginClock,
  });
  const delivered = await plugin.tick([BUYER]);
  assert.ok(delivered.length > 0, "the game server got the purchase");
  assert.ok(
    [...plugin.journal.entries.values()].every((entry) => entry.ok && entry.acked),
    "the site acknowledged what the game server ran",
  );
  sales.deliveries.push(...delivered.map((delivery) => delivery.delivery_id));
}

interface Walk {
  /** What `npm run db:migrate` printed. */
  migrated: string;
  byOld: Sales;
  byNew: Sales;
  afterRollback: Sales;
}

/** The site folder's migrations/ as `version` has it (a checkout's, after `git pull` or `git reset`). */
function switchMigrationsTo(site: string, version: string): void {
  rmSync(join(site, "migrations"), { force: true });
  symlinkSync(realpathSync(join(version, "migrations")), join(site, "migrations"));
}

/**
 * The README's Upgrading lines, then its rollback lines, as written, from `versions.old` to
 * `versions.new` and back, in `site`. Lines that change the code (git, npm ci, the build) are the two
 * builds given; systemctl stops and starts the site's process; the rest runs with sh.
 */
async function walkUpgradeAndRollback(site: string, versions: { old: string; new: string }): Promise<Walk> {
  const [upgrade, rollback, ...more] = readmeShellBlocks("Upgrading");
  assert.ok(upgrade && rollback && more.length === 0, "Upgrading has the upgrade's lines, then the rollback's");
  const port = await freePort();
  let running: Running | undefined = await startSite(versions.old, site, port);
  let phase: "before" | "new" | "rolled back" = "before";
  const walk: Walk = { migrated: "", byOld: noSales(), byNew: noSales(), afterRollback: noSales() };
  let backup = "";
  const salesOf = () => (phase === "before" ? walk.byOld : phase === "new" ? walk.byNew : walk.afterRollback);
  try {
    for (const line of [...upgrade, "-- rollback --", ...rollback]) {
      if (running) await sell(running, salesOf());
      if (line === "-- rollback --") {
        assert.equal(phase, "new", "the upgrade ends with the new version running");
      } else if (/^cd \/srv\/rust-site$/.test(line) || /^(git |npm ci$|npm run build(:node)?$)/.test(line)) {
        // The code: the builds stand for it, and the site's migrations/ becomes the version's, as a pull changes it.
        switchMigrationsTo(site, phase === "before" ? versions.new : versions.old);
      } else if (/^sudo systemctl (stop|start|restart) rust-site$/.test(line)) {
        const verb = line.split(" ")[2];
        if (verb !== "start") {
          assert.ok(running, "the stop finds the site running");
          await stopSite(running);
          running = undefined;
        }
        if (verb !== "stop") {
          assert.equal(running, undefined);
          running = await startSite(phase === "before" ? versions.new : versions.old, site, port);
          phase = phase === "before" ? "new" : "rolled back";
          assert.match(running.output(), /"event":"(migrations_none_to_apply|migration_applied)"/);
        }
      } else if (line.startsWith("npm run db:restore -- ")) {
        // Walked as an older README had it ("only if db:migrate applied any"): the sales it takes back fail the walk.
        assert.equal(running, undefined, "the restore runs with the site stopped");
        if (!walk.migrated.startsWith("Applied")) continue;
        const result = await run(line.replace(/backups\/before-upgrade-\d{8}-\d{6}\.db/, backup), site);
        assert.equal(result.code, 0, `${line}\n${result.stderr}`);
      } else if (line.startsWith("npm run db:")) {
        const result = await run(line, site);
        assert.equal(result.code, 0, `${line}\n${result.stdout}${result.stderr}`);
        if (line.startsWith("npm run db:migrate")) walk.migrated = result.stdout.trim().split("\n").at(-1) ?? "";
        if (line.startsWith("npm run db:backup")) {
          backup = `backups/${readdirSync(join(site, "backups")).find((name) => name.startsWith("before-upgrade-"))}`;
        }
      } else {
        assert.fail(`the walk doesn't know the README's line ${line}`);
      }
    }
    assert.equal(phase, "rolled back", "the rollback ends with the old version running");
    assert.ok(running, "the rolled-back site runs");
    await sell(running, walk.afterRollback);
    return walk;
  } finally {
    if (running) await stopSite(running);
  }
}

async function assertKept(database: string, sales: Sales): Promise<void> {
  const purchases = (await rows(database, "SELECT id FROM purchases")).map(([id]) => id);
  assert.deepEqual(
    sales.purchases.filter((id) => !purchases.includes(id)),
    [],
    "every purchase is there",
  );
  const payments = await rows(
    database,
    "SELECT id, status, (SELECT count(*) FROM ledger WHERE kind = 'deposit' AND payment_id = payments.id) FROM payments",
  );
  assert.deepEqual(
    sales.payments.map((id) => payments.find(([paymentId]) => paymentId === id)),
    sales.payments.map((id) => [id, "completed", 1]),
    "every top-up is there, credited once",
  );
  const deliveries = await rows(database, "SELECT id, status, done_server_id FROM deliveries");
  assert.deepEqual(
    sales.deliveries.map((id) => deliveries.find(([deliveryId]) => deliveryId === id)),
    sales.deliveries.map((id) => [id, "done", GAME_SERVER]),
    "every delivery the game server acknowledged stays done",
  );
  assert.deepEqual(
    await rows(
      database,
      "SELECT count(*) FROM users WHERE balance != (SELECT coalesce(sum(amount), 0) FROM ledger WHERE user_id = users.id)",
    ),
    [[0]],
    "every balance equals its ledger",
  );
}

/** What this build shows the buyer on the same data: balance, purchases and Корзина. */
async function assertShownByHead(site: string, all: Sales): Promise<void> {
  const port = await freePort();
  const head = await startSite(root, site, port);
  try {
    const cookie = await signInThroughStandIn(head.origin, BUYER);
    const profile = (await (await fetch(`${head.origin}/api/profile`, { headers: { cookie } })).json()) as {
      balance: number;
    };
    const [[balance]] = (await rows(
      join(site, "data/site.db"),
      `SELECT sum(amount) FROM ledger WHERE user_id = (SELECT id FROM users WHERE steam_id = '${BUYER}')`,
    )) as [[number]];
    assert.equal(profile.balance * 100, balance, "the balance shown is the ledger's, top-ups of every version in it");
    const history = (await (await fetch(`${head.origin}/api/purchase/history`, { headers: { cookie } })).json()) as {
      purchases: { id: number }[];
    };
    const shown = history.purchases.map((purchase) => purchase.id);
    assert.deepEqual(
      all.purchases.filter((id) => !shown.includes(id)),
      [],
      "the head lists every purchase",
    );
  } finally {
    await stopSite(head);
  }
}

const merged = (...sales: Sales[]): Sales => ({
  purchases: sales.flatMap((each) => each.purchases),
  payments: sales.flatMap((each) => each.payments),
  deliveries: sales.flatMap((each) => each.deliveries),
});

function seededSite(migrations: string): string {
  const site = siteFolder();
  mkdirSync(join(site, "data"));
  mkdirSync(join(site, "backups"));
  // In a process of its own, which lets go of the file when it exits (owner-site.ts's rows()).
  execFileSync(process.execPath, [join(root, "tests/server/seed-site.ts"), join(site, "data/site.db"), migrations], {
    cwd: root,
    stdio: "inherit",
  });
  return site;
}

/** This build beside another migrations/ folder: the site as a version with those migrations runs. */
function buildWithMigrations(migrations: string): string {
  const folder = mkdtempSync(join(tmpdir(), "site-build-"));
  cpSync(join(root, "build-node"), join(folder, "build-node"), { recursive: true, dereference: true });
  symlinkSync(join(root, "node_modules"), join(folder, "node_modules"));
  symlinkSync(migrations, join(folder, "migrations"));
  return folder;
}

/** This version's migrations and one more, additive as every migration is: a table nothing reads. */
function migrationsWithOneMore(): string {
  const journal = JSON.parse(readFileSync(join(root, "migrations/meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const folder = mkdtempSync(join(tmpdir(), "site-next-migrations-"));
  cpSync(join(root, "migrations"), folder, { recursive: true });
  const last = journal.entries.at(-1);
  assert.ok(last);
  writeFileSync(
    join(folder, "9999_next_version.sql"),
    "CREATE TABLE `next_version_probe` (`id` integer PRIMARY KEY);\n",
  );
  const next = {
    idx: journal.entries.length,
    version: "6",
    when: last.when + 1000,
    tag: "9999_next_version",
    breakpoints: true,
  };
  writeFileSync(
    join(folder, "meta/_journal.json"),
    JSON.stringify({ ...journal, entries: [...journal.entries, next] }),
  );
  return folder;
}

describe("a rollback is the previous code on the same data, with a site selling throughout", () => {
  it(`from the previous release (releases.json: ${previousRelease().commit.slice(0, 7)}) to this build and back: nothing is lost`, async () => {
    const previous = buildPreviousRelease();
    const site = seededSite(join(previous, "migrations"));
    const walk = await walkUpgradeAndRollback(site, { old: previous, new: root });
    assert.match(walk.migrated, /^(Applied \d+ migrations? to |Nothing to apply: )file:data\/site\.db/);
    const all = merged(walk.byOld, walk.byNew, walk.afterRollback);
    for (const sales of [walk.byOld, walk.byNew, walk.afterRollback]) {
      assert.ok(sales.payments.length > 0 && sales.deliveries.length > 0, "each version took a top-up and delivered");
    }
    await assertKept(join(site, "data/site.db"), all);
    await assertShownByHead(site, all);
  });

  it("across a migration the previous code lacks: it runs on the migrated database and keeps every sale", async () => {
    const site = seededSite(join(root, "migrations"));
    const walk = await walkUpgradeAndRollback(site, {
      old: buildWithMigrations(join(root, "migrations")),
      new: buildWithMigrations(migrationsWithOneMore()),
    });
    assert.equal(walk.migrated, "Applied 1 migration to file:data/site.db: 9999_next_version.");
    const database = join(site, "data/site.db");
    await assertKept(database, merged(walk.byOld, walk.byNew, walk.afterRollback));
    assert.deepEqual(await rows(database, "SELECT count(*) FROM sqlite_master WHERE name = 'next_version_probe'"), [
      [1],
    ]);
    assert.deepEqual(
      readdirSync(join(site, "data")).filter((name) => name.includes("before-restore")),
      [],
    );
  });
});
