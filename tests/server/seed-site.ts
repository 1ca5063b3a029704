// `node tests/server/seed-site.ts DATABASE MIGRATIONS`: migrates and seeds a site's database in a
// process of its own. @libsql/client's close() leaves the file open (and, in WAL mode, SQLite's shared
// lock held) until the garbage collector runs, so a test that seeded in its own process held the
// site's file at random and a later `npm run db:restore` refused it as «open in a running site».
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { seedStatements } from "#db/seed/index.ts";
import { openLibsql } from "#worker/adapters/libsql.ts";

const [database, migrations] = process.argv.slice(2);
if (!database || !migrations) throw new Error("usage: node tests/server/seed-site.ts DATABASE MIGRATIONS");
const client = await openLibsql({ url: `file:${database}` });
await migrate(drizzle(client), { migrationsFolder: migrations });
await client.executeMultiple(seedStatements().join("\n"));
client.close();
