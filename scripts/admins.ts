// Operator roles for the console at /admin, against the local or the remote D1.
//
//   npm run admins -- add --steam-id 76561198000000001 --role admin|support [--remote]
//   npm run admins -- remove --steam-id 76561198000000001 [--remote]
//   npm run admins -- list [--remote]
//
// Local runs accept --persist-to DIR and --env NAME like scripts/seed-local.ts. SteamIDs in the
// ADMIN_STEAM_IDS setting are admins whatever this table says (decision 096).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";

const ROLES = ["admin", "support"];

const usage = `Usage:
  npm run admins -- add --steam-id STEAMID64 --role ${ROLES.join("|")} [--remote]
  npm run admins -- remove --steam-id STEAMID64 [--remote]
  npm run admins -- list [--remote]
Local options: --persist-to DIR, --env NAME`;

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
  },
});

function d1(command: string): Record<string, unknown>[] {
  const target = values.remote
    ? ["--remote", ...(values.env ? ["--env", values.env] : [])]
    : [
        "--local",
        ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : []),
        ...(values.env ? ["--env", values.env] : []),
      ];
  let output: string;
  try {
    output = execFileSync(
      join("node_modules", ".bin", "wrangler"),
      ["d1", "execute", "DB", ...target, "--json", "--command", command],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      },
    );
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    console.error(`wrangler d1 execute failed${stdout ? `:\n${stdout.trim()}` : "."}`);
    process.exit(1);
  }
  const parsed = JSON.parse(output) as { results?: Record<string, unknown>[] }[];
  return parsed.flatMap((statement) => statement.results ?? []);
}

function steamIdArg(): string {
  const steamId = values["steam-id"]?.trim() ?? "";
  // Digits only, so it is safe inside the SQL literal below.
  if (!/^\d{17}$/.test(steamId)) fail("--steam-id must be a SteamID64 (17 digits).");
  return steamId;
}

const where = values.remote ? "the remote database" : "the local database";
const [command] = positionals;
if (values.help || !command) fail("Choose a command.");

if (command === "add") {
  const steamId = steamIdArg();
  const role = values.role?.trim().toLowerCase() ?? "";
  if (!ROLES.includes(role)) fail(`--role must be one of ${ROLES.join(", ")}.`);
  d1(
    `INSERT INTO operators (steam_id, role) VALUES ('${steamId}', '${role}')
     ON CONFLICT(steam_id) DO UPDATE SET role = excluded.role`,
  );
  console.log(`${steamId} is now ${role} in ${where}. They sign in with Steam and open /admin.`);
} else if (command === "remove") {
  const steamId = steamIdArg();
  const rows = d1(`DELETE FROM operators WHERE steam_id = '${steamId}' RETURNING steam_id`);
  if (rows.length === 0) fail(`${steamId} has no stored role in ${where}.`);
  console.log(`${steamId} has no operator role in ${where} any more (ADMIN_STEAM_IDS still counts, if it lists them).`);
} else if (command === "list") {
  const rows = d1(
    `SELECT o.steam_id, o.role, u.nickname, o.created_at FROM operators o
     LEFT JOIN users u ON u.steam_id = o.steam_id ORDER BY o.role, o.steam_id`,
  );
  console.table(
    rows.map((row) => ({
      steam_id: row.steam_id,
      role: row.role,
      nickname: row.nickname ?? "(not signed in yet)",
      since: typeof row.created_at === "number" ? new Date(row.created_at).toISOString() : "—",
    })),
  );
} else {
  fail(`Unknown command "${command}".`);
}
