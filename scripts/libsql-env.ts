// The Node server's database for operator scripts, chosen as the server chooses it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { migrateLibsql, openLibsql } from "../worker/adapters/libsql.ts";
import { prepareFileDatabase } from "../worker/node/database-file.ts";

export const DEFAULT_DATABASE_URL = "file:data/site.db";

export async function libsqlDatabaseFromEnv() {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  prepareFileDatabase(url);
  const client = await openLibsql({ url, authToken: process.env.DATABASE_AUTH_TOKEN || undefined });
  return { client, url, migrate: () => migrateLibsql(client, resolve("migrations")) };
}
