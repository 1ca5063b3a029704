// Every statement the hot paths send (tests/support/hot-paths.ts: the plugin's poll, lease, ack and
// heartbeat, the player's pages and statement, a purchase, a top-up and its notification, a sign-in,
// each minutely job) is planned by SQLite over the migrated schema, and none may scan a table that
// grows with the history (issue 37): a scan reads every row, and on D1 every row read is billed.
// The statements are captured under the database port while the services run, not copied here,
// so a new query on a hot path is checked the day it is written. Timings stay in the bench
// (bench/rows/); this only reads plans, so it is deterministic.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Client } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "#app/root.tsx";
import { loader as adminIndexLoader } from "#app/routes/admin.index.tsx";
import { loader as adminLoader, middleware as adminMiddleware } from "#app/routes/admin.tsx";
import { loader as inventoryLoader } from "#app/routes/profile.inventory.tsx";
import { loader as profileLoader, middleware as profileMiddleware } from "#app/routes/profile.tsx";
import {
  createHotFixture,
  type HotFixture,
  type HotSite,
  hotPaths,
  hotSite,
  type PageRun,
  wholeCron,
} from "#tests/support/hot-paths.ts";
import {
  type ForeignKeyChildren,
  scansOfGrowingTables,
  statementKey,
  TABLE_GROWTH,
} from "#tests/support/query-plans.ts";
import { type RecordedStatement, recordingLibsql, statementLog } from "#tests/support/recording-database.ts";
import { routeChain } from "#tests/support/route-chain.ts";
import { libsqlDatabase, libsqlKeyValueStore, migrateLibsql, openLibsql } from "#worker/adapters/libsql.ts";
import { testSettings } from "./settings.ts";

let client: Client;
let site: HotSite;
let fixture: HotFixture;
const log = statementLog();
/** Each distinct statement once, with the hot path that sent it first. */
const captured = new Map<string, { statement: RecordedStatement; path: string }>();
const children: ForeignKeyChildren = new Map();
/** What each page's hot path ran, by the path's name. */
const pageRuns = new Map<string, PageRun>();

async function plan(sql: string, params: readonly unknown[]): Promise<string[]> {
  const result = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as never[] });
  return result.rows.map((row) => String(row.detail));
}

beforeAll(async () => {
  const url = `file:${join(mkdtempSync(join(tmpdir(), "query-plans-")), "site.db")}`;
  client = await openLibsql({ url });
  await migrateLibsql(client, resolve("migrations"));
  for (const table of Object.keys(TABLE_GROWTH)) {
    const keys = await client.execute({
      sql: 'SELECT "table" AS parent FROM pragma_foreign_key_list(?)',
      args: [table],
    });
    for (const key of keys.rows) {
      const parent = String(key.parent).toLowerCase();
      children.set(parent, (children.get(parent) ?? new Set()).add(table));
    }
  }
  site = hotSite({
    db: libsqlDatabase(recordingLibsql(client, log)),
    kv: libsqlKeyValueStore(client),
    settings: testSettings,
  });
  log.on = false;
  fixture = await createHotFixture(site);
  for (const path of [...hotPaths, { name: "the whole cron", prepare: undefined, run: wholeCron }]) {
    log.on = false;
    const prepared = await path.prepare?.(site, fixture);
    log.on = true;
    log.statements.length = 0;
    const result = await path.run(site, fixture, prepared);
    if (path.name.startsWith("page ")) pageRuns.set(path.name, result as PageRun);
    for (const statement of log.statements) {
      const key = statementKey(statement.sql);
      if (!captured.has(key)) captured.set(key, { statement, path: path.name });
    }
  }
  log.on = false;
});

afterAll(() => client.close());

