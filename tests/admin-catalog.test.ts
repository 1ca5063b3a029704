import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { categories, purchases } from "#db/schema.ts";
import {
  actionResult,
  auditRowsFor,
  consoleArgs,
  createOperator,
  thrownStatus,
} from "#tests/support/admin-fixtures.ts";
import { testDeps } from "#tests/support/deps.ts";
import { createPlayer } from "#tests/support/players.ts";
import { api } from "#tests/support/profile-fixtures.ts";
import { ensureServerStatement } from "#tests/support/shop-fixtures.ts";
import { runBatch } from "#tests/support/sql.ts";
import { unique } from "#tests/support/unique.ts";
import { action as itemAction, loader as itemLoader } from "../app/routes/admin.item.tsx";
import { action as itemsAction, loader as itemsLoader } from "../app/routes/admin.items.tsx";

const deps = testDeps();

// The items made here are bought as SOLO: a shop sells a type only while it has a server of it (decision 122).
beforeAll(() => runBatch([ensureServerStatement("SOLO")]));

async function category() {
  const [row] = await deps.db.orm
    .insert(categories)
    .values({ name: unique("Категория ") })
    .returning();
  if (!row) throw new Error("no category");
  return row.id;
}

const form = (categoryId: number, fields: Record<string, string> = {}) => ({
  intent: "save",
  name: "Кит «Консоль»",
  description: "Добавлен из консоли",
  price: "299",
  discount: "0",
  img: "/images/shop/kit-start.svg",
  serverType: "MAX2",
  categoryId: String(categoryId),
  isAvailable: "on",
  durations: "",
  startTime: "",
  endTime: "",
  maxQuantity: "",
  grantCommands: "inventory.giveto {steamid} wood 1000",
  revokeCommands: "",
  ...fields,
});

function save(token: string, id: string, fields: Record<string, string>) {
  return itemAction(consoleArgs(deps, `/admin/items/${id}`, { token, params: { id }, form: fields })).then(
    actionResult,
  );
}

