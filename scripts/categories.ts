// The shop's categories from a shell (decision 119), against the local or the remote D1, or the Node
// server's libSQL database with --libsql or DATABASE_URL set (scripts/sql-target.ts). A fresh
// database has none, and an item needs one: this, or the console's «Категории», is where a shop starts.
//
//   npm run categories -- add "Привилегии" [--description "Ранги на 30 дней"] [--remote]
//   npm run categories -- list [--remote]
//   npm run categories -- rename --id 3 --name "Наборы" [--description …]
//   npm run categories -- move --id 3 --to 1          (its place in the shop's order, 1 = first)
//   npm run categories -- hide --id 3 / show --id 3
//   npm run categories -- remove --id 3               (refused while it holds items)
//
// Local runs accept --persist-to DIR and --env NAME like scripts/seed-local.ts. The same rules as the
// console's (worker/services/admin/categories.ts); a script has no operator, so it writes no journal row.
import { parseArgs } from "node:util";
import { CATEGORY_TEXT } from "../core/messages/admin.ts";
import { categoryFieldsSchema } from "../core/schemas/category.ts";
import { libsqlOption, openSqlTarget } from "./sql-target.ts";

const USAGE = `Использование:
  npm run categories -- add НАЗВАНИЕ [--description ОПИСАНИЕ] [--remote]
  npm run categories -- list [--remote]
  npm run categories -- rename --id N --name НАЗВАНИЕ [--description ОПИСАНИЕ] [--remote]
  npm run categories -- move --id N --to МЕСТО [--remote]     (место в магазине: 1 — первая)
  npm run categories -- hide --id N | show --id N [--remote]
  npm run categories -- remove --id N [--remote]              (только пустую)
Название можно дать и как --name. Ещё: --env ИМЯ, --persist-to КАТАЛОГ (локальная база).
База libSQL сервера на Node вместо D1: --libsql или заданный DATABASE_URL (читается и из .env).`;

/** A wrong command line: what is wrong, then how to write it. */
function fail(message: string): never {
  console.error(`Ошибка: ${message}\n\n${USAGE}`);
  process.exit(1);
}

/** A refusal of a well-formed command: why, and nothing was changed. */
function refuse(message: string): never {
  console.error(`${message} Ничего не изменено.`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    description: { type: "string" },
    id: { type: "string" },
    to: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    env: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
    ...libsqlOption,
  },
});

/** A text as an SQL literal. */
function sql(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function positive(flag: string, text: string | undefined): number {
  if (!text || !/^[1-9]\d{0,9}$/.test(text)) fail(`${flag} — целое число от 1.`);
  return Number(text);
}

/** The name and description given, checked as the console checks them. */
function fields(name: string | undefined, description: string | undefined) {
  const parsed = categoryFieldsSchema.safeParse({ name: name ?? "", description: description ?? "" });
  if (!parsed.success) fail(parsed.error.issues[0]?.message ?? CATEGORY_TEXT.badName);
  return parsed.data;
}

const [command, ...rest] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(command || values.help ? 0 : 1);
}

const database = await openSqlTarget({
  libsql: values.libsql,
  remote: values.remote,
  persistTo: values["persist-to"],
  env: values.env,
});
const { where } = database;

type Listed = { id: number; name: string; sort_order: number };

async function ordered(): Promise<Listed[]> {
  const rows = await database.query("SELECT id, name, sort_order FROM categories ORDER BY sort_order, id");
  return rows.map((row) => ({ id: Number(row.id), name: String(row.name), sort_order: Number(row.sort_order) }));
}

async function found(id: number): Promise<{ name: string; items: number }> {
  const [row] = await database.query(
    `SELECT name, (SELECT COUNT(*) FROM items WHERE category_id = ${id}) AS items FROM categories WHERE id = ${id}`,
  );
  if (!row) refuse(`Категории №${id} нет (база: ${where}; см. list).`);
  return { name: String(row.name), items: Number(row.items) };
}

const sameName = (name: string, exceptId: number | null) =>
  `EXISTS (SELECT 1 FROM categories WHERE name = ${sql(name)} AND id IS NOT ${exceptId ?? "NULL"})`;

