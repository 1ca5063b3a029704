// Operator tool for game servers and their plugin keys, against the local or the remote D1, or the
// Node server's libSQL database with --libsql or DATABASE_URL set (scripts/sql-target.ts).
//
//   npm run servers -- add --name "Свобода #6 | MAX 2" --type MAX2 --ip-port 1.2.3.4:28015 [--sort 6] [--remote]
//   npm run servers -- rotate-key --id 6 [--remote]
//   npm run servers -- remove --id 6 [--confirm-queue] [--remote]
//   npm run servers -- list [--remote]
//   npm run servers -- resync [--remote]        after restoring the database from a backup (D1 Time Travel)
//   npm run servers -- wipe --id 6 --kind weekly --weekday 4 --time 14:00 [--remote]   its wipe schedule (decision 128)
//
// Local runs accept --persist-to DIR and --env NAME like scripts/seed-local.ts.
// A new key is printed ONCE. The database keeps only a random salt: the key is derived from
// GAME_KEY_SECRET, the id and the salt (decision 103; scripts/game-key-secret.ts says where the
// secret is read from). `list` flags servers with a key from before that (key_hash), to rotate.
import { parseArgs } from "node:util";
import { WIPE_FORM_TEXT } from "../core/messages/wipe.ts";
import { wipeScheduleFormSchema } from "../core/schemas/wipe-schedule.ts";
import { isIpPort, SERVER_TYPES } from "../core/shop/server-types.ts";
import { scheduleText, scheduleToColumns } from "../core/wipe/schedule.ts";
import { deriveServerKey, generateKeySalt } from "../worker/services/game/keys.ts";
import { gameKeySecret } from "./game-key-secret.ts";
import { libsqlOption, openSqlTarget } from "./sql-target.ts";

const usage = `Usage:
  npm run servers -- add --name NAME --type ${SERVER_TYPES.join("|")} --ip-port IP:PORT [--sort N] [--remote]
  npm run servers -- rotate-key --id N [--remote]
  npm run servers -- remove --id N [--confirm-queue] [--remote]
  npm run servers -- list [--remote]
  npm run servers -- resync [--remote]   after a restore: deliveries wait until every plugin has re-sent what it delivered
  npm run servers -- wipe --id N --kind weekly --weekday 1-7 --time HH:MM [--remote]   its wipe schedule, Moscow time (1 = Monday)
  npm run servers -- wipe --id N --kind every_weeks --weeks 2-8 --from YYYY-MM-DD --time HH:MM [--remote]
  npm run servers -- wipe --id N --kind forced|none [--remote]   Facepunch's monthly wipe only, or no schedule
Local options: --persist-to DIR, --env NAME
The Node server's libSQL database instead: --libsql, or DATABASE_URL set (also read from .env)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    type: { type: "string" },
    "ip-port": { type: "string" },
    sort: { type: "string" },
    id: { type: "string" },
    remote: { type: "boolean", default: false },
    "confirm-queue": { type: "boolean", default: false },
    kind: { type: "string" },
    weekday: { type: "string" },
    time: { type: "string" },
    weeks: { type: "string" },
    from: { type: "string" },
    "persist-to": { type: "string" },
    env: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
    ...libsqlOption,
  },
});

function sql(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * As the console's «Расписание вайпов» saves one (worker/services/admin/servers.ts, setWipeSchedule):
 * read by the console's own schema, its columns as the console writes them, its wipes counted from now
 * (decision 130). A script has no operator, so it writes no journal row.
 */
async function setWipeSchedule(id: number) {
  if (!Number.isInteger(id) || id <= 0) fail("--id must be a server id (see `list`).");
  const input = wipeScheduleFormSchema.safeParse({
    wipeKind: values.kind?.trim().toLowerCase(),
    weekday: values.weekday,
    time: values.time,
    weeks: values.weeks,
    from: values.from,
  });
  if (!input.success) fail(input.error.issues[0]?.message ?? WIPE_FORM_TEXT.kind);
  const columns = scheduleToColumns(input.data);
  const rows = await database.query(
    `UPDATE servers SET wipe_kind = ${sql(columns.wipeKind)}, wipe_weekday = ${sql(columns.wipeWeekday)},
       wipe_minute = ${sql(columns.wipeMinute)}, wipe_every_weeks = ${sql(columns.wipeEveryWeeks)},
       wipe_from = ${sql(columns.wipeFrom)}, wipe_schedule_set_at = ${Date.now()}
     WHERE id = ${id} RETURNING id`,
  );
  if (rows.length === 0) fail(`No server #${id} in ${where}.`);
  console.log(`${WIPE_FORM_TEXT.saved(id, scheduleText(input.data))} (${where}).`);
  console.log("The server list and /wipes show it within two minutes (the status cron).");
}

