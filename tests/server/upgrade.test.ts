// An upgrade across every migration, as the README's "Upgrading" section does it: a database with
// a player's money, a purchase, a delivered rank, a server and a promo code, made by the first
// migration only, is refused by the new build until migrated, then backed up and migrated with the
// README's lines, and the site shows the same money and history. Needs `npm run build:node` first.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
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
import { after, before, describe, it } from "node:test";
import { seedItemId } from "#db/seed/catalog.ts";
import { migrateLibsql, openLibsql, pendingMigrations } from "#worker/adapters/libsql.ts";
import { freePort, localSiteEnv, type NodeServer, refusedStart, serveNodeSite } from "../e2e/node-site.ts";
import { readmeCommands, readmeShellBlocks, root, rows, run, siteFolder } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

const journal = JSON.parse(readFileSync(join(root, "migrations/meta/_journal.json"), "utf8")) as {
  entries: { tag: string; when: number }[];
};
const PLAYER = "76561198000000077";

/** migrations/ as the first release shipped it: its first migration only. */
function firstReleaseMigrations(): string {
  const folder = mkdtempSync(join(tmpdir(), "site-migrations-"));
  mkdirSync(join(folder, "meta"));
  const [first] = journal.entries;
  assert.ok(first);
  copyFileSync(join(root, "migrations", `${first.tag}.sql`), join(folder, `${first.tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries: [first] }));
  return folder;
}

describe("a database from the first migration, upgraded to the newest", () => {
  const site = siteFolder();
  const database = join(site, "data/site.db");
  let server: NodeServer | undefined;

  before(async () => {
    mkdirSync(join(site, "data"));
    const client = await openLibsql({ url: `file:${database}` });
    await migrateLibsql(client, firstReleaseMigrations());
    await client.executeMultiple(`
      INSERT INTO servers (id, name, server_type, ip_port, sort_order) VALUES (1, 'Свобода #1 | SOLO', 'SOLO', '10.0.0.1:28015', 0);
      INSERT INTO users (id, steam_id, nickname, avatar_url, balance) VALUES (1, '${PLAYER}', 'Старый игрок', '', 15000);
      INSERT INTO categories (id, name) VALUES (1, 'Привилегии');
      INSERT INTO items (id, name, price, img, server_type, category_id) VALUES (1, 'VIP', 5000, '/images/vip.webp', 'SOLO', 1);
      INSERT INTO purchases (id, user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price, status, paid_at)
        VALUES (1, 1, 1, 'tx-1', 'key-1', 'SOLO', 30, 5000, 'completed', 1700000000000);
      INSERT INTO ledger (user_id, amount, kind, provider_payment_id) VALUES (1, 20000, 'deposit', 'yookassa:old-1');
      INSERT INTO ledger (user_id, amount, kind, purchase_id) VALUES (1, -5000, 'purchase', 1);
      INSERT INTO inventory_entries (user_id, item_id, purchase_id, server_type, duration_days, is_permanent, status, used_at, used_server_id, expires_at)
        VALUES (1, 1, 1, 'SOLO', 30, 0, 'used', 1700000000000, 1, 4102444800000);
      INSERT INTO promo_codes (code, type, value, max_uses) VALUES ('OLDCODE', 'BALANCE', 10000, 5);
    `);
    client.close();
  });

  after(() => {
    if (server?.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("the new build refuses it until migrated, naming how many migrations it lacks", async () => {
    const env = localSiteEnv(await freePort(), "");
    delete env.DATABASE_URL;
    const { code, stderr } = await refusedStart(env, site);
    assert.equal(code, 1);
    assert.match(
      stderr.trim(),
      new RegExp(
        `^Cannot start: the database \\(file:data/site\\.db\\) lacks ${journal.entries.length - 1} migrations`,
      ),
    );
  });

  it("the README's upgrade lines back it up and migrate it, keeping every row", async () => {
    const lines = [
      ...readmeCommands("Upgrading", "npm run db:backup"),
      ...readmeCommands("Upgrading", "npm run db:migrate"),
    ];
    assert.equal(lines.length, 2, "the upgrade backs up, then migrates");
    mkdirSync(join(site, "backups"));
    for (const line of lines) {
      const result = await run(line, site);
      assert.equal(result.code, 0, `${line}\n${result.stderr}`);
    }
    const [backup] = readdirSync(join(site, "backups"));
    assert.match(backup ?? "", /^before-upgrade-\d{8}-\d{6}\.db$/);
    assert.deepEqual(await rows(join(site, "backups", backup ?? ""), "SELECT count(*) FROM __drizzle_migrations"), [
      [1],
    ]);

    const client = await openLibsql({ url: `file:${database}` });
    assert.deepEqual(await pendingMigrations(client, join(root, "migrations")), []);
    client.close();
    assert.deepEqual(await rows(database, "PRAGMA integrity_check"), [["ok"]]);
    assert.deepEqual(
      await rows(database, "SELECT balance, (SELECT sum(amount) FROM ledger WHERE user_id = users.id) FROM users"),
      [[15000, 15000]],
    );
    assert.deepEqual(await rows(database, "SELECT id, price, status FROM purchases"), [[1, 5000, "completed"]]);
    assert.deepEqual(await rows(database, "SELECT status, used_server_id FROM inventory_entries"), [["used", 1]]);
    assert.deepEqual(await rows(database, "SELECT code, used_count FROM promo_codes"), [["OLDCODE", 0]]);
  });

  it("the upgraded site shows the player the same balance and purchase", async () => {
    const port = await freePort();
    const env = localSiteEnv(port, "");
    delete env.DATABASE_URL;
    server = await serveNodeSite(env, site);
    const origin = `http://127.0.0.1:${port}`;
    const cookie = await signInThroughStandIn(origin, PLAYER);
    const profile = (await (await fetch(`${origin}/api/profile`, { headers: { cookie } })).json()) as {
      balance: number;
    };
    assert.equal(profile.balance, 150);
    const history = (await (await fetch(`${origin}/api/purchase/history`, { headers: { cookie } })).json()) as {
      purchases: { price?: number; item_name?: string }[];
    };
    assert.equal(history.purchases.length, 1);
  });
});

