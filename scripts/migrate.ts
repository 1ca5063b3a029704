// `npm run db:migrate`: applies migrations/ to the Node server's libSQL database (DATABASE_URL,
// DATABASE_AUTH_TOKEN, from the environment or .env; default file:data/site.db).
import { libsqlDatabaseFromEnv } from "./libsql-env.ts";

const { client, url, migrate } = await libsqlDatabaseFromEnv();
await migrate();
client.close();
console.log(`Migrated ${url}.`);
