// Promo codes for operators, against the local or the remote D1, or the Node server's libSQL
// database with --libsql or DATABASE_URL set (scripts/sql-target.ts):
//   npm run promo -- create --code WINTER --type BALANCE --value 100 --max-uses 50 [--starts 2026-12-01] [--ends 2027-01-10T00:00:00+03:00] [--remote]
//   npm run promo -- create --code VIPWEEK2 --type ITEM --item 101 [--server-type SOLO] [--days 7] --max-uses 10
//   npm run promo -- list [--remote]
// Extra wrangler options pass through: --env e2e, --persist-to DIR. Add --dry-run to print the SQL only.
import { parseArgs } from "node:util";
import { ZodError, z } from "zod";
import { PROMO_ADMIN_TEXT } from "../core/messages/admin.ts";
import { describePromo, type PromoInput, parseOperatorTime, promoInsertSql } from "../db/seed/promo-sql.ts";
import { libsqlOption, openSqlTarget } from "./sql-target.ts";

const USAGE = `Использование:
  npm run promo -- create --code КОД --type BALANCE --value РУБЛИ --max-uses N [--starts ДАТА] [--ends ДАТА] [--remote]
  npm run promo -- create --code КОД --type ITEM --item ID [--server-type SOLO] [--days N] --max-uses N [--starts ДАТА] [--ends ДАТА] [--remote]
  npm run promo -- list [--remote]
ДАТА: 2026-12-01 (полночь по Москве) или полное время ISO 8601. Без --days предмет выдаётся навсегда.
Ещё: --env ИМЯ, --persist-to КАТАЛОГ (локальная база), --dry-run (только показать SQL).
База libSQL сервера на Node вместо D1: --libsql или заданный DATABASE_URL (читается и из .env).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    code: { type: "string" },
    type: { type: "string" },
    value: { type: "string" },
    item: { type: "string" },
    "server-type": { type: "string" },
    days: { type: "string" },
    "max-uses": { type: "string" },
    starts: { type: "string" },
    ends: { type: "string" },
    remote: { type: "boolean", default: false },
    env: { type: "string" },
    "persist-to": { type: "string" },
    "dry-run": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
    ...libsqlOption,
  },
});

async function run(sql: string) {
  const database = await openSqlTarget({
    libsql: values.libsql,
    remote: values.remote,
    persistTo: values["persist-to"],
    env: values.env,
  });
  const rows = await database.query(sql);
  database.close();
  return { rows, where: database.where };
}

const [command] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(command ? 0 : 1);
}

try {
  if (command === "create") {
    // A code that ended before it was made can never be redeemed: a typo in the year, most likely.
    const endsAt =
      values.ends === undefined
        ? null
        : ((text: string) => {
            try {
              return parseOperatorTime(text);
            } catch {
              return null; // not a date: the schema below says so
            }
          })(values.ends);
    if (endsAt !== null && endsAt <= Date.now()) {
      console.error(`Ошибка: --ends ${values.ends} уже прошло; укажите дату окончания в будущем.\n\n${USAGE}`);
      process.exit(1);
    }
    const input = {
      code: values.code ?? "",
      type: z.enum(["BALANCE", "ITEM"]).parse(values.type?.toUpperCase()),
      value: values.value,
      itemId: values.item,
      serverType: values["server-type"]?.toUpperCase() as never,
      days: values.days,
      maxUses: values["max-uses"] ?? "",
      startsAt: values.starts,
      endsAt: values.ends,
    } as PromoInput;
    const sql = promoInsertSql(input, { returning: true });
    if (values["dry-run"]) console.log(sql);
    else {
      const { rows, where } = await run(sql);
      // A taken code is answered as the console answers it, not with SQLite's SQLITE_CONSTRAINT.
      if (rows.length === 0) {
        const code = describePromo(input).split(":")[0];
        console.error(`${PROMO_ADMIN_TEXT.duplicate}: «${code}» (${where}). Ничего не изменено.`);
        process.exit(1);
      }
      console.log(`Промокод создан (${where}): ${describePromo(input)}.`);
    }
  } else if (command === "list") {
    const { rows } = await run(
      "SELECT code, type, value / 100.0 AS rubles, item_id, item_server_type, item_duration_days, " +
        "datetime(starts_at / 1000, 'unixepoch') AS starts_utc, datetime(ends_at / 1000, 'unixepoch') AS ends_utc, " +
        "used_count, max_uses FROM promo_codes ORDER BY id",
    );
    console.table(rows);
  } else {
    console.error(USAGE);
    process.exit(1);
  }
} catch (error) {
  if (error instanceof ZodError) {
    console.error(`Ошибка: ${z.prettifyError(error)}\n\n${USAGE}`);
    process.exit(1);
  }
  throw error;
}
