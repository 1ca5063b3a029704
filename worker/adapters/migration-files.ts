import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The migrations of a migrations/ folder as drizzle-kit writes them (meta/_journal.json and one
// .sql file per entry), with the versions of each that once landed and were later changed
// (checksums.json's `earlier`): a database that ran such a version has that migration already.
// Migrations never change once landed (decision 120); 0010 did, once, before that rule.

/** What a database's `__drizzle_migrations` row holds of a migration: drizzle's hash and the journal's `when`. */
export interface MigrationVersion {
  /** sha256 of the .sql file's text, as drizzle's migrator computes it. */
  sha256: string;
  /** The journal entry's `when` (ms), which drizzle's migrator stores as `created_at`. */
  when: number;
}

export interface MigrationFile extends MigrationVersion {
  tag: string;
  /** `migrations/<tag>.sql`, for messages. */
  file: string;
  /** The file's statements, split at drizzle-kit's `--> statement-breakpoint`, blank ones left out. */
  statements: string[];
  /** Versions of this migration that landed before it was changed (checksums.json). */
  earlier: MigrationVersion[];
}

interface Journal {
  entries: { tag: string; when: number }[];
}

/** migrations/checksums.json: every landed migration's sha256 and `when`, held by tests/node/migrations.test.ts. */
export interface ChecksumRecord {
  migrations: (MigrationVersion & { tag: string; earlier?: (MigrationVersion & { note?: string })[] })[];
}

export const CHECKSUMS_FILE = "checksums.json";

export function sha256Of(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function readChecksumRecord(folder: string): ChecksumRecord | null {
  const path = join(folder, CHECKSUMS_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as ChecksumRecord) : null;
}

/** The journal's migrations in order, each with its statements and any earlier landed versions. */
export function readMigrationFolder(folder: string): MigrationFile[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as Journal;
  const record = readChecksumRecord(folder);
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(join(folder, `${tag}.sql`), "utf8");
    const recorded = record?.migrations.find((entry) => entry.tag === tag);
    return {
      tag,
      when,
      sha256: sha256Of(text),
      file: `migrations/${tag}.sql`,
      statements: text.split("--> statement-breakpoint").filter((statement) => statement.trim() !== ""),
      earlier: (recorded?.earlier ?? []).map(({ sha256, when }) => ({ sha256, when })),
    };
  });
}

/**
 * The migrations a database has not had, given its `__drizzle_migrations` rows. A migration counts
 * as applied when a row carries the hash or the `when` of its current or of an earlier landed
 * version. Not, as drizzle's own migrator decides, when the newest row's `when` is later than its
 * own: that re-ran 0010 after its `when` moved, and would skip a migration merged with an older
 * `when` than one already applied.
 */
export function pendingOf(migrations: MigrationFile[], applied: MigrationVersion[]): MigrationFile[] {
  const hashes = new Set(applied.map((row) => row.sha256));
  const whens = new Set(applied.map((row) => row.when));
  return migrations.filter(
    (migration) =>
      ![migration, ...migration.earlier].some((version) => hashes.has(version.sha256) || whens.has(version.when)),
  );
}
