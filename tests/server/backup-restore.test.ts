// The README's backup and restore commands, run as written in a site's folder: a backup taken while
// players buy, restored into a fresh folder, gives a whole database with the same balances and
// purchases; a restore is refused while the server holds the database; a clean stop leaves no WAL.
// Needs `npm run build:node` first (npm run test:server does it).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { seedItemId } from "#db/seed/catalog.ts";
import { integrityCheck, openLibsqlFile } from "#worker/adapters/libsql.ts";
import { freePort, localSiteEnv, type NodeServer, serveNodeSite } from "../e2e/node-site.ts";
import { readmeCommands, root, rows, run, siteFolder } from "./owner-site.ts";
import { signInThroughStandIn } from "./sign-in.ts";

/** The bench player: 1 000 000 ₽ to buy with (db/seed/players.ts). */
const BUYER = "76561198000000009";
const ITEM = seedItemId("SOLO", 6);
const BALANCES =
  "SELECT u.steam_id, u.balance, (SELECT sum(amount) FROM ledger l WHERE l.user_id = u.id) FROM users u ORDER BY u.id";
const PURCHASES = "SELECT id, user_id, item_id, price, status FROM purchases ORDER BY id";

describe("backup under purchase load, then restore, with the README's commands", () => {
  const live = siteFolder();
  const fresh = siteFolder();
  let server: NodeServer;
  let origin = "";
  let backupFile = "";
  let boughtBeforeBackup = 0;
  let boughtInAll = 0;

  before(async () => {
    execFileSync(process.execPath, [join(root, "scripts/seed-local.ts"), "--libsql"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${join(live, "data/site.db")}` },
      stdio: "ignore",
    });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const env = localSiteEnv(port, "");
    delete env.DATABASE_URL;
    server = await serveNodeSite(env, live);
  });

  after(() => {
    if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("the README's backup line makes a checked copy while purchases go on", async () => {
    const cookie = await signInThroughStandIn(origin, BUYER);
    let buying = true;
    const buy = async () => {
      while (buying) {
        const answer = await fetch(`${origin}/api/purchase/items/${ITEM}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ server_type: "SOLO" }),
        });
        assert.equal(answer.status, 201, await answer.text());
        boughtInAll++;
      }
    };
    const buyers = [buy(), buy(), buy()];
    while (boughtInAll < 30) await new Promise((done) => setTimeout(done, 20));
    boughtBeforeBackup = boughtInAll;

    const [backupLine] = readmeCommands("Backups", "npm run db:backup");
    assert.ok(backupLine, "the README shows the backup command");
    mkdirSync(join(live, "backups"));
    const backup = await run(backupLine, live);
    buying = false;
    await Promise.all(buyers);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up data\/site\.db to backups\/site-\d{8}-\d{6}\.db \(\d+ KB; integrity ok; /);

    const made = readdirSync(join(live, "backups"));
    assert.equal(made.length, 1, String(made));
    backupFile = `backups/${made[0]}`;
    assert.deepEqual(await rows(join(live, backupFile), "PRAGMA integrity_check"), [["ok"]]);
  });

  it("the copy is one moment's: every balance is its ledger's sum, and the buyer's purchases are all paid for", async () => {
    const path = join(live, backupFile);
    for (const [steamId, balance, ledgerSum] of await rows(path, BALANCES)) {
      assert.equal(balance, ledgerSum ?? 0, `player ${steamId}`);
    }
    const [[count, spent, balance]] = (await rows(
      path,
      `SELECT count(*), sum(p.price), u.balance FROM purchases p JOIN users u ON u.id = p.user_id WHERE u.steam_id = '${BUYER}'`,
    )) as [[number, number, number]];
    assert.ok(count >= boughtBeforeBackup && count <= boughtInAll, `${count} purchases in the copy`);
    assert.equal(balance, 100_000_000 - spent);
  });

  it("the README's restore line refuses while the server holds the database, changing nothing", async () => {
    const [restoreLine] = readmeCommands("Restoring a backup", "npm run db:restore");
    assert.ok(restoreLine);
    const before = await rows(join(live, "data/site.db"), PURCHASES);
    const refused = await run(restoreLine.replace(/backups\/\S+\.db/, backupFile), live);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /data\/site\.db is open in a running site or script \(.*\); stop it first .* Nothing was changed\./,
    );
    // It names the process that holds the file (Linux's /proc): the owner sees which one to stop.
    assert.match(refused.stderr, new RegExp(`[(;] ?PID ${server.process.pid}: \\S*node \\S*server`));
    // …and the site's witness of its progress beside it (decision 133).
    assert.deepEqual(readdirSync(join(live, "data")).sort(), [
      "site.db",
      "site.db-shm",
      "site.db-wal",
      "site.db.witness",
    ]);
    assert.deepEqual(await rows(join(live, "data/site.db"), PURCHASES), before);
  });

  it("a clean stop folds the WAL into the database file", async () => {
    server.process.kill("SIGTERM");
    await new Promise((done) => server.process.once("exit", done));
    assert.equal(server.process.exitCode, 0);
    const wal = join(live, "data/site.db-wal");
    assert.ok(!existsSync(wal) || statSync(wal).size === 0, "no WAL content left");
    assert.deepEqual(await rows(join(live, "data/site.db"), "PRAGMA integrity_check"), [["ok"]]);
  });

  it("a backup copied back by hand behind the site's back is found at the next start: every game server re-sends first", async () => {
    const database = join(live, "data/site.db");
    const start = async () => {
      const port = await freePort();
      const env = localSiteEnv(port, "");
      delete env.DATABASE_URL;
      return serveNodeSite(env, live);
    };
    const stop = async (site: NodeServer) => {
      site.process.kill("SIGTERM");
      await new Promise((done) => site.process.once("exit", done));
    };
    // The minute's jobs run at a start, or at the next minute's tick when the stopped server already ran
    // this minute's (decision 121: once a minute across instances): then the witness beside the file
    // takes every purchase made.
    const [[newestLedgerRow]] = (await rows(database, "SELECT max(id) FROM ledger")) as [[number]];
    const again = await start();
    try {
      await until(() => witnessedLedger(`${database}.witness`) === newestLedgerRow, A_MINUTE_AND_MORE);
    } finally {
      await stop(again);
    }
    assert.deepEqual(await rows(database, "SELECT count(*) FROM servers WHERE needs_resync = 1"), [[0]]);

    // The owner copies the backup over the database (not db:restore: it marks the servers itself).
    copyFileSync(join(live, backupFile), database);
    const restored = await start();
    try {
      await until(() => restored.output().includes("restore_detected"), A_MINUTE_AND_MORE);
      const [[servers, waiting]] = (await rows(database, "SELECT count(*), sum(needs_resync) FROM servers")) as [
        [number, number],
      ];
      assert.ok(servers > 0);
      assert.equal(waiting, servers, "every server is to re-send before its type's deliveries move");
      const [[finding]] = (await rows(database, "SELECT value FROM key_values WHERE key = 'restore-detected:v1'")) as [
        [string],
      ];
      assert.match(JSON.parse(finding).lost.join("; "), /^ledger \d+ < \d+/);
    } finally {
      await stop(restored);
    }
  });

  it("restored into a fresh folder: the same balances and purchases, integrity_check ok, and the site serves them", async () => {
    const [restoreLine] = readmeCommands("Restoring a backup", "npm run db:restore");
    mkdirSync(join(fresh, "backups"));
    copyFileSync(join(live, backupFile), join(fresh, backupFile));
    const restored = await run((restoreLine ?? "").replace(/backups\/\S+\.db/, backupFile), fresh);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored backups\/site-\d{8}-\d{6}\.db into data\/site\.db \(integrity ok; /m);
    assert.deepEqual(readdirSync(join(fresh, "data")), ["site.db"]);

    const database = join(fresh, "data/site.db");
    const client = openLibsqlFile(database);
    assert.equal(await integrityCheck(client), "ok");
    client.close();
    assert.deepEqual(await rows(database, BALANCES), await rows(join(live, backupFile), BALANCES));
    assert.deepEqual(await rows(database, PURCHASES), await rows(join(live, backupFile), PURCHASES));

    const port = await freePort();
    const env = localSiteEnv(port, "");
    delete env.DATABASE_URL;
    const restoredSite = await serveNodeSite(env, fresh);
    try {
      const origin = `http://127.0.0.1:${port}`;
      const cookie = await signInThroughStandIn(origin, BUYER);
      const [[balance, count]] = (await rows(
        database,
        `SELECT u.balance, (SELECT count(*) FROM purchases p WHERE p.user_id = u.id) FROM users u WHERE u.steam_id = '${BUYER}'`,
      )) as [[number, number]];
      const profile = (await (await fetch(`${origin}/api/profile`, { headers: { cookie } })).json()) as {
        balance: number;
      };
      assert.equal(profile.balance, balance / 100);
      const history = (await (await fetch(`${origin}/api/purchase/history`, { headers: { cookie } })).json()) as {
        purchases: unknown[];
      };
      assert.equal(history.purchases.length, count);
    } finally {
      restoredSite.process.kill("SIGTERM");
      await new Promise((done) => restoredSite.process.once("exit", done));
    }
  });

  it("a damaged backup is refused before anything changes", async () => {
    const [restoreLine] = readmeCommands("Restoring a backup", "npm run db:restore");
    const damaged = join(fresh, "backups/damaged.db");
    const bytes = readFileSync(join(live, backupFile));
    bytes.fill(0x5a, 4096, 8192);
    writeFileSync(damaged, bytes);
    const before = await rows(join(fresh, "data/site.db"), PURCHASES);
    const files = siteFiles(join(fresh, "data"));
    const refused = await run((restoreLine ?? "").replace(/backups\/\S+\.db/, "backups/damaged.db"), fresh);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^backups\/damaged\.db is damaged or not a database: .* Nothing was changed\.$/m);
    assert.deepEqual(siteFiles(join(fresh, "data")), files);
    assert.deepEqual(await rows(join(fresh, "data/site.db"), PURCHASES), before);
  });
});

/**
 * The data folder's files, without SQLite's `-wal` and `-shm` companions: they belong to whichever
 * connection last had the database open (here the check's own read, which SQLite tidies up after it
 * has closed, sometimes only after the folder was listed), not to what a restore changed.
 */
function siteFiles(folder: string): string[] {
  return readdirSync(folder).filter((name) => !/-(wal|shm)$/.test(name));
}

/** The newest ledger row the site's witness file (decision 133) has seen, or null before it has one. */
function witnessedLedger(path: string): number | null {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { progress: { ledger: number } }).progress.ledger;
  } catch {
    return null;
  }
}

/** Past the next minute's tick of the site's schedule, with room for its jobs. */
const A_MINUTE_AND_MORE = 90_000;

/** Waits until `done` holds, checking every 100 ms, for `limit` ms at most (30 s unless told). */
async function until(done: () => boolean, limit = 30_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    assert.ok(Date.now() - started < limit, "timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
