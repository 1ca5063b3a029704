// An upgrade across every migration, as the README's "Upgrading" section does it: a database with
// a player's money, a purchase, a delivered rank, a server and a promo code, made by the first
// migration only, is refused by the new build until migrated, then backed up and migrated with the
// README's lines, and the site shows the same money and history. Needs `npm run build:node` first.
import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { migrateLibsql, openLibsql, pendingMigrations } from "#worker/adapters/libsql.ts";
import { freePort, localSiteEnv, type NodeServer, refusedStart, serveNodeSite } from "../e2e/node-site.ts";
import { readmeCommands, root, rows, run, siteFolder } from "./owner-site.ts";
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
