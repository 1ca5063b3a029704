// The Node server's database for operator scripts, chosen as the server chooses it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { migrateLibsql, openLibsql } from "../worker/adapters/libsql.ts";
import { prepareFileDatabase } from "../worker/node/database-file.ts";
import { SettingError } from "../worker/node/settings.ts";

export const DEFAULT_DATABASE_URL = "file:data/site.db";

/** Reads `.env` (if present) under the real environment, which wins, as the server does. */
export function loadEnvFile(): void {
  if (existsSync(".env")) process.loadEnvFile(".env");
}

/** DATABASE_URL from the environment or `.env`, else the server's default. */
export function databaseUrlFromEnv(): string {
  loadEnvFile();
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** Prints a SettingError's lines (`Cannot run: …`) and exits 1; anything else is thrown on. */
export function exitOnSettingError(error: unknown): never {
  if (!(error instanceof SettingError)) throw error;
  for (const problem of error.problems) console.error(`Cannot run: ${problem}`);
  process.exit(1);
}

export async function libsqlDatabaseFromEnv() {
  const url = databaseUrlFromEnv();
  try {
    prepareFileDatabase(url);
  } catch (error) {
    exitOnSettingError(error);
  }
  const client = await openLibsql({ url, authToken: process.env.DATABASE_AUTH_TOKEN || undefined });
  return { client, url, migrate: () => migrateLibsql(client, resolve("migrations")) };
}
