// Applies migrations and seed data to a local D1 (wrangler's .wrangler/state, or --persist-to DIR),
// or, with --libsql or DATABASE_URL set, to the Node server's libSQL database.
// --catalog-size N tops the SOLO catalog up to N generated items (for npm run bench).
// libSQL configured for production (APP_ENV=production, or a PUBLIC_URL off this machine, in the
// environment or .env) is refused, and so is the database a production site's .env names even when
// the environment overrides the rest: the seed's admin, rich player, servers with published keys
// and promo codes must never reach a real site.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { seedStatements } from "../db/seed/index.ts";
import { localDevKeySalt } from "../db/seed/server-keys.ts";
import { seedServers } from "../db/seed/servers.ts";
import { isLoopbackUrl } from "../worker/config.ts";
import { databaseFilePath } from "../worker/node/database-file.ts";
import { deriveServerKey } from "../worker/services/game/keys.ts";
import { gameKeySecret } from "./game-key-secret.ts";

const args = process.argv.slice(2);
const sizeIndex = args.indexOf("--catalog-size");
const catalogSize = sizeIndex >= 0 ? Number(args[sizeIndex + 1]) : 0;
if (!Number.isInteger(catalogSize) || catalogSize < 0) throw new Error("--catalog-size: a whole number of items");

/** The seeded servers' plugin keys, derived as the site derives them (decision 103): local use only. */
async function printDevKeys(libsql: boolean): Promise<void> {
  const secret = gameKeySecret({ libsql });
  console.log("Plugin keys of the seeded servers (local use only; plugins/oxide/README.md):");
  for (const { id, name } of seedServers) {
    console.log(
      `  "Server id": ${id}, "Server key": "${await deriveServerKey(secret, id, localDevKeySalt(id))}"  ${name}`,
    );
  }
}

/** The same database, however its URL is spelled (file:data/site.db, file:./data/site.db, an absolute path). */
function sameDatabase(one: string, other: string): boolean {
  const [oneFile, otherFile] = [databaseFilePath(one), databaseFilePath(other)];
  return oneFile !== null && otherFile !== null ? resolve(oneFile) === resolve(otherFile) : one === other;
}

if (args.includes("--libsql") || process.env.DATABASE_URL) {
  const { DEFAULT_DATABASE_URL, libsqlDatabaseFromEnv, loadEnvFile } = await import("./libsql-env.ts");
  const envFile: Record<string, string | undefined> = existsSync(".env") ? parseEnv(readFileSync(".env", "utf8")) : {};
  loadEnvFile();
  const appEnv = process.env.APP_ENV || "development";
  const publicUrl = process.env.PUBLIC_URL || "";
  if (appEnv === "production" || (publicUrl !== "" && !isLoopbackUrl(publicUrl))) {
    console.error(
      `Refused: APP_ENV=${appEnv}${publicUrl ? `, PUBLIC_URL=${publicUrl}` : ""} (environment or .env) is a production site, ` +
        "and the seed's demo data (an admin, a player with 1 000 000 ₽, servers with the published keys local-dev-key-N, " +
        "promo codes) must never reach one. To try the site on this machine, override them and use a database of its own: " +
        "APP_ENV=development PUBLIC_URL=http://localhost:3000 DATABASE_URL=file:data/try.db (README, Your own server).",
    );
    process.exit(1);
  }
  // The environment can make this run a development one, but not the database .env gives its production site.
  const envFileSite = envFile.APP_ENV === "production" || (!!envFile.PUBLIC_URL && !isLoopbackUrl(envFile.PUBLIC_URL));
  const target = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (envFileSite && sameDatabase(target, envFile.DATABASE_URL || DEFAULT_DATABASE_URL)) {
    console.error(
      `Refused: ${target} is the database of the production site in .env (${envFile.APP_ENV === "production" ? "APP_ENV=production" : `PUBLIC_URL=${envFile.PUBLIC_URL}`}), ` +
        "and the seed's demo data must never reach it; give the seed a database of its own: DATABASE_URL=file:data/try.db (README, Your own server).",
    );
    process.exit(1);
  }
  const { client, url, migrate } = await libsqlDatabaseFromEnv();
  await migrate();
  await client.executeMultiple(seedStatements({ catalogSize }).join("\n"));
  client.close();
  console.log(`Seeded ${url}.`);
  await printDevKeys(true);
  process.exit(0);
}
const persistIndex = args.indexOf("--persist-to");
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : undefined;
const envIndex = args.indexOf("--env");
const wranglerEnv = envIndex >= 0 ? args[envIndex + 1] : undefined;

const common = [
  "--local",
  ...(persistTo ? ["--persist-to", persistTo] : []),
  ...(wranglerEnv ? ["--env", wranglerEnv] : []),
];
const wrangler = join("node_modules", ".bin", "wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

execFileSync(wrangler, ["d1", "migrations", "apply", "DB", ...common], { stdio: "inherit", env });

mkdirSync(".wrangler", { recursive: true });
const file = join(".wrangler", "seed.sql");
writeFileSync(file, `${seedStatements({ catalogSize }).join("\n")}\n`);
execFileSync(wrangler, ["d1", "execute", "DB", ...common, "--file", file], {
  stdio: ["ignore", "ignore", "inherit"],
  env,
});
console.log(`Seeded local D1${persistTo ? ` in ${persistTo}` : ""}.`);
await printDevKeys(false);