describe("the hot paths' query plans (issue 37)", () => {
  it("name every table of the schema as growing or bounded", async () => {
    const tables = await client.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE '_cf_%'",
    );
    const unnamed = tables.rows.map((row) => String(row.name)).filter((name) => !(name in TABLE_GROWTH));
    expect(unnamed).toEqual([]);
  });

  it("were captured from every hot path, reads and writes", () => {
    const sqls = [...captured.keys()];
    expect(sqls.length).toBeGreaterThan(30);
    for (const table of ["deliveries", "inventory_entries", "purchases", "ledger", "payments", "sessions"]) {
      expect(
        sqls.some((sql) => sql.includes(table)),
        table,
      ).toBe(true);
    }
    expect(sqls.some((sql) => /^(INSERT|UPDATE|DELETE)/i.test(sql))).toBe(true);
  });

  it("never scan a table that grows with the history", async () => {
    const problems: string[] = [];
    for (const [sql, { statement, path }] of captured) {
      const lines = await plan(statement.sql, statement.params);
      // QUERY_PLANS=1 prints every plan, to see where a statement reads.
      if (process.env.QUERY_PLANS) console.log(`${path}\n  ${sql.slice(0, 300)}\n    ${lines.join("\n    ")}`);
      for (const finding of scansOfGrowingTables(statement.sql, lines, children)) {
        problems.push(`${path}: ${finding.line} (${finding.tables.join(", ")}: ${finding.problem})\n    ${sql}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("the plugin's /store (decision 156)", () => {
  it("walks only the player's waiting entries, in the order it answers, so the LIMIT ends the read", async () => {
    const reads = [...captured.values()].filter(
      ({ statement, path }) => path.startsWith("plugin /store") && statement.sql.includes("inventory_entries"),
    );
    expect(reads).toHaveLength(1);
    const [{ statement }] = reads as [(typeof reads)[number]];
    const lines = await plan(statement.sql, statement.params);
    expect(lines).toContain("SEARCH e USING INDEX inventory_user_ongoing (user_id=? AND status=?)");
    expect(lines.filter((line) => line.includes("TEMP B-TREE"))).toEqual([]);
  });
});

describe("the pages' chains (the hot paths run what app/routes.ts nests)", () => {
  it("run root's, every layout's and the page's middleware and loaders, as React Router does", () => {
    const admin = routeChain("/admin");
    expect(admin.files).toEqual(["root.tsx", "routes/admin.tsx", "routes/admin.index.tsx"]);
    expect(admin.middleware).toEqual(adminMiddleware);
    expect(admin.loaders).toEqual([rootLoader, adminLoader, adminIndexLoader]);
    const corner = routeChain("/profile");
    expect(corner.middleware).toEqual(expect.arrayContaining(profileMiddleware));
    expect(corner.loaders).toEqual(expect.arrayContaining([rootLoader, profileLoader, inventoryLoader]));
    expect(routeChain("/shop/items/7")).toMatchObject({ params: { id: "7" }, pattern: "/shop/items/:id" });
  });

  it("are what every page's hot path ran", () => {
    expect(pageRuns.size).toBeGreaterThanOrEqual(8);
    for (const [name, run] of pageRuns) {
      const chain = routeChain(run.pathname);
      expect(run.ran, name).toEqual([...chain.middleware, ...chain.loaders]);
    }
  });
});

describe("the guard itself", () => {
  it("catches a query written without an index, under an alias, in a subquery and in a write", async () => {
    const unindexed = [
      "SELECT id FROM purchases WHERE price = ?",
      "SELECT p.id FROM purchases p WHERE p.price = ?",
      "SELECT id FROM users WHERE id IN (SELECT user_id FROM ledger l WHERE l.note = ?)",
      "UPDATE deliveries SET attempts = attempts WHERE last_error = ?",
      "SELECT count(*) FROM inventory_entries WHERE ? IS NOT NULL",
    ];
    for (const sql of unindexed) {
      const findings = scansOfGrowingTables(sql, await plan(sql, [1]));
      expect(
        findings.map((finding) => finding.problem),
        sql,
      ).toContain("scans a table that grows");
    }
  });

  it("passes the same reads through an index, and a scan of the catalog", async () => {
    const indexed = [
      "SELECT id FROM purchases WHERE user_id = ?",
      "SELECT p.id FROM purchases p WHERE p.id = ?",
      "SELECT id, name FROM items WHERE price = ?",
    ];
    for (const sql of indexed) expect(scansOfGrowingTables(sql, await plan(sql, [1])), sql).toEqual([]);
  });

  it("tells a write's foreign-key checks from its own scans", async () => {
    const sql =
      "INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, price, status) SELECT 1, 1, 't', 'k', 'SOLO', 1, 'completed'";
    const lines = await plan(sql, []);
    expect(lines.some((line) => line.startsWith("SCAN ledger"))).toBe(true);
    expect(scansOfGrowingTables(sql, lines, children)).toEqual([]);
    expect(scansOfGrowingTables(sql, lines).map((finding) => finding.tables[0])).toContain("ledger");
  });

  it("refuses a scan it can't put a table to", () => {
    expect(scansOfGrowingTables("SELECT 1", ["SCAN mystery"])[0]?.problem).toBe(
      "scans a name the statement doesn't explain",
    );
  });
});