if (command === "add") {
  if (rest.length > 1) fail("название — одним аргументом, в кавычках.");
  const input = fields(values.name ?? rest[0], values.description);
  const rows = await database.query(
    `INSERT INTO categories (name, description, sort_order, hidden)
     SELECT ${sql(input.name)}, ${sql(input.description)}, (SELECT COALESCE(MAX(sort_order), -1) + 1 FROM categories), 0
     WHERE NOT ${sameName(input.name, null)}
     RETURNING id`,
  );
  if (rows.length === 0) refuse(`${CATEGORY_TEXT.duplicate}: «${input.name}».`);
  console.log(`Категория №${rows[0]?.id} «${input.name}» добавлена, последней в магазине (база: ${where}).`);
} else if (command === "list") {
  const rows = await database.query(
    `SELECT c.id, c.name, c.description, c.hidden,
       (SELECT COUNT(*) FROM items i WHERE i.category_id = c.id) AS items
     FROM categories c ORDER BY c.sort_order, c.id`,
  );
  if (rows.length === 0)
    console.log(`Категорий нет (база: ${where}): добавьте первую — npm run categories -- add "Название".`);
  else
    console.table(
      rows.map((row, index) => ({
        место: index + 1,
        id: row.id,
        название: row.name,
        описание: row.description,
        товаров: row.items,
        "в магазине": row.hidden ? "скрыта" : "да",
      })),
    );
} else if (command === "rename") {
  const id = positive("--id", values.id);
  const current = await found(id);
  const input = fields(values.name, values.description);
  const description = values.description === undefined ? "description" : sql(input.description);
  const rows = await database.query(
    `UPDATE categories SET name = ${sql(input.name)}, description = ${description}
     WHERE id = ${id} AND NOT ${sameName(input.name, id)} RETURNING id`,
  );
  if (rows.length === 0) refuse(`${CATEGORY_TEXT.duplicate}: «${input.name}».`);
  console.log(`Категория №${id} «${current.name}» теперь «${input.name}» (база: ${where}).`);
} else if (command === "move") {
  const id = positive("--id", values.id);
  const rows = await ordered();
  const from = rows.findIndex((row) => row.id === id);
  if (from === -1) refuse(`Категории №${id} нет (база: ${where}; см. list).`);
  const to = positive("--to", values.to) - 1;
  if (to >= rows.length) fail(`--to — место от 1 до ${rows.length}.`);
  const order = rows.map((row) => row.id);
  order.splice(from, 1);
  order.splice(to, 0, id);
  // Every category numbered 0, 1, 2… at once, only if the order is still the one just read.
  const asRead = rows.map((row) => `WHEN ${row.id} THEN ${row.sort_order}`).join(" ");
  const renumbered = order.map((categoryId, index) => `WHEN ${categoryId} THEN ${index}`).join(" ");
  // RETURNING counts the rows: D1's own count of changes includes what the revision triggers wrote.
  const changed = await database.query(
    `UPDATE categories SET sort_order = CASE id ${renumbered} END
     WHERE (SELECT COUNT(*) FROM categories) = ${rows.length}
       AND (SELECT COUNT(*) FROM categories WHERE sort_order = CASE id ${asRead} END) = ${rows.length}
     RETURNING id`,
  );
  if (changed.length !== rows.length) refuse("Категории изменились, пока читался их порядок; повторите.");
  console.log(`Категория №${id} «${rows[from]?.name}» теперь ${to + 1}-я из ${rows.length} (база: ${where}).`);
} else if (command === "hide" || command === "show") {
  const id = positive("--id", values.id);
  const current = await found(id);
  await database.query(`UPDATE categories SET hidden = ${command === "hide" ? 1 : 0} WHERE id = ${id}`);
  console.log(
    command === "hide"
      ? `Категория №${id} «${current.name}» скрыта: её и её товаров (${current.items}) нет в магазине (база: ${where}).`
      : `Категория №${id} «${current.name}» снова в магазине (база: ${where}).`,
  );
} else if (command === "remove") {
  const id = positive("--id", values.id);
  const current = await found(id);
  const rows = await database.query(
    `DELETE FROM categories WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM items WHERE category_id = ${id}) RETURNING id`,
  );
  if (rows.length === 0) refuse(CATEGORY_TEXT.notEmpty((await found(id)).items));
  console.log(`Категория №${id} «${current.name}» удалена (база: ${where}).`);
} else {
  fail(`неизвестная команда «${command}».`);
}
database.close();
