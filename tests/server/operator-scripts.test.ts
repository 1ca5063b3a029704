// The operator scripts as an owner of a Node server runs them: DATABASE_URL points at the
// server's libSQL database, migrated with `npm run db:migrate`, and no wrangler is involved.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { openLibsql } from "../../worker/adapters/libsql.ts";
import { deriveServerKey } from "../../worker/services/game/keys.ts";
import { siteFolder } from "./owner-site.ts";

const root = resolve(import.meta.dirname, "../..");
const folder = mkdtempSync(join(tmpdir(), "site-operator-"));
const databaseUrl = `file:${join(folder, "site.db")}`;
const GAME_SECRET = "operator-scripts-game-key-secret-0001";

async function sqlRows(sql: string): Promise<Record<string, unknown>[]> {
  const client = await openLibsql({ url: databaseUrl });
  try {
    const result = await client.execute(sql);
    return result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]])));
  } finally {
    client.close();
  }
}

/** A script's refusal: exit 1 and what it printed on stderr. */
async function refusal(name: string, ...args: string[]): Promise<string> {
  try {
    await script(name, ...args);
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    assert.equal(failed.code, 1);
    return failed.stderr ?? "";
  }
  assert.fail(`${name} ${args.join(" ")} was accepted`);
}

async function script(name: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join("scripts", name), ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_AUTH_TOKEN: "",
      GAME_KEY_SECRET: GAME_SECRET,
      ADMIN_STEAM_IDS: "76561198000000077",
    },
  });
  return stdout;
}

