// One libSQL database per test file, in a temporary file (a file, not :memory:, so the embedded
// database is exercised as the Node server uses it). Vitest loads this module once per test file.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { libsqlKeyValueFile, libsqlPorts, migrateLibsql, openLibsql } from "#worker/adapters/libsql.ts";

export const databaseDir = mkdtempSync(join(tmpdir(), "site-test-"));
export const databaseUrl = `file:${join(databaseDir, "site.db")}`;
export const client = await openLibsql({ url: databaseUrl });
export const ports = libsqlPorts(client);
/** The payment stand-in's own file beside the database, as the Node server keeps it (decision 135). */
export const standInKv = libsqlKeyValueFile(join(databaseDir, "payment-stand-in.db"));

export async function applyMigrations(): Promise<void> {
  await migrateLibsql(client, resolve("migrations"));
}
