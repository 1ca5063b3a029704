// migrations/ as the commits 4f8a920 to 416f366^ had it: 0000-0009 as now, and 0010 in its first
// version, before 416f366 edited it in place (adding ledger_return_once) and moved its `when`. The
// first version is today's file without that statement; its sha256 is held to checksums.json's
// record of it, which was taken from `git show 4f8a920:migrations/0010_sales_gifts_returns.sql`,
// so the folder is the one those versions shipped, byte for byte, without needing git history.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readChecksumRecord, sha256Of } from "#worker/adapters/migration-files.ts";

export const root = resolve(import.meta.dirname, "../..");
const SALES = "0010_sales_gifts_returns";
const ADDED_LATER =
  'CREATE UNIQUE INDEX `ledger_return_once` ON `ledger` (`purchase_id`) WHERE "ledger"."kind" = \'return\';\n' +
  "--> statement-breakpoint\n";

/** The first 0010's sha256 and `when`, as checksums.json records them. */
export function firstSalesVersion(): { sha256: string; when: number } {
  const record = readChecksumRecord(join(root, "migrations"));
  const earlier = record?.migrations.find((entry) => entry.tag === SALES)?.earlier?.[0];
  assert.ok(earlier, `checksums.json records the first version of ${SALES}`);
  return earlier;
}

/** A temporary migrations/ folder with the journal and files as the first 0010's versions had them. */
export function firstSalesMigrationsFolder(): string {
  const journal = JSON.parse(readFileSync(join(root, "migrations/meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const index = journal.entries.findIndex((entry) => entry.tag === SALES);
  const current = readFileSync(join(root, "migrations", `${SALES}.sql`), "utf8");
  assert.ok(current.includes(ADDED_LATER));
  const first = current.replace(ADDED_LATER, "");
  const version = firstSalesVersion();
  assert.equal(sha256Of(first), version.sha256, "the rebuilt first 0010 is the one that landed");

  const folder = mkdtempSync(join(tmpdir(), "site-migrations-first-0010-"));
  mkdirSync(join(folder, "meta"));
  const entries = journal.entries
    .slice(0, index + 1)
    .map((entry) => (entry.tag === SALES ? { ...entry, when: version.when } : entry));
  for (const entry of entries.slice(0, -1)) {
    copyFileSync(join(root, "migrations", `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  }
  writeFileSync(join(folder, `${SALES}.sql`), first);
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }, null, 2));
  return folder;
}
