// Migrations never change once landed (decision 120): every migration in the journal is held to
// the sha256 and `when` recorded in migrations/checksums.json, and the Node migrator recognises
// a migration a database already has by its hash or `when`, of its current or an earlier landed
// version: a database made while 0010 was its first version upgrades without running 0010 again.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate as drizzleMigrate } from "drizzle-orm/libsql/migrator";
import { MigrationError, migrateLibsql, openLibsql, pendingMigrations } from "#worker/adapters/libsql.ts";
import { CHECKSUMS_FILE, readChecksumRecord, sha256Of } from "#worker/adapters/migration-files.ts";
import { firstSalesMigrationsFolder, firstSalesVersion, root } from "./first-0010.ts";

const folder = join(root, "migrations");
const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as {
  entries: { tag: string; when: number }[];
};
const record = readChecksumRecord(folder);
const CHANGED =
  "a landed migration never changes (decision 120): restore the file and its journal entry as they are on main " +
  "(git checkout origin/main -- migrations/), and put the change in a new migration " +
  "(npm run db:generate, or npx drizzle-kit generate --custom --name WHAT), which gets its own checksum";

/** What is wrong with `dir`'s migrations against its checksums.json: each problem one line, with what to do. */
function checksumProblems(dir: string): string[] {
  const entries = (
    JSON.parse(readFileSync(join(dir, "meta/_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] }
  ).entries;
  const recorded = readChecksumRecord(dir)?.migrations ?? [];
  const sha256 = (tag: string) => sha256Of(readFileSync(join(dir, `${tag}.sql`), "utf8"));
  const problems: string[] = [];
  for (const entry of recorded) {
    const inJournal = entries.find((candidate) => candidate.tag === entry.tag);
    if (!inJournal) {
      problems.push(`${entry.tag} is gone from the journal; ${CHANGED}`);
    } else if (inJournal.when !== entry.when) {
      problems.push(`${entry.tag}'s "when" in the journal is ${inJournal.when}, recorded ${entry.when}; ${CHANGED}`);
    } else if (sha256(entry.tag) !== entry.sha256) {
      problems.push(
        `migrations/${entry.tag}.sql changed (sha256 ${sha256(entry.tag)}, recorded ${entry.sha256}); ${CHANGED}`,
      );
    }
  }
  const known = new Set(recorded.map((entry) => entry.tag));
  for (const entry of entries.filter((candidate) => !known.has(candidate.tag))) {
    const line = JSON.stringify({ tag: entry.tag, when: entry.when, sha256: sha256(entry.tag) });
    problems.push(
      `${entry.tag} is new: add its checksum at the end of migrations/${CHECKSUMS_FILE}'s "migrations": ${line}`,
    );
  }
  const order = entries.map((entry) => entry.tag).filter((tag) => known.has(tag));
  const recordedOrder = recorded.map((entry) => entry.tag).filter((tag) => order.includes(tag));
  if (order.join() !== recordedOrder.join())
    problems.push(`migrations/${CHECKSUMS_FILE} lists the migrations out of the journal's order`);
  return problems;
}

function copyOfMigrations(): string {
  const copy = mkdtempSync(join(tmpdir(), "site-migrations-copy-"));
  cpSync(folder, copy, { recursive: true });
  return copy;
}

describe("migrations/checksums.json", () => {
  it("records every migration of the journal", () => {
    assert.ok(record, `migrations/${CHECKSUMS_FILE} is missing`);
    assert.equal(record.migrations.length, journal.entries.length);
  });

  it("holds every landed migration's file and journal entry (tag, when) to its recorded sha256", () => {
    const problems = checksumProblems(folder);
    assert.deepEqual(problems, [], problems.join("\n"));
  });

  it("fails a landed migration edited in place, or its when moved, telling to add a new migration instead", () => {
    const edited = copyOfMigrations();
    writeFileSync(join(edited, "0010_sales_gifts_returns.sql"), "-- one more line\n", { flag: "a" });
    const [problem, ...more] = checksumProblems(edited);
    assert.deepEqual(more, []);
    assert.match(
      problem ?? "",
      /^migrations\/0010_sales_gifts_returns\.sql changed \(sha256 [0-9a-f]{64}, recorded 555767a5/,
    );
    assert.match(problem ?? "", /never changes .* put the change in a new migration/);

    const moved = copyOfMigrations();
    const movedJournal = structuredClone(journal);
    const sales = movedJournal.entries.find((entry) => entry.tag === "0010_sales_gifts_returns");
    if (sales) sales.when += 1;
    writeFileSync(join(moved, "meta/_journal.json"), JSON.stringify(movedJournal));
    assert.match(
      checksumProblems(moved).join("\n"),
      /^0010_sales_gifts_returns's "when" in the journal is \d+, recorded 1795578390977; a landed migration never changes/,
    );
  });

  it("fails a new migration until its checksum is added, giving the line to add", () => {
    const added = copyOfMigrations();
    writeFileSync(join(added, "0099_new_thing.sql"), "CREATE TABLE new_thing (id integer);\n");
    const addedJournal = structuredClone(journal);
    addedJournal.entries.push({ tag: "0099_new_thing", when: 1900000000000 });
    writeFileSync(join(added, "meta/_journal.json"), JSON.stringify(addedJournal));
    assert.deepEqual(checksumProblems(added), [
      `0099_new_thing is new: add its checksum at the end of migrations/checksums.json's "migrations": ` +
        `{"tag":"0099_new_thing","when":1900000000000,"sha256":"${sha256Of("CREATE TABLE new_thing (id integer);\n")}"}`,
    ]);
  });
});

async function freshClient(): Promise<Client> {
  return openLibsql({ url: `file:${join(mkdtempSync(join(tmpdir(), "site-migrate-")), "site.db")}` });
}

async function values(client: Client, sql: string): Promise<unknown[][]> {
  return (await client.execute(sql)).rows.map((row) => Array.from(row));
}

describe("the Node migrator", () => {
  it("applies every migration to an empty database, once", async () => {
    const client = await freshClient();
    assert.deepEqual(
      await migrateLibsql(client, folder),
      journal.entries.map((entry) => entry.tag),
    );
    assert.deepEqual(await migrateLibsql(client, folder), []);
    assert.deepEqual(await pendingMigrations(client, folder), []);
    assert.deepEqual(await values(client, "SELECT count(*) FROM __drizzle_migrations"), [[journal.entries.length]]);
    assert.deepEqual(await values(client, "SELECT name FROM sqlite_master WHERE name = 'ledger_return_once'"), [
      ["ledger_return_once"],
    ]);
    client.close();
  });

  it("recognises migrations drizzle's own migrator applied: nothing pending after it", async () => {
    const client = await freshClient();
    await drizzleMigrate(drizzle(client), { migrationsFolder: folder });
    assert.deepEqual(await pendingMigrations(client, folder), []);
    assert.deepEqual(await migrateLibsql(client, folder), []);
    client.close();
  });

  describe("on a database made while 0010 was its first version", () => {
    const build = async () => {
      const client = await freshClient();
      // As those versions migrated: drizzle's migrator over their migrations/.
      await drizzleMigrate(drizzle(client), { migrationsFolder: firstSalesMigrationsFolder() });
      await client.executeMultiple(`
        INSERT INTO sales (id, title, percent, starts_at, ends_at) VALUES (1, 'Осенняя', 20, 1, 4102444800000);
        UPDATE shop_settings SET return_window_hours = 48 WHERE id = 1;
        INSERT INTO users (id, steam_id, nickname, avatar_url, balance) VALUES (1, '76561198000000077', 'Игрок', '', 5000);
        INSERT INTO ledger (user_id, amount, kind, provider_payment_id) VALUES (1, 5000, 'deposit', 'yookassa:first-0010');
      `);
      return client;
    };

    it("drizzle's own migrator runs 0010 again and fails (the bug of issue 34)", async () => {
      const client = await build();
      await assert.rejects(
        drizzleMigrate(drizzle(client), { migrationsFolder: folder }),
        /table `sales` already exists/,
      );
      client.close();
    });

    it("upgrades without running 0010 again: only the later migrations are applied, and every row stays", async () => {
      const client = await build();
      const first = firstSalesVersion();
      const later = journal.entries.slice(journal.entries.findIndex((entry) => entry.tag.startsWith("0010_")) + 1);
      assert.deepEqual(
        (await pendingMigrations(client, folder)).map((migration) => migration.tag),
        later.map((entry) => entry.tag),
      );
      assert.deepEqual(
        await migrateLibsql(client, folder),
        later.map((entry) => entry.tag),
      );
      assert.deepEqual(await pendingMigrations(client, folder), []);
      // 0010's row is still the first version's; no second one was written.
      assert.deepEqual(
        await values(
          client,
          "SELECT hash, created_at FROM __drizzle_migrations WHERE created_at >= 1795575440384 ORDER BY created_at",
        ),
        [
          [first.sha256, first.when],
          ...later.map((entry) => [
            record?.migrations.find((recorded) => recorded.tag === entry.tag)?.sha256,
            entry.when,
          ]),
        ],
      );
      assert.deepEqual(await values(client, "SELECT id, title FROM sales"), [[1, "Осенняя"]]);
      assert.deepEqual(await values(client, "SELECT return_window_hours FROM shop_settings"), [[48]]);
      assert.deepEqual(await values(client, "SELECT balance FROM users"), [[5000]]);
      // What 0010 gained in place, the first version's databases now have too.
      assert.deepEqual(await values(client, "SELECT name FROM sqlite_master WHERE name = 'ledger_return_once'"), [
        ["ledger_return_once"],
      ]);
      client.close();
    });
  });

  it("names the failed migration and SQLite's error in one line, and applies none of the run", async () => {
    const client = await freshClient();
    const upTo9 = mkdtempSync(join(tmpdir(), "site-migrations-0009-"));
    cpSync(folder, upTo9, { recursive: true });
    writeFileSync(
      join(upTo9, "meta/_journal.json"),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, 10) }),
    );
    await migrateLibsql(client, upTo9);
    // Something already has 0010's first table's name.
    await client.execute("CREATE TABLE sales (id integer)");
    const error = await migrateLibsql(client, folder).then(
      () => assert.fail("migrated"),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof MigrationError);
    assert.equal(
      error.message,
      "migration 0010_sales_gifts_returns (migrations/0010_sales_gifts_returns.sql) failed: " +
        `SQLITE_ERROR: table \`sales\` already exists; nothing was applied (${journal.entries.length - 10} migrations still to apply)`,
    );
    assert.deepEqual(await values(client, "SELECT count(*) FROM __drizzle_migrations"), [[10]]);
    assert.deepEqual(await values(client, "SELECT count(*) FROM sqlite_master WHERE name = 'shop_settings'"), [[0]]);
    client.close();
  });
});
