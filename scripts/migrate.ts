// `npm run db:migrate`: applies migrations/ to the Node server's libSQL database (DATABASE_URL,
// DATABASE_AUTH_TOKEN, from the environment or .env; default file:data/site.db). Says which
// migrations it applied, or that there were none; a failure is one line naming the migration and
// SQLite's error, and applies nothing. Run while the old version serves: migrations only add (136).
import { MigrationError, sqliteReason } from "../worker/adapters/libsql.ts";
import { libsqlDatabaseFromEnv } from "./libsql-env.ts";

const { client, url, migrate } = await libsqlDatabaseFromEnv().catch((error: unknown) => {
  console.error(`Cannot migrate: ${sqliteReason(error)}`);
  process.exit(1);
});
try {
  const applied = await migrate();
  console.log(
    applied.length === 0
      ? `Nothing to apply: ${url} has every migration of this version.`
      : `Applied ${applied.length} migration${applied.length === 1 ? "" : "s"} to ${url}: ${applied.join(", ")}.`,
  );
} catch (error) {
  console.error(`Cannot migrate ${url}: ${error instanceof MigrationError ? error.message : sqliteReason(error)}`);
  process.exitCode = 1;
} finally {
  client.close();
}