/**
 * As the console removes one (worker/services/admin/servers.ts, removeServer): refused while it
 * holds leased deliveries; the last server of a type whose grants wait is removed only with
 * --confirm-queue (its type then stops selling, the queue waits for a new server of the type,
 * decision 122); the pending revokes of ranks it granted become `stranded` naming it; its entries
 * stop pointing at it; then the server, its heartbeat and its record of signed requests go.
 */
async function removeServer(id: number, confirmQueue: boolean) {
  if (!Number.isInteger(id) || id <= 0) fail("--id must be a server id (see `list`).");
  const now = Date.now();
  const leased = `EXISTS (SELECT 1 FROM deliveries WHERE leased_server_id = ${id} AND status = 'pending' AND lease_until > ${now})`;
  const typeOf = `(SELECT server_type FROM servers WHERE id = ${id})`;
  const lastOfType = `NOT EXISTS (SELECT 1 FROM servers o WHERE o.server_type = ${typeOf} AND o.id <> ${id})`;
  // Корзина entries waiting for a server of the type: undelivered, their grant pending or not queued yet.
  const grantsWaiting = `FROM inventory_entries e WHERE e.server_type = ${typeOf} AND e.status = 'not_used'
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.inventory_entry_id = e.id AND d.kind = 'grant' AND d.status <> 'pending')`;
  const [server] = await database.query(
    `SELECT id, name, server_type, ${leased} AS busy, ${lastOfType} AS last, (SELECT COUNT(*) ${grantsWaiting}) AS waiting
     FROM servers WHERE id = ${id}`,
  );
  if (!server) fail(`No server #${id} in ${where}.`);
  if (server.busy) {
    console.error(
      `Server #${id} has deliveries it is running and has not acknowledged yet; remove it once it does (within 5 minutes). Nothing was changed.`,
    );
    process.exit(1);
  }
  const type = String(server.server_type);
  const waiting = Number(server.waiting);
  if (server.last && waiting > 0 && !confirmQueue) {
    console.error(
      `Server #${id} is the last ${type} server, and ${waiting} purchased or promo items wait for delivery on ${type}. ` +
        `Without it they stay queued until a ${type} server is added, and the shop stops selling ${type} items meanwhile. ` +
        "To remove it anyway, run again with --confirm-queue. Nothing was changed.",
    );
    process.exit(1);
  }
  const queueAllowed = confirmQueue ? "1" : `NOT (${lastOfType} AND EXISTS (SELECT 1 ${grantsWaiting}))`;
  const removable = `EXISTS (SELECT 1 FROM servers WHERE id = ${id}) AND NOT ${leased} AND ${queueAllowed}`;
  const grantedThere = `SELECT id FROM inventory_entries WHERE used_server_id = ${id}`;
  const [stranded = 0, , , removed = 0] = await database.batch([
    `UPDATE deliveries SET status = 'stranded', lease_until = NULL,
       last_error = (SELECT 'Сервер #' || s.id || ' «' || s.name || '», выдавший привилегию, удалён; снимите её вручную по окончании срока' FROM servers s WHERE s.id = ${id})
     WHERE kind = 'revoke' AND status = 'pending' AND inventory_entry_id IN (${grantedThere}) AND ${removable}`,
    `UPDATE inventory_entries SET used_server_id = NULL WHERE used_server_id = ${id} AND ${removable}`,
    `DELETE FROM game_request_marks WHERE server_id = ${id} AND ${removable}`,
    `DELETE FROM servers WHERE id = ${id} AND ${removable}`,
  ]);
  if (removed !== 1)
    fail(`Server #${id} was not removed (it took a delivery, or a purchase queued, meanwhile?); try again.`);
  console.log(`Removed server #${id} "${server.name}" from ${where}; its key no longer works.`);
  if (stranded > 0) {
    console.log(
      `${stranded} revoke(s) of ranks it granted can't run anywhere else: they are stranded, for you to take the ranks away by hand (console, Доставки).`,
    );
  }
  if (server.last) {
    console.log(
      `It was the last ${type} server: the shop does not sell ${type} items until one is added` +
        (waiting > 0 ? `; ${waiting} items stay queued and are delivered once it is.` : "."),
    );
  }
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
const usesLibsql = values.libsql || (Boolean(process.env.DATABASE_URL) && !values.remote);
const secret = () => gameKeySecret({ remote: values.remote, libsql: usesLibsql });

if (command === "add") {
  const name = values.name?.trim();
  const type = values.type?.trim().toUpperCase();
  const ipPort = values["ip-port"]?.trim();
  const sort = values.sort === undefined ? null : Number(values.sort);
  if (!name) fail("--name is required.");
  if (!type || !(SERVER_TYPES as readonly string[]).includes(type))
    fail(`--type must be one of ${SERVER_TYPES.join(", ")}.`);
  if (!ipPort || !isIpPort(ipPort))
    fail("--ip-port must be an IPv4 address and a port, like 1.2.3.4:28015 (each part 0–255, the port 1–65535).");
  if (sort !== null && !Number.isInteger(sort)) fail("--sort must be an integer.");
  const keySecret = secret();
  const salt = generateKeySalt();
  const rows = await database.query(
    `INSERT INTO servers (name, server_type, ip_port, sort_order, key_salt, key_rotated_at)
     VALUES (${sql(name)}, ${sql(type)}, ${sql(ipPort)}, ${sort ?? "(SELECT COALESCE(MAX(sort_order), -1) + 1 FROM servers)"}, ${sql(salt)}, ${Date.now()})
     RETURNING id`,
  );
  const id = Number(rows[0]?.id);
  const key = await deriveServerKey(keySecret, id, salt);
  console.log(`Added server #${id} "${name}" (${type}, ${ipPort}) to ${where}.`);
  console.log("\nPlugin config (oxide/config/RustStoreDelivery.json) — the key is shown only now:");
  console.log(`  "Server id": ${id},\n  "Server key": "${key}"`);
} else if (command === "rotate-key") {
  const id = Number(values.id);
  if (!Number.isInteger(id) || id <= 0) fail("--id must be a server id (see `list`).");
  const keySecret = secret();
  const salt = generateKeySalt();
  const rows = await database.query(
    `UPDATE servers SET key_hash = NULL, key_salt = ${sql(salt)}, key_rotated_at = ${Date.now()} WHERE id = ${id} RETURNING id, name`,
  );
  if (rows.length === 0) fail(`No server #${id} in ${where}.`);
  const key = await deriveServerKey(keySecret, id, salt);
  console.log(`New key for server #${id} "${rows[0]?.name}" in ${where}; the old key stops working now.`);
  console.log("\nPut it in the plugin config and run `oxide.reload RustStoreDelivery` — it is shown only now:");
  console.log(`  "Server key": "${key}"`);
} else if (command === "remove") {
  await removeServer(Number(values.id), values["confirm-queue"]);
} else if (command === "list") {
  const rows = await database.query(
    `SELECT s.id, s.name, s.server_type, s.ip_port, s.key_hash IS NOT NULL AS legacy_key, s.key_salt IS NOT NULL AS derived_key, s.key_rotated_at, h.received_at AS heartbeat_at
     FROM servers s LEFT JOIN server_heartbeats h ON h.server_id = s.id ORDER BY s.sort_order, s.id`,
  );
  const when = (value: unknown) => (typeof value === "number" ? new Date(value).toISOString() : "—");
  console.table(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.server_type,
      "ip:port": row.ip_port,
      key: row.derived_key
        ? row.key_rotated_at
          ? `set ${when(row.key_rotated_at)}`
          : "set (seed)"
        : row.legacy_key
          ? "OLD: needs rotate-key"
          : "none",
      "last heartbeat": when(row.heartbeat_at),
    })),
  );
} else if (command === "wipe") {
  await setWipeSchedule(Number(values.id));
} else if (command === "resync") {
  // Decision 124: a database restored from a backup has forgotten what the plugins delivered since.
  // Each plugin sends it again; deliveries of a server type wait until all of its servers have.
  const rows = await database.query("UPDATE servers SET needs_resync = 1 RETURNING id");
  console.log(
    `${rows.length} server(s) in ${where} will send again what they delivered since the backup; their deliveries wait until they have (console, Доставки).`,
  );
} else {
  fail(`Unknown command "${command}".`);
}
database.close();