async function createdId(token: string, fields: Record<string, string>) {
  const result = await save(token, "new", fields);
  expect(result.status).toBe(302);
  const id = Number(/\/admin\/items\/(\d+)\?done=saved$/.exec(String(result.data.location))?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

describe("Каталог", () => {
  it("is the admin's: support gets 403 on the list and on saving", async () => {
    const support = await createOperator(deps, "support");
    expect((await thrownStatus(itemsLoader(consoleArgs(deps, "/admin/items", { token: support.token })))).status).toBe(
      403,
    );
    const post = itemAction(
      consoleArgs(deps, "/admin/items/new", { token: support.token, params: { id: "new" }, form: form(1) }),
    );
    expect((await thrownStatus(post)).status).toBe(403);
  });

  it("sells an item «до вайпа» from a line of «Сроки», shows the line back and journals its price (decision 130)", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await createdId(
      admin.token,
      form(await category(), {
        durations: "до вайпа = 149\n7",
        grantCommands: "oxide.usergroup add {steamid} vip",
        revokeCommands: "oxide.usergroup remove {steamid} vip",
      }),
    );
    const shop = await api(`/shop/items/${id}`);
    expect(shop.json.item).toMatchObject({
      durations: [
        { days: 7, price: 70 },
        { days: 0, price: 149 },
      ],
    });
    const page = await itemLoader(
      consoleArgs(deps, `/admin/items/${id}?done=saved`, { token: admin.token, params: { id: String(id) } }),
    );
    expect(page.values).toMatchObject({ durations: "7\nдо вайпа = 149" });
    const [audit] = await auditRowsFor(deps, "item", id);
    expect(JSON.parse(audit?.after ?? "{}")).toMatchObject({ until_wipe_price: 14_900, durations: [[7, null]] });

    // Without revoke commands nothing would take it away at the wipe: refused, nothing saved.
    const refused = await save(admin.token, String(id), form(await category(), { durations: "до вайпа = 149" }));
    expect(refused).toMatchObject({
      status: 400,
      data: { error: "Для срока «до вайпа» нужны команды снятия: их выполнят при вайпе сервера" },
    });
    expect((await api(`/shop/items/${id}`)).json).toMatchObject({
      item: { durations: [{ days: 7 }, { days: 0, price: 149 }] },
    });
  });

  it("adds an item with durations and commands that the shop then sells, and journals it", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await createdId(admin.token, form(await category(), { durations: "7\n30 = 399,50" }));
    const shop = await api(`/shop/items/${id}`);
    expect(shop.status).toBe(200);
    expect(shop.json.item).toMatchObject({
      name: "Кит «Консоль»",
      price: 299,
      server_type: "MAX2",
      is_one_time: false,
      durations: [
        { days: 7, price: 70 },
        { days: 30, price: 399.5 },
      ],
    });
    const page = await itemLoader(
      consoleArgs(deps, `/admin/items/${id}?done=saved`, { token: admin.token, params: { id: String(id) } }),
    );
    expect(page.done).toBe("Товар сохранён");
    expect(page.values).toMatchObject({
      durations: "7\n30 = 399,5",
      grantCommands: "inventory.giveto {steamid} wood 1000",
    });
    const [audit] = await auditRowsFor(deps, "item", id);
    expect(audit?.action).toBe("item.create");
    expect(JSON.parse(audit?.after ?? "{}")).toMatchObject({
      name: "Кит «Консоль»",
      price: 29_900,
      durations: [
        [7, null],
        [30, 39_950],
      ],
    });
  });

  it("checks every field with Russian messages", async () => {
    const admin = await createOperator(deps, "admin");
    const categoryId = await category();
    const cases: [Record<string, string>, string][] = [
      [{ price: "дорого" }, "Цена — число рублей от 0, например 199 или 49,90"],
      [{ name: " " }, "Введите название (до 100 символов)"],
      [{ img: "javascript:alert(1)" }, "Картинка — адрес https://… или путь на сайте, начиная с /"],
      [{ isOneTime: "on", durations: "30" }, "У разового товара не бывает сроков"],
      [{ durations: "месяц" }, "Сроки — строки вида «7», «30 = 299» (дней = цена в рублях) или «до вайпа = 150»"],
      [{ startTime: "2026-12-01T10:00", endTime: "2026-11-01T10:00" }, "Окончание продажи должно быть позже начала"],
      [{ maxQuantity: "0" }, "Количество — целое число от 1"],
      [
        { grantCommands: "oxide.usergroup add {nickname} vip" },
        "{nickname} можно подставлять только в сообщение чата (команда say …)",
      ],
    ];
    for (const [fields, error] of cases) {
      expect(await save(admin.token, "new", form(categoryId, fields))).toMatchObject({
        status: 400,
        data: { ok: false, error },
      });
    }
    // The refusal gives back what was typed, so the page without JavaScript shows it in the form again.
    const refused = await save(
      admin.token,
      "new",
      form(categoryId, { durations: "7\nдо вайпа = 150", name: "Кит «Вайп»" }),
    );
    expect(refused.data).toMatchObject({
      ok: false,
      error: "Для срока «до вайпа» нужны команды снятия: их выполнят при вайпе сервера",
      typed: {
        name: "Кит «Вайп»",
        durations: "7\nдо вайпа = 150",
        grantCommands: "inventory.giveto {steamid} wood 1000",
        revokeCommands: "",
        isAvailable: true,
      },
    });
  });

  it("takes {nickname} in a chat message", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await createdId(
      admin.token,
      form(await category(), { grantCommands: "oxide.usergroup add {steamid} vip\nsay {nickname} купил VIP" }),
    );
    const page = await itemLoader(
      consoleArgs(deps, `/admin/items/${id}`, { token: admin.token, params: { id: String(id) } }),
    );
    expect(page.values).toMatchObject({ grantCommands: "oxide.usergroup add {steamid} vip\nsay {nickname} купил VIP" });
  });

  it("changes a price without touching past purchases, and refuses a stock below what was sold", async () => {
    const admin = await createOperator(deps, "admin");
    const categoryId = await category();
    const id = await createdId(
      admin.token,
      form(categoryId, { serverType: "SOLO", isOneTime: "on", maxQuantity: "5" }),
    );
    const player = await createPlayer({ deps: deps, balance: 100_000 });
    expect((await api(`/purchase/items/${id}`, { token: player.token, body: { server_type: "SOLO" } })).status).toBe(
      201,
    );

    await save(
      admin.token,
      String(id),
      form(categoryId, { serverType: "SOLO", isOneTime: "on", maxQuantity: "5", price: "500" }),
    );
    expect((await api(`/purchase/items/${id}`, { token: player.token, body: { server_type: "SOLO" } })).status).toBe(
      201,
    );
    const prices = await deps.db.orm
      .select({ price: purchases.price })
      .from(purchases)
      .where(eq(purchases.userId, player.id))
      .orderBy(purchases.id);
    expect(prices.map((row) => row.price)).toEqual([29_900, 50_000]);

    const below = await save(
      admin.token,
      String(id),
      form(categoryId, { serverType: "SOLO", isOneTime: "on", maxQuantity: "1" }),
    );
    // Refused, with the stock typed given back to correct.
    expect(below).toMatchObject({
      status: 409,
      data: { ok: false, error: "Количество не может быть меньше уже проданного", typed: { maxQuantity: "1" } },
    });
    const list = await itemsLoader(consoleArgs(deps, "/admin/items?type=SOLO", { token: admin.token }));
    expect(list.items.find((item) => item.id === id)).toMatchObject({ soldQuantity: 2, maxQuantity: 5, price: 50_000 });
  });

  it("hides an item from sale and shows it again", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await createdId(admin.token, form(await category(), { serverType: "SOLO", isOneTime: "on" }));
    const hide = await itemsAction(
      consoleArgs(deps, "/admin/items", { token: admin.token, form: { itemId: id, visible: "0" } }),
    );
    expect(actionResult(hide)).toEqual({ status: 302, data: { location: "/admin/items?done=hidden" } });
    const player = await createPlayer({ deps: deps, balance: 100_000 });
    const refused = await api(`/purchase/items/${id}`, { token: player.token, body: { server_type: "SOLO" } });
    expect(refused).toMatchObject({ status: 410, json: { error: "Товар недоступен" } });
    await itemsAction(consoleArgs(deps, "/admin/items", { token: admin.token, form: { itemId: id, visible: "1" } }));
    expect((await api(`/purchase/items/${id}`, { token: player.token, body: { server_type: "SOLO" } })).status).toBe(
      201,
    );
    const audit = await auditRowsFor(deps, "item", id);
    expect(audit.map((row) => row.action)).toEqual(["item.create", "item.hide", "item.show"]);
  });
});
