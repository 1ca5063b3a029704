import { applyD1Migrations, env } from "cloudflare:test";

// The workerd suite's set-up (vitest.config.ts; the Node run's is tests/runtime/node/setup.ts, a libSQL
// file per test file). The test files share one workerd and its storage (vitest.config.ts: `isolate: false`): a workerd
// started for each file cost more than the tests themselves. Each file still begins with the database
// and key-value store a fresh site has: the rows the migrations wrote (the first file keeps them aside)
// and nothing that a file before it left.

type Row = Record<string, unknown>;
type Baseline = Map<string, Row[]>;
const shared = globalThis as typeof globalThis & { migratedRows?: Baseline };

const userTables = async () =>
  (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ).all<{ name: string }>()
  ).results.map(({ name }) => name);

if (shared.migratedRows === undefined) {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const baseline: Baseline = new Map();
  for (const table of await userTables()) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${table}"`).all<Row>();
    if (results.length > 0) baseline.set(table, results);
  }
  shared.migratedRows = baseline;
} else {
  const tables = await userTables();
  // The append-only tables' triggers refuse deletes: they are set aside while the rows go.
  const { results: triggers } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all<{
    name: string;
    sql: string;
  }>();
  // A site's ids and catalog revision only grow, and this process keeps what it read under them (the
  // catalog under its revision, the console's summary under the newest ids): given again to other rows,
  // they would be served the old. So the ids go on from where the file before left them
  // (sqlite_sequence is kept), and so does the revision.
  const revision = await env.DB.prepare("SELECT revision FROM catalog_revision WHERE id = 1").first<number>("revision");
  await env.DB.batch([
    env.DB.prepare("PRAGMA defer_foreign_keys = ON"),
    ...triggers.map(({ name }) => env.DB.prepare(`DROP TRIGGER "${name}"`)),
    ...tables.map((table) => env.DB.prepare(`DELETE FROM "${table}"`)),
    ...[...shared.migratedRows].flatMap(([table, rows]) =>
      rows.map((row) => {
        const columns = Object.keys(row);
        return env.DB.prepare(
          `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        ).bind(...columns.map((column) => row[column]));
      }),
    ),
    ...triggers.map(({ sql }) => env.DB.prepare(sql)),
    env.DB.prepare("UPDATE catalog_revision SET revision = ? WHERE id = 1").bind((revision ?? 0) + 1),
  ]);
  for (let cursor: string | undefined; ; ) {
    const page = await env.STATUS_KV.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map(({ name }) => env.STATUS_KV.delete(name)));
    if (page.list_complete) break;
    cursor = page.cursor;
  }
}