describe("operator scripts on the Node server's libSQL database", () => {
  before(async () => {
    await script("migrate.ts");
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it("servers add prints the new server's id and key once; servers list shows it", async () => {
    const added = await script(
      "servers.ts",
      "add",
      "--name",
      "Свобода #6 | MAX 2",
      "--type",
      "MAX2",
      "--ip-port",
      "10.0.0.6:28015",
    );
    assert.match(added, /Added server #1 "Свобода #6 \| MAX 2" \(MAX2, 10\.0\.0\.6:28015\)/);
    assert.match(added, /"Server id": 1,/);
    const key = added.match(/"Server key": "(rsk_[\w-]+)"/)?.[1];
    assert.ok(key, added);

    const listed = await script("servers.ts", "list");
    assert.match(listed, /│ 1\s+│ 'Свобода #6 \| MAX 2' │ 'MAX2' │ '10\.0\.0\.6:28015' │ 'set \d{4}-/);
    assert.ok(!listed.includes(key), "the key is shown only when it is made");
    // The database keeps only the salt; the key comes from GAME_KEY_SECRET (decision 103).
    const [row] = await sqlRows("SELECT key_hash, key_salt FROM servers WHERE id = 1");
    assert.equal(row?.key_hash, null);
    assert.equal(key, await deriveServerKey(GAME_SECRET, 1, String(row?.key_salt)));
  });

  it("servers list flags a key from before decision 103 until rotate-key replaces it", async () => {
    await sqlRows(
      `INSERT INTO servers (id, name, server_type, ip_port, key_hash) VALUES (7, 'Старый', 'SOLO', '10.0.0.7:28015', '${"a".repeat(64)}')`,
    );
    assert.match(await script("servers.ts", "list"), /│ 7\s+│ 'Старый'.*'OLD: needs rotate-key'/);
    const rotated = await script("servers.ts", "rotate-key", "--id", "7");
    const key = rotated.match(/"Server key": "(rsk_[\w-]+)"/)?.[1];
    const [row] = await sqlRows("SELECT key_hash, key_salt FROM servers WHERE id = 7");
    assert.equal(row?.key_hash, null);
    assert.equal(key, await deriveServerKey(GAME_SECRET, 7, String(row?.key_salt)));
    assert.doesNotMatch(await script("servers.ts", "list"), /OLD/);
  });

  it("the plugin README's key rotation for a site on its own server runs as written", async () => {
    const readme = readFileSync(join(root, "plugins/oxide/README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Rotating a key"), readme.indexOf("## Local development"));
    const line = section.match(/^npm run servers -- (rotate-key --id N --libsql)\b/m)?.[1];
    assert.ok(line, "the README rotates a key on the Node server's database");
    const rotated = await script("servers.ts", ...line.replace("N", "1").split(" "));
    const key = rotated.match(/"Server key": "(rsk_[\w-]+)"/)?.[1];
    const [row] = await sqlRows("SELECT key_salt FROM servers WHERE id = 1");
    assert.equal(key, await deriveServerKey(GAME_SECRET, 1, String(row?.key_salt)));
  });

  it("servers wipe sets a wipe schedule as the console does, refusing what is not one in its words", async () => {
    assert.match(
      await script("servers.ts", "wipe", "--id", "1", "--kind", "weekly", "--weekday", "4", "--time", "14:00"),
      /^Расписание вайпов сервера №1 сохранено — каждую неделю: чт 14:00\sМСК \(file:.*\)\.\n/,
    );
    assert.match(
      await refusal("servers.ts", "wipe", "--id", "1", "--kind", "every_weeks", "--weeks", "2", "--time", "14:00"),
      /^Дата первого вайпа в виде 2026-12-03\n/,
    );
    assert.match(await refusal("servers.ts", "wipe", "--id", "99", "--kind", "forced"), /^No server #99 in /);
    const [row] = await sqlRows(
      "SELECT wipe_kind, wipe_weekday, wipe_minute, wipe_every_weeks, wipe_from, wipe_schedule_set_at > 0 AS set_now FROM servers WHERE id = 1",
    );
    assert.deepEqual(row, {
      wipe_kind: "weekly",
      wipe_weekday: 4,
      wipe_minute: 14 * 60,
      wipe_every_weeks: null,
      wipe_from: null,
      set_now: 1,
    });
  });

  it("a second server on the same address is refused and not listed", async () => {
    await assert.rejects(
      script("servers.ts", "add", "--name", "Копия", "--type", "SOLO", "--ip-port", "10.0.0.6:28015"),
      (error: { code?: number; stderr?: string }) => error.code === 1 && /UNIQUE/.test(error.stderr ?? ""),
    );
    assert.doesNotMatch(await script("servers.ts", "list"), /Копия/);
  });

  it("admins add then admins list shows the role", async () => {
    const added = await script("admins.ts", "add", "--steam-id", "76561198000000042", "--role", "support");
    assert.match(added, /76561198000000042 is now support/);
    const listed = await script("admins.ts", "list");
    assert.match(listed, /'76561198000000042' │ 'support' │ '\(not signed in yet\)'/);
  });

  it("admins list also shows the admins ADMIN_STEAM_IDS makes", async () => {
    const listed = await script("admins.ts", "list");
    assert.match(listed, /'76561198000000077' │ 'admin'\s+│ '\(not signed in yet\)'\s+│ 'ADMIN_STEAM_IDS'/);
  });

  it("promo create says what it made in a line (not its SQL); promo list shows the code", async () => {
    const created = await script(
      "promo.ts",
      "create",
      "--code",
      "winter",
      "--type",
      "BALANCE",
      "--value",
      "100",
      "--max-uses",
      "50",
    );
    assert.match(
      created,
      /^Промокод создан \(file:.*site\.db\): WINTER: 100\u00a0₽ на баланс, использований: 50, без срока\.\n$/,
    );
    const timed = await script(
      "promo.ts",
      "create",
      "--code",
      "new-year",
      "--type",
      "BALANCE",
      "--value",
      "99.5",
      "--max-uses",
      "1",
      "--starts",
      "2098-12-31",
      "--ends",
      "2099-01-10T12:30:00+03:00",
    );
    assert.match(
      timed,
      /^Промокод создан \(file:.*\): NEW-YEAR: 99,5\u00a0₽ на баланс, использований: 1, с 31\.12\.2098, 00:00 по 10\.01\.2099, 12:30 \(МСК\)\.\n$/,
    );
    // --dry-run shows the SQL, and makes nothing.
    const dry = await script(
      "promo.ts",
      "create",
      "--code",
      "dry",
      "--type",
      "BALANCE",
      "--value",
      "1",
      "--max-uses",
      "1",
      "--dry-run",
    );
    assert.match(dry, /^INSERT INTO promo_codes /);
    const listed = await script("promo.ts", "list");
    assert.match(listed, /'WINTER'\s+│ 'BALANCE' │ 100\s+│/);
    assert.match(listed, /│ 0\s+│ 50\s+│/);
    assert.doesNotMatch(listed, /DRY/);
  });

  it("promo create with a taken code says so as the console does, and changes nothing", async () => {
    const taken = await refusal(
      "promo.ts",
      "create",
      "--code",
      "Winter",
      "--type",
      "BALANCE",
      "--value",
      "5",
      "--max-uses",
      "1",
    );
    assert.match(taken, /^Такой промокод уже есть: «WINTER» \(file:.*\)\. Ничего не изменено\.\n$/);
    assert.deepEqual(await sqlRows("SELECT value, max_uses FROM promo_codes WHERE code = 'WINTER'"), [
      { value: 10000, max_uses: 50 },
    ]);
  });

  it("categories: an empty shop gets its catalog from the shell; the shop's revision moves with each change", async () => {
    assert.match(await script("categories.ts", "list"), /^Категорий нет \(база: file:.*\): добавьте первую/);
    const revision = async () => Number((await sqlRows("SELECT revision FROM catalog_revision"))[0]?.revision);
    const before = await revision();
    assert.match(
      await script("categories.ts", "add", "Привилегии", "--description", "Ранги на 30 дней"),
      /^Категория №1 «Привилегии» добавлена, последней в магазине \(база: file:/,
    );
    assert.match(await script("categories.ts", "add", "--name", "Наборы"), /^Категория №2 «Наборы» добавлена/);
    assert.match(
      await refusal("categories.ts", "add", "Привилегии"),
      /^Категория с таким названием уже есть: «Привилегии»\. Ничего не изменено\./,
    );
    assert.match(await refusal("categories.ts", "add", "   "), /^Ошибка: Название категории — от 1 до 60 символов/);

    assert.match(await script("categories.ts", "move", "--id", "2", "--to", "1"), /«Наборы» теперь 1-я из 2/);
    assert.match(await script("categories.ts", "hide", "--id", "1"), /«Привилегии» скрыта: её и её товаров \(0\) нет/);
    assert.deepEqual(await sqlRows("SELECT id, name, description, hidden FROM categories ORDER BY sort_order, id"), [
      { id: 2, name: "Наборы", description: "", hidden: 0 },
      { id: 1, name: "Привилегии", description: "Ранги на 30 дней", hidden: 1 },
    ]);
    assert.ok((await revision()) > before, "the shop sees the scripts' changes");

    await sqlRows(
      "INSERT INTO items (name, price, img, server_type, category_id) VALUES ('Кит', 10000, '/images/shop/kit-start.svg', 'SOLO', 2)",
    );
    assert.match(
      await refusal("categories.ts", "remove", "--id", "2"),
      /^В категории 1 товар: перенесите их в другую категорию .* Ничего не изменено\./,
    );
    assert.match(await script("categories.ts", "remove", "--id", "1"), /^Категория №1 «Привилегии» удалена/);
    assert.match(await refusal("categories.ts", "hide", "--id", "1"), /^Категории №1 нет \(база: file:/);
    const listed = await script("categories.ts", "list");
    assert.match(listed, /│ 1\s+│ 2\s+│ 'Наборы'\s+│ ''\s+│ 1\s+│ 'да'/);
    assert.doesNotMatch(listed, /Привилегии/);
  });

  it("servers add refuses an address that can't be one", async () => {
    const said = await refusal("servers.ts", "add", "--name", "X", "--type", "SOLO", "--ip-port", "999.2.3.8:99999");
    assert.match(said, /^--ip-port must be an IPv4 address and a port, like 1\.2\.3\.4:28015/);
  });

  it("promo create refuses a code whose end has already passed", async () => {
    const said = await refusal(
      "promo.ts",
      "create",
      "--code",
      "LATE",
      "--type",
      "BALANCE",
      "--value",
      "100",
      "--max-uses",
      "5",
      "--ends",
      "2020-01-10",
    );
    assert.match(said, /^Ошибка: --ends 2020-01-10 уже прошло; укажите дату окончания в будущем\./);
    assert.doesNotMatch(await script("promo.ts", "list"), /LATE/);
  });

  it("finds DATABASE_URL in the site's .env, as the server does, without --libsql", async () => {
    const site = siteFolder();
    writeFileSync(join(site, ".env"), `DATABASE_URL=${databaseUrl}\n`);
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/servers.ts", "list"], {
      cwd: site,
      encoding: "utf8",
      env,
    });
    assert.match(stdout, /'Свобода #6 \| MAX 2'/);
  });

  it("servers remove takes a server and its key away", async () => {
    const added = await script(
      "servers.ts",
      "add",
      "--name",
      "Уходит",
      "--type",
      "SOLO",
      "--ip-port",
      "10.0.0.9:28015",
    );
    const id = added.match(/Added server #(\d+)/)?.[1];
    assert.ok(id, added);
    const removed = await script("servers.ts", "remove", "--id", id);
    assert.match(removed, new RegExp(`^Removed server #${id} "Уходит" from file:.*; its key no longer works\\.`));
    assert.doesNotMatch(await script("servers.ts", "list"), /Уходит/);
    assert.match(await refusal("servers.ts", "remove", "--id", id), new RegExp(`^No server #${id} in file:`));
  });

  it("servers remove warns before taking the last server of a type with items waiting, and needs --confirm-queue", async () => {
    const added = await script(
      "servers.ts",
      "add",
      "--name",
      "Последний",
      "--type",
      "NO_LIMIT",
      "--ip-port",
      "10.0.0.11:28015",
    );
    const id = added.match(/Added server #(\d+)/)?.[1];
    assert.ok(id, added);
    // Two purchases waiting for NO_LIMIT: one with its grant queued, one the cron hasn't queued yet.
    for (const statement of [
      "INSERT INTO users (id, steam_id, nickname, avatar_url) VALUES (500, '76561198000000500', 'Игрок', '/a.svg')",
      "INSERT INTO categories (id, name) VALUES (500, 'Наборы')",
      "INSERT INTO items (id, name, price, img, server_type, category_id) VALUES (500, 'Набор', 10000, '/i.svg', 'NO_LIMIT', 500)",
      "INSERT INTO inventory_entries (id, user_id, item_id, server_type, is_permanent, status) VALUES (500, 500, 500, 'NO_LIMIT', 1, 'not_used'), (501, 500, 500, 'NO_LIMIT', 1, 'not_used')",
      "INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, not_before) VALUES ('d-500', 500, 'grant', 'NO_LIMIT', '76561198000000500', 1, 0)",
    ]) {
      await sqlRows(statement);
    }
    const warned = await refusal("servers.ts", "remove", "--id", id);
    assert.equal(
      warned.split("\n")[0],
      `Server #${id} is the last NO_LIMIT server, and 2 purchased or promo items wait for delivery on NO_LIMIT. ` +
        "Without it they stay queued until a NO_LIMIT server is added, and the shop stops selling NO_LIMIT items meanwhile. " +
        "To remove it anyway, run again with --confirm-queue. Nothing was changed.",
    );
    assert.deepEqual(await sqlRows(`SELECT id FROM servers WHERE id = ${id}`), [{ id: Number(id) }]);

    const removed = await script("servers.ts", "remove", "--id", id, "--confirm-queue");
    assert.match(removed, new RegExp(`^Removed server #${id} "Последний"`));
    assert.match(
      removed,
      /It was the last NO_LIMIT server: the shop does not sell NO_LIMIT items until one is added; 2 items stay queued and are delivered once it is\./,
    );
    assert.deepEqual(await sqlRows(`SELECT id FROM servers WHERE id = ${id}`), []);
    assert.deepEqual(await sqlRows("SELECT status FROM deliveries WHERE id = 'd-500'"), [{ status: "pending" }]);
  });

  it("the seed refuses a database configured for production, from .env too, writing nothing", async () => {
    const site = siteFolder();
    writeFileSync(
      join(site, ".env"),
      "APP_ENV=production\nPUBLIC_URL=https://rust.example\nDATABASE_URL=file:data/site.db\n",
    );
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const seeding = promisify(execFile)(process.execPath, ["scripts/seed-local.ts", "--libsql"], { cwd: site, env });
    await assert.rejects(
      seeding,
      (error: { code?: number; stderr?: string }) =>
        error.code === 1 &&
        /^Refused: APP_ENV=production, PUBLIC_URL=https:\/\/rust\.example \(environment or \.env\) is a production site/.test(
          error.stderr ?? "",
        ),
    );
    assert.equal(existsSync(join(site, "data")), false, "no database was even created");
  });

  it("the seed refuses the database a production site's .env names, even when the environment says development", async () => {
    const site = siteFolder();
    writeFileSync(join(site, ".env"), "APP_ENV=production\nPUBLIC_URL=https://rust.example\n");
    // The README's try-it overrides, but without DATABASE_URL (or with the same file spelled otherwise).
    const tryIt: NodeJS.ProcessEnv = { ...process.env, APP_ENV: "development", PUBLIC_URL: "http://localhost:3000" };
    delete tryIt.DATABASE_URL;
    for (const env of [tryIt, { ...tryIt, DATABASE_URL: `file:${join(site, "data/site.db")}` }]) {
      const seeding = promisify(execFile)(process.execPath, ["scripts/seed-local.ts", "--libsql"], { cwd: site, env });
      await assert.rejects(seeding, (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 1);
        assert.match(
          error.stderr ?? "",
          /^Refused: file:\S*data\/site\.db is the database of the production site in \.env \(APP_ENV=production\), .*DATABASE_URL=file:data\/try\.db .*\n$/,
        );
        return true;
      });
      assert.equal(existsSync(join(site, "data")), false, "no database was even created");
    }
    // A database of its own, as the README's try-it lines give it, is seeded.
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/seed-local.ts", "--libsql"], {
      cwd: site,
      env: { ...tryIt, DATABASE_URL: "file:data/try.db" },
    });
    assert.match(stdout, /^Seeded file:data\/try\.db\./);
    assert.deepEqual(
      readdirSync(join(site, "data")).filter((name) => name.startsWith("site")),
      [],
    );
  });
});