// An upgrade and a rollback in the README's order, walked line by line. The site before the upgrade
// is of the versions that had 0010's first version: its database is made by drizzle's migrator over
// their migrations/ (tests/node/first-0010.ts), and the process selling on it is this build beside
// that migrations/ folder (their schema is this one's but for the index 0011 adds). Between every
// line while a site runs, a player buys and tops up; every purchase and payment made before the
// upgrade's stop must be in the database the rollback leaves.

const BUYER = "76561198000000009";
const ITEM = seedItemId("SOLO", 6);

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

interface Sales {
  purchases: number[];
  payments: string[];
}

/** One purchase and, every other time, a paid top-up, through the running site as a player makes them. */
async function sell(site: Running, sales: Sales): Promise<void> {
  const cookie = await signInThroughStandIn(site.origin, BUYER);
  const bought = await fetch(`${site.origin}/api/purchase/items/${ITEM}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ server_type: "SOLO" }),
  });
  assert.equal(bought.status, 201, await bought.clone().text());
  sales.purchases.push(((await bought.json()) as { purchase: { id: number } }).purchase.id);
  if (sales.purchases.length % 2 === 0) return;
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

interface Walk {
  /** What `npm run db:migrate` printed. */
  migrated: string;
  /** The sales made before the upgrade's stop, and by the new version. */
  beforeStop: Sales;
  byNewVersion: Sales;
  restored: boolean;
}

/**
 * The README's Upgrading lines, then its rollback lines, as written, from `oldBuild` to this build
 * and back, in `site`. Lines that change the code (git, npm ci, the build) are the two builds given;
 * systemctl stops and starts the site's process; the rest runs with sh. The restore runs only when
 * db:migrate applied migrations, as the README says.
 */
async function walkUpgradeAndRollback(site: string, versions: { old: string; new: string }): Promise<Walk> {
  const [upgrade, rollback, ...more] = readmeShellBlocks("Upgrading");
  assert.ok(upgrade && rollback && more.length === 0, "Upgrading has the upgrade's lines, then the rollback's");
  const port = await freePort();
  let running: Running | undefined = await startSite(versions.old, site, port);
  let phase: "before" | "new" | "rolled back" = "before";
  const walk: Walk = {
    migrated: "",
    beforeStop: { purchases: [], payments: [] },
    byNewVersion: { purchases: [], payments: [] },
    restored: false,
  };
  let backup = "";
  try {
    for (const line of [...upgrade, "-- rollback --", ...rollback]) {
      if (running && phase !== "rolled back")
        await sell(running, phase === "before" ? walk.beforeStop : walk.byNewVersion);
      if (line === "-- rollback --") {
        assert.equal(phase, "new", "the upgrade ends with the new version running");
      } else if (/^cd \/srv\/rust-site$/.test(line) || /^(git |npm ci$|npm run build$)/.test(line)) {
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
          assert.match(
            running.output(),
            /"event":"(migrations_none_to_apply|migration_applied)"/,
            "the start logs its migrations",
          );
        }
      } else if (line.startsWith("npm run db:restore -- ")) {
        assert.equal(running, undefined, "the restore runs with the site stopped");
        if (!walk.migrated.startsWith("Applied")) continue;
        const result = await run(line.replace(/backups\/before-upgrade-\d{8}-\d{6}\.db/, backup), site);
        assert.equal(result.code, 0, `${line}\n${result.stderr}`);
        walk.restored = true;
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
    assert.ok(backup, "the upgrade took a backup");
    assert.ok(walk.beforeStop.purchases.length >= 4, "the old site sold through the code's update");
    return walk;
  } finally {
    if (running) await stopSite(running);
  }
}

/** This build beside another migrations/ folder: the site as versions with those migrations ran. */
/** The site folder's migrations/ as `version` has it (a checkout's, after `git pull` or `git reset`). */
function switchMigrationsTo(site: string, version: string): void {
  rmSync(join(site, "migrations"), { force: true });
  symlinkSync(realpathSync(join(version, "migrations")), join(site, "migrations"));
}

/** This version's migrations and one more, as the next version would bring: a table nothing reads. */
function migrationsWithOneMore(): string {
  const folder = mkdtempSync(join(tmpdir(), "site-next-migrations-"));
  cpSync(join(root, "migrations"), folder, { recursive: true });
  const last = journal.entries.at(-1);
  assert.ok(last);
  writeFileSync(
    join(folder, "9999_next_version.sql"),
    "CREATE TABLE `next_version_probe` (`id` integer PRIMARY KEY);\n",
  );
  writeFileSync(
    join(folder, "meta/_journal.json"),
    JSON.stringify({
      ...journal,
      entries: [
        ...journal.entries,
        {
          idx: journal.entries.length,
          version: "6",
          when: last.when + 1000,
          tag: "9999_next_version",
          breakpoints: true,
        },
      ],
    }),
  );
  return folder;
}

function buildWithMigrations(migrations: string): string {
  const folder = mkdtempSync(join(tmpdir(), "site-old-build-"));
  cpSync(join(root, "build-node"), join(folder, "build-node"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(folder, "node_modules"));
  symlinkSync(migrations, join(folder, "migrations"));
  return folder;
}

async function seededSite(migrations: string): Promise<string> {
  const site = siteFolder();
  mkdirSync(join(site, "data"));
  mkdirSync(join(site, "backups"));
  // In a process of its own: this one must not hold the file the walk's db:restore needs to itself.
  execFileSync(process.execPath, [join(root, "tests/server/seed-site.ts"), join(site, "data/site.db"), migrations], {
    cwd: root,
    stdio: "inherit",
  });
  return site;
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
  assert.deepEqual(
    await rows(
      database,
      "SELECT count(*) FROM users WHERE balance != (SELECT coalesce(sum(amount), 0) FROM ledger WHERE user_id = users.id)",
    ),
    [[0]],
    "every balance equals its ledger",
  );
}

describe("an upgrade and a rollback in the README's order, with a site selling", () => {
  it("to a version with a migration: the rollback's restore keeps every sale made before the stop", async () => {
    const site = await seededSite(join(root, "migrations"));
    const walk = await walkUpgradeAndRollback(site, {
      old: buildWithMigrations(join(root, "migrations")),
      new: buildWithMigrations(migrationsWithOneMore()),
    });
    assert.equal(walk.migrated, "Applied 1 migration to file:data/site.db: 9999_next_version.");
    assert.ok(walk.restored);
    const database = join(site, "data/site.db");
    await assertKept(database, walk.beforeStop);
    // The restore took back the new version's sales (the README says so); they stay in the database it set aside.
    const [aside] = readdirSync(join(site, "data")).filter((name) => name.startsWith("site.db.before-restore-"));
    assert.ok(aside, "db:restore kept the replaced database");
    await assertKept(join(site, "data", aside), { ...walk.byNewVersion });
    assert.deepEqual(await rows(database, "SELECT count(*) FROM sqlite_master WHERE name = 'next_version_probe'"), [
      [0],
    ]);
  });

  it("with nothing to migrate: the rollback keeps the database, and every sale, the new version's too", async () => {
    const site = await seededSite(join(root, "migrations"));
    const walk = await walkUpgradeAndRollback(site, { old: buildWithMigrations(join(root, "migrations")), new: root });
    assert.match(walk.migrated, /^Nothing to apply: file:data\/site\.db has every migration of this version\.$/);
    assert.equal(walk.restored, false);
    await assertKept(join(site, "data/site.db"), walk.beforeStop);
    await assertKept(join(site, "data/site.db"), walk.byNewVersion);
  });
});

describe("a migration that fails, from db:migrate and from a start with MIGRATE_ON_START=1", () => {
  // A database at 0009 where something already has 0010's first table's name: 0010 fails as the
  // first 0010's databases failed under drizzle's migrator ("table sales already exists").
  const site = siteFolder();
  const database = join(site, "data/site.db");
  const failure =
    "migration 0010_sales_gifts_returns (migrations/0010_sales_gifts_returns.sql) failed: " +
    `SQLITE_ERROR: table \`sales\` already exists; nothing was applied (${journal.entries.length - 10} migrations still to apply)`;

  before(async () => {
    const upTo9 = mkdtempSync(join(tmpdir(), "site-migrations-0009-"));
    cpSync(join(root, "migrations"), upTo9, { recursive: true });
    writeFileSync(
      join(upTo9, "meta/_journal.json"),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, 10) }),
    );
    mkdirSync(join(site, "data"));
    const client = await openLibsql({ url: `file:${database}` });
    await migrateLibsql(client, upTo9);
    await client.execute("CREATE TABLE sales (id integer)");
    client.close();
  });

  it("npm run db:migrate says it in one line naming the migration and SQLite's error, and applies nothing", async () => {
    const result = await run("npm run --silent db:migrate", site);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `Cannot migrate file:data/site.db: ${failure}\n`);
    assert.deepEqual(await rows(database, "SELECT count(*) FROM __drizzle_migrations"), [[10]]);
  });

  it("the start says it in one line too, and exits 1", async () => {
    const env: NodeJS.ProcessEnv = { ...localSiteEnv(await freePort(), ""), MIGRATE_ON_START: "1" };
    delete env.DATABASE_URL;
    const { code, stderr } = await refusedStart(env, site);
    assert.equal(code, 1);
    assert.equal(
      stderr,
      `Cannot start: MIGRATE_ON_START: the database (file:data/site.db) can't be migrated: ${failure}; ` +
        "run the previous version meanwhile (README: Upgrading, roll back)\n",
    );
    assert.deepEqual(await rows(database, "SELECT count(*) FROM __drizzle_migrations"), [[10]]);
  });
});
