import { describe, expect, it } from "vitest";
import { auditRowsFor, consoleArgs, createOperator, thrownStatus } from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { createItem } from "#tests/support/shop-fixtures.ts";
import { raw, runBatch } from "#tests/support/sql.ts";
import { EXPORT_PAGE_SIZE } from "#worker/services/admin/exports.ts";
import { loader as pageLoader } from "../app/routes/admin.exports.tsx";
import { action } from "../app/routes/admin.exports-csv.tsx";

const deps = testDeps();
const DAY = 24 * 60 * 60 * 1000;

/** A Moscow day of its own for each test (D1 is shared by the run's files), far from every other test's rows. */
function uniqueDay(): { day: string; start: number } {
  const start = Date.parse("2035-01-01T00:00:00+03:00") + Math.floor(Math.random() * 20_000) * DAY;
  return { day: new Date(start + 3 * 60 * 60 * 1000).toISOString().slice(0, 10), start };
}

/** A tiny reader of what we write: `;`-separated, quoted fields with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ";") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else field += char;
  }
  return rows;
}

async function download(token: string, form: Record<string, string>) {
  const response = (await action(consoleArgs(deps, "/admin/exports/csv", { token, form }))) as Response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

describe("CSV exports", () => {
  it("exports the purchases of a period for Excel: BOM, header, Cyrillic, quoting, the formula guard", async () => {
    const admin = await createOperator(deps, "admin");
    const { day, start } = uniqueDay();
    const player = await createPlayer({ deps, nickname: 'Вася; "Гроза" рейдов' });
    const itemId = await createItem({ name: '=HYPERLINK("http://evil")', price: 25_050 });
    const insert = (id: string, at: number, price: number) =>
      raw(
        `INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price, status, paid_at, created_at)
         VALUES (?, ?, ?, ?, 'Classic', 30, ?, 'completed', ?, ?)`,
        player.id,
        itemId,
        id,
        id,
        price,
        at,
        at,
      );
    const tag = crypto.randomUUID();
    await runBatch([
      insert(`${tag}-before`, start - 1, 100),
      insert(`${tag}-first`, start, 25_050),
      insert(`${tag}-last`, start + DAY - 1, 9),
      insert(`${tag}-after`, start + DAY, 100),
    ]);

    const { response, bytes, text } = await download(admin.token, { kind: "purchases", from: day, to: day });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="purchases_${day}_${day}.csv"`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual([
      "Создана (МСК, ISO 8601)",
      "ID покупки",
      "Транзакция",
      "SteamID",
      "Игрок",
      "ID товара",
      "Товар",
      "Тип сервера",
      "Срок, дней (0 — до вайпа)",
      "Цена, руб. (десятичная запятая)",
      "Статус",
      "Оплачена (МСК, ISO 8601)",
      "Подарок для (SteamID)",
    ]);
    // The period is whole Moscow days: the row a millisecond before and the one on the next day stay out.
    expect(rows.slice(1).map((row) => row[2])).toEqual([`${tag}-first`, `${tag}-last`]);
    const first = rows[1] ?? [];
    expect(first[0]).toBe(`${day}T00:00:00+03:00`);
    expect(first[4]).toBe('Вася; "Гроза" рейдов');
    expect(first[6]).toBe('\'=HYPERLINK("http://evil")');
    expect(first[9]).toBe("250,50");
    expect(first[10]).toBe("Завершено");
    expect(rows[2]?.[9]).toBe("0,09");
    // On the wire: the nickname quoted with its quotes doubled.
    expect(text).toContain(`;"Вася; ""Гроза"" рейдов";`);

    const journal = await auditRowsFor(deps, "export", "purchases");
    expect(
      journal.filter((row) => row.operator_steam_id === admin.steamId).map((row) => JSON.parse(row.after ?? "{}")),
    ).toEqual([{ kind: "purchases", from: day, to: day }]);
  });

  it("exports the ledger with signed amounts, notes with line breaks, and every row across pages", async () => {
    const admin = await createOperator(deps, "admin");
    const { day, start } = uniqueDay();
    const player = await createPlayer({ deps, nickname: "Игрок" });
    const count = EXPORT_PAGE_SIZE * 2 + 5;
    await runBatch([
      raw(
        `INSERT INTO ledger (user_id, amount, kind, note, created_at)
         VALUES (?, -25000, 'adjustment', ?, ?)`,
        player.id,
        "-штраф\nза «читы»; см. тикет",
        start + 1000,
      ),
      // Many rows on one millisecond: the pages must continue by id, not lose or repeat a row.
      raw(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO ledger (user_id, amount, kind, note, created_at) SELECT ?, 100, 'promo', 'пачка', ? FROM n`,
        count,
        player.id,
        start + 2000,
      ),
    ]);
    const { text } = await download(admin.token, { kind: "ledger", from: day, to: day });
    const rows = parseCsv(text.slice(1));
    expect(rows[0]?.[4]).toBe("Сумма, руб. (десятичная запятая)");
    expect(rows[1]?.slice(2)).toEqual([
      player.steamId,
      "Игрок",
      "-250,00",
      "Корректировка",
      "",
      "",
      "'-штраф\nза «читы»; см. тикет",
    ]);
    const batch = rows.slice(2);
    expect(batch).toHaveLength(count);
    expect(new Set(batch.map((row) => row[1])).size).toBe(count);
    expect(batch.every((row) => row[4] === "1,00" && row[5] === "Промокод")).toBe(true);
  });

  it("exports payments with statuses and e-mails, guarding a value that starts with +", async () => {
    const admin = await createOperator(deps, "admin");
    const { day, start } = uniqueDay();
    const player = await createPlayer({ deps, nickname: "@плательщик" });
    const id = crypto.randomUUID();
    await runBatch([
      raw(
        `INSERT INTO payments (id, user_id, provider, provider_payment_id, amount, email, status, created_at, completed_at)
         VALUES (?, ?, 'yookassa', ?, 150000, '+7 999 000-00-00', 'completed', ?, ?)`,
        id,
        player.id,
        `yk-${id}`,
        start + 60_000,
        start + 120_000,
      ),
    ]);
    const { text } = await download(admin.token, { kind: "payments", from: day, to: day });
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual([
      `${day}T00:01:00+03:00`,
      id,
      player.steamId,
      "'@плательщик",
      "1500,00",
      "Успешно",
      "yookassa",
      `yk-${id}`,
      "'+7 999 000-00-00",
      `${day}T00:02:00+03:00`,
    ]);
  });

  it("offers a period longer than one file in parts whose rows, one after another, are the whole export", async () => {
    // EXPORT_ROWS_PER_FILE, as the Worker sets it (decision 115); these tests' settings leave it unset.
    const limited = { ...deps, config: { ...deps.config, exportRowsPerFile: EXPORT_PAGE_SIZE } };
    const admin = await createOperator(deps, "admin");
    const { day, start } = uniqueDay();
    const player = await createPlayer({ deps, nickname: "Частями" });
    const count = EXPORT_PAGE_SIZE * 2 + 5;
    // One millisecond for all: a part must end and the next begin by id, not lose or repeat a row.
    await runBatch([
      raw(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO ledger (user_id, amount, kind, note, created_at) SELECT ?, i, 'promo', 'часть', ? FROM n`,
        count,
        player.id,
        start + 5000,
      ),
    ]);
    const form = { kind: "ledger", from: day, to: day };
    const post = (extra: Record<string, string> = {}) =>
      action(
        consoleArgs(limited, "/admin/exports/csv", { token: admin.token, form: { ...form, ...extra } }),
      ) as Promise<Response>;

    const asked = await post();
    expect(asked.status).toBe(303);
    const page = await pageLoader(consoleArgs(limited, asked.headers.get("Location") ?? "", { token: admin.token }));
    expect(page.parts).toEqual({ rows: count, rowsPerFile: EXPORT_PAGE_SIZE, parts: 3 });

    const parts: string[][][] = [];
    for (const part of ["1", "2", "3"]) {
      const response = await post({ part });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Disposition")).toBe(
        `attachment; filename="ledger_${day}_${day}_part${part}of3.csv"`,
      );
      const rows = parseCsv(
        new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer()).slice(1),
      );
      expect(rows[0]?.[0]).toBe("Время (МСК, ISO 8601)");
      parts.push(rows.slice(1));
    }
    expect(parts.map((rows) => rows.length)).toEqual([EXPORT_PAGE_SIZE, EXPORT_PAGE_SIZE, 5]);
    const whole = parseCsv((await download(admin.token, form)).text.slice(1)).slice(1);
    expect(parts.flat()).toEqual(whole);
    expect(new Set(whole.map((row) => row[1])).size).toBe(count);

    // A part past the end (the period shrank since) is offered again, not an empty file.
    expect((await post({ part: "4" })).status).toBe(303);
    const journal = await auditRowsFor(deps, "export", "ledger");
    const after = journal.map((row) => JSON.parse(row.after ?? "{}")).filter((row) => row.from === day);
    expect(after.filter((row) => row.parts === 3).map((row) => row.part)).toEqual([1, 2, 3]);
  });

  it("lets support export purchases only, and nobody else anything", async () => {
    const support = await createOperator(deps, "support");
    const { day } = uniqueDay();
    const purchases = await download(support.token, { kind: "purchases", from: day, to: day });
    expect(purchases.response.status).toBe(200);
    for (const kind of ["payments", "ledger"]) {
      expect(
        await thrownStatus(
          action(consoleArgs(deps, "/admin/exports/csv", { token: support.token, form: { kind, from: day, to: day } })),
        ),
      ).toEqual({ status: 403, data: "Поддержке доступна только выгрузка покупок" });
    }
    const page = await pageLoader(consoleArgs(deps, "/admin/exports", { token: support.token }));
    expect(page.kinds).toEqual(["purchases"]);
    const journal = await auditRowsFor(deps, "export", "payments");
    expect(journal.some((row) => row.operator_steam_id === support.steamId)).toBe(false);

    const stranger = await createPlayer({ deps });
    expect(
      (
        await thrownStatus(
          action(
            consoleArgs(deps, "/admin/exports/csv", {
              token: stranger.token,
              form: { kind: "purchases", from: day, to: day },
            }),
          ),
        )
      ).status,
    ).toBe(404);
  });

  it("sends a bad period back to the form with the reason", async () => {
    const admin = await createOperator(deps, "admin");
    const response = (await action(
      consoleArgs(deps, "/admin/exports/csv", {
        token: admin.token,
        form: { kind: "ledger", from: "2026-11-30", to: "2026-11-01" },
      }),
    )) as Response;
    expect(response.status).toBe(303);
    const location = response.headers.get("Location") ?? "";
    const page = await pageLoader(consoleArgs(deps, location, { token: admin.token }));
    expect(page.error).toBe("Укажите период: даты «с» и «по» в формате ГГГГ-ММ-ДД, «с» не позже «по»");
    expect(page).toMatchObject({ kind: "ledger", from: "2026-11-30", to: "2026-11-01" });
    for (const bad of [
      { from: "2026-02-30", to: "2026-03-01" },
      { from: "вчера", to: "2026-03-01" },
    ]) {
      const answer = (await action(
        consoleArgs(deps, "/admin/exports/csv", { token: admin.token, form: { kind: "ledger", ...bad } }),
      )) as Response;
      expect(answer.status).toBe(303);
    }
  });
});
