// Operator roles for the console at /admin, against the local or the remote D1, or the Node
// server's libSQL database with --libsql or DATABASE_URL set (scripts/sql-target.ts).
//
//   npm run admins -- add --steam-id 76561198000000001 --role admin|support [--remote]
//   npm run admins -- remove --steam-id 76561198000000001 [--remote]
//   npm run admins -- list [--remote]
//
// Local runs accept --persist-to DIR and --env NAME like scripts/seed-local.ts. SteamIDs in the
// ADMIN_STEAM_IDS setting are admins whatever this table says (decision 096).
import { parseArgs } from "node:util";
import { OPERATOR_ROLES } from "../db/schema.ts";
import { adminSteamIdsOf } from "../worker/config.ts";
import { libsqlOption, openSqlTarget } from "./sql-target.ts";

const ROLES: readonly string[] = OPERATOR_ROLES;

const usage = `Usage:
  npm run admins -- add --steam-id STEAMID64 --role ${ROLES.join("|")} [--remote]
  npm run admins -- remove --steam-id STEAMID64 [--remote]
  npm run admins -- list [--remote]
Local options: --persist-to DIR, --env NAME
The Node server's libSQL database instead: --libsql, or DATABASE_URL set (also read from .env)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "steam-id": { type: "string" },
    role: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    env: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
    ...libsqlOption,
  },
});

function steamIdArg(): string {
  const steamId = values["steam-id"]?.trim() ?? "";
  // Digits only, so it is safe inside the SQL literal below.
  if (!/^\d{17}$/.test(steamId)) fail("--steam-id must be a SteamID64 (17 digits).");
  return steamId;
}

const [command] = positionals;
if (values.help || !command) fail("Choose a command.");

const database = await openSqlTarget({
  libsql: values.libsql,
  remote: values.remote,
  persistTo: values["persist-to"],
  env: values.env,
});
const { where } = database;

if (command === "add") {
  const steamId = steamIdArg();
  const role = values.role?.trim().toLowerCase() ?? "";
  if (!ROLES.includes(role)) fail(`--role must be one of ${ROLES.join(", ")}.`);
  await database.query(
    `INSERT INTO operators (steam_id, role) VALUES ('${steamId}', '${role}')
     ON CONFLICT(steam_id) DO UPDATE SET role = excluded.role`,
  );
  console.log(`${steamId} is now ${role} in ${where}. They sign in with Steam and open /admin.`);
} else if (command === "remove") {
  const steamId = steamIdArg();
  const rows = await database.query(`DELETE FROM operators WHERE steam_id = '${steamId}' RETURNING steam_id`);
  if (rows.length === 0) fail(`${steamId} has no stored role in ${where}.`);
  console.log(`${steamId} has no operator role in ${where} any more (ADMIN_STEAM_IDS still counts, if it lists them).`);
} else if (command === "list") {
  const rows = await database.query(
    `SELECT o.steam_id, o.role, u.nickname, o.created_at FROM operators o
     LEFT JOIN users u ON u.steam_id = o.steam_id ORDER BY o.role, o.steam_id`,
  );
  // ADMIN_STEAM_IDS (the environment or .env, as the Node server reads it) makes admins whatever the
  // table says, so they are listed too; the Worker's own setting is in its vars or secrets.
  const fromSetting = adminSteamIdsOf(process.env.ADMIN_STEAM_IDS);
  const nicknames = new Map<string, string>();
  if (fromSetting.length > 0 && fromSetting.every((id) => /^\d{17}$/.test(id))) {
    const users = await database.query(
      `SELECT steam_id, nickname FROM users WHERE steam_id IN (${fromSetting.map((id) => `'${id}'`).join(", ")})`,
    );
    for (const user of users) nicknames.set(String(user.steam_id), String(user.nickname));
  }
  console.table([
    ...fromSetting.map((steamId) => ({
      steam_id: steamId,
      role: "admin",
      nickname: nicknames.get(steamId) ?? "(not signed in yet)",
      since: "ADMIN_STEAM_IDS",
    })),
    ...rows.map((row) => ({
      steam_id: row.steam_id,
      role: row.role,
      nickname: row.nickname ?? "(not signed in yet)",
      since: typeof row.created_at === "number" ? new Date(row.created_at).toISOString() : "—",
    })),
  ]);
} else {
  fail(`Unknown command "${command}".`);
}
database.close();
