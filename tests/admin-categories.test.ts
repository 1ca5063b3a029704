import { type ComponentType, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
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
import { routeArgs } from "#tests/support/routes.ts";
import { createItem } from "#tests/support/shop-fixtures.ts";
import { firstRow, rows } from "#tests/support/sql.ts";
import { unique } from "#tests/support/unique.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import type { Route as ShopRoute } from "../app/routes/+types/shop";
import AdminCategories, { action, loader } from "../app/routes/admin.categories.tsx";
import AdminItem, { loader as itemLoader } from "../app/routes/admin.item.tsx";
import { loader as itemsLoader } from "../app/routes/admin.items.tsx";
import { loader as shopLoader } from "../app/routes/shop.tsx";

// Categories in the operator console (issue 34, decision 119): a fresh shop has none, and an item
// needs one. The database is shared with other test files: every name here is unique, and each test
// looks only at its own categories.

const deps = testDeps();

type Fields = Record<string, string | number>;

function post(token: string, form: Fields) {
  return action(consoleArgs(deps, "/admin/categories", { token, form })).then(actionResult);
}

async function page(token: string, search = "") {
  return loader(consoleArgs(deps, `/admin/categories${search}`, { token }));
}

/** Creates a category through the form; its id, read back from the console's list. */
async function created(token: string, name: string, description = "") {
  const result = await post(token, { intent: "create", name, description });
  expect(result).toEqual({ status: 303, data: { location: "/admin/categories?done=created" } });
  const row = (await page(token)).categories.find((category) => category.name === name);
  if (!row) throw new Error(`${name} is not listed`);
  return row.id;
}

const revision = async () =>
  (await firstRow<{ revision: number }>("SELECT revision FROM catalog_revision WHERE id = 1"))?.revision ?? 0;

async function shopCategories(): Promise<{ id: number; name: string; description: string }[]> {
  const response = await api("/shop/categories");
  expect(response.status).toBe(200);
  return (response.json as unknown as { categories: { id: number; name: string; description: string }[] }).categories;
}

/** A page component as it prints, reduced to its visible text (and its links' addresses). */
function render(component: unknown, path: string, loaderData: unknown): string {
  const element = createElement(component as ComponentType<Record<string, unknown>>, {
    loaderData,
    actionData: undefined,
    params: {},
    matches: [],
  });
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  return renderToStaticMarkup(createElement(RouterProvider, { router }))
    .replace(/<a [^>]*href="([^"]*)"[^>]*>/g, " [$1] ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("Категории: who may", () => {
  it("is the admin's: support gets 403 on the page and on every change, a player the 404", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await created(admin.token, unique("Чужая "));
    const support = await createOperator(deps, "support");
    expect((await thrownStatus(page(support.token))).status).toBe(403);
    const forms: Fields[] = [
      { intent: "create", name: unique("Поддержка ") },
      { intent: "rename", id, name: unique("Поддержка ") },
      { intent: "move", id, direction: "up" },
      { intent: "visibility", id, hidden: "1" },
      { intent: "delete", id },
    ];
    for (const form of forms) {
      expect(
        (await thrownStatus(action(consoleArgs(deps, "/admin/categories", { token: support.token, form })))).status,
      ).toBe(403);
    }
    const player = await createPlayer({ deps });
    expect((await thrownStatus(page(player.token))).status).toBe(404);
    expect((await thrownStatus(page(""))).status).toBe(404);
    // Nothing the refused posts asked for happened.
    expect(await auditRowsFor(deps, "category", id)).toMatchObject([{ action: "category.create" }]);
    expect((await page(admin.token)).categories.find((category) => category.id === id)).toMatchObject({
      hidden: false,
    });
  });
});

describe("Категории: changes", () => {
  it("adds a category at the end, journaled, that the shop then lists", async () => {
    const admin = await createOperator(deps, "admin");
    const before = await revision();
    const name = unique("Привилегии ");
    const id = await created(admin.token, name, "Ранги на месяц");
    const listed = await page(admin.token, "?done=created");
    expect(listed.done).toBe("Категория добавлена");
    expect(listed.categories.at(-1)).toEqual({
      id,
      name,
      description: "Ранги на месяц",
      hidden: false,
      itemCount: 0,
      listedCount: 0,
    });
    expect(await revision()).toBeGreaterThan(before);
    expect(await shopCategories()).toContainEqual({ id, name, description: "Ранги на месяц" });
    const journal = await auditRowsFor(deps, "category", id);
    expect(journal).toMatchObject([
      { action: "category.create", operator_steam_id: admin.steamId, operator_role: "admin", before: null },
    ]);
    expect(JSON.parse(journal[0]?.after ?? "{}")).toEqual({ name, description: "Ранги на месяц", hidden: false });
  });

  it("refuses a bad name or description and a name already taken, in Russian, and adds nothing", async () => {
    const admin = await createOperator(deps, "admin");
    const name = unique("Ресурсы ");
    await created(admin.token, name);
    const count = async () => (await rows("SELECT id FROM categories")).length;
    const total = await count();
    const cases: [Fields, number, string][] = [
      [{ name: "   " }, 400, "Название категории — от 1 до 60 символов"],
      [{ name: "К".repeat(61) }, 400, "Название категории — от 1 до 60 символов"],
      [{ name: unique("Длинная "), description: "о".repeat(301) }, 400, "Описание — не длиннее 300 символов"],
      [{ name }, 409, "Категория с таким названием уже есть"],
      [{ name: ` ${name} ` }, 409, "Категория с таким названием уже есть"],
    ];
    for (const [fields, status, error] of cases) {
      expect(await post(admin.token, { intent: "create", ...fields })).toEqual({ status, data: { ok: false, error } });
    }
    expect(await post(admin.token, { intent: "fly", name: unique("Х") })).toMatchObject({ status: 400 });
    expect(await count()).toBe(total);
  });

  it("renames a category and its items show the new name; the journal keeps before and after", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await created(admin.token, unique("Оружие "), "Старое описание");
    const itemId = await createItem({ categoryId: id, serverType: "MAX3" });
    const name = unique("Орудия ");
    expect(await post(admin.token, { intent: "rename", id, name, description: "Новое описание" })).toEqual({
      status: 303,
      data: { location: "/admin/categories?done=renamed" },
    });
    expect((await page(admin.token, "?done=renamed")).done).toBe("Категория сохранена");
    const item = await api(`/shop/items/${itemId}`);
    expect(item.json).toMatchObject({ item: { category_id: id, category_name: name } });
    const [, renamed] = await auditRowsFor(deps, "category", id);
    expect(renamed?.action).toBe("category.rename");
    expect(JSON.parse(renamed?.before ?? "{}")).toMatchObject({ description: "Старое описание" });
    expect(JSON.parse(renamed?.after ?? "{}")).toEqual({ name, description: "Новое описание" });

    // Another category's name is refused; the same name and description again journals nothing.
    const other = await created(admin.token, unique("Занято "));
    const taken = (await page(admin.token)).categories.find((category) => category.id === other)?.name ?? "";
    expect(await post(admin.token, { intent: "rename", id, name: taken })).toEqual({
      status: 409,
      data: { ok: false, error: "Категория с таким названием уже есть" },
    });
    expect(await post(admin.token, { intent: "rename", id, name, description: "Новое описание" })).toMatchObject({
      status: 303,
    });
    expect(await auditRowsFor(deps, "category", id)).toHaveLength(2);
    expect(await post(admin.token, { intent: "rename", id: 999_999_999, name: unique("Нет ") })).toEqual({
      status: 404,
      data: { ok: false, error: "Категория не найдена" },
    });
  });

  it("moves a category up and down: the shop lists categories and items in that order", async () => {
    const admin = await createOperator(deps, "admin");
    const a = await created(admin.token, unique("Первая "));
    const b = await created(admin.token, unique("Вторая "));
    const c = await created(admin.token, unique("Третья "));
    const inA = await createItem({ categoryId: a, serverType: "MAX3", name: unique("Товар А ") });
    const inC = await createItem({ categoryId: c, serverType: "MAX3", name: unique("Товар В ") });
    const order = async () =>
      (await page(admin.token)).categories.map((category) => category.id).filter((id) => [a, b, c].includes(id));
    const shopOrder = async () =>
      (await shopCategories()).map((category) => category.id).filter((id) => [a, b, c].includes(id));
    expect(await order()).toEqual([a, b, c]);

    expect(await post(admin.token, { intent: "move", id: c, direction: "up" })).toEqual({
      status: 303,
      data: { location: "/admin/categories?done=moved" },
    });
    expect(await post(admin.token, { intent: "move", id: c, direction: "up" })).toMatchObject({ status: 303 });
    expect(await order()).toEqual([c, a, b]);
    expect(await post(admin.token, { intent: "move", id: a, direction: "down" })).toMatchObject({ status: 303 });
    expect(await order()).toEqual([c, b, a]);
    expect(await shopOrder()).toEqual([c, b, a]);
    // The shop's items follow their categories' order.
    const listed = await api("/shop/items?server_type=MAX3");
    const ids = (listed.json as unknown as { items: { id: number }[] }).items.map((item) => item.id);
    expect(ids.indexOf(inC)).toBeLessThan(ids.indexOf(inA));

    // Two moves of c, each one place up: the journal keeps the places (1 is the top).
    const moves = (await auditRowsFor(deps, "category", c))
      .filter((row) => row.action === "category.move")
      .map((row) => [JSON.parse(row.before ?? "{}").position, JSON.parse(row.after ?? "{}").position]);
    const start = moves[0]?.[0] as number;
    expect(moves).toEqual([
      [start, start - 1],
      [start - 1, start - 2],
    ]);

    // The first category can't go higher.
    const top = (await page(admin.token)).categories[0];
    expect(await post(admin.token, { intent: "move", id: top?.id ?? 0, direction: "up" })).toEqual({
      status: 409,
      data: { ok: false, error: "Категория уже на краю списка: двигать некуда" },
    });
    expect(await post(admin.token, { intent: "move", id: a, direction: "sideways" })).toMatchObject({ status: 404 });
  });

  it("hides a category: it and its items leave the shop and can't be bought, until shown again", async () => {
    const admin = await createOperator(deps, "admin");
    const name = unique("Скрываемая ");
    const id = await created(admin.token, name);
    const itemId = await createItem({
      categoryId: id,
      serverType: "MAX3",
      name: unique("Скрытый товар "),
      price: 5_000,
    });
    const searchWord = (await api(`/shop/items/${itemId}`)).json as unknown as { item: { name: string } };
    expect(await shopCategories()).toContainEqual(expect.objectContaining({ id }));
    const before = await revision();

    expect(await post(admin.token, { intent: "visibility", id, hidden: "1" })).toEqual({
      status: 303,
      data: { location: "/admin/categories?done=hidden" },
    });
    expect((await page(admin.token, "?done=hidden")).done).toBe("Категория скрыта: её и её товаров нет в магазине");
    expect(await revision()).toBeGreaterThan(before);
    expect((await shopCategories()).map((category) => category.id)).not.toContain(id);
    expect((await api(`/shop/items?server_type=MAX3&category_id=${id}`)).json).toMatchObject({ items: [] });
    expect((await api(`/shop/items/${itemId}`)).status).toBe(404);
    const search = await api(`/shop/search?query=${encodeURIComponent(searchWord.item.name)}&server_type=MAX3`);
    expect((search.json as unknown as { items: { id: number }[] }).items.map((item) => item.id)).not.toContain(itemId);
    const shop = await shopLoader(
      routeArgs<ShopRoute.LoaderArgs>(deps, `http://localhost/shop?server_type=MAX3&category_id=${id}`),
    );
    expect(shop.categories.map((category) => category.id)).not.toContain(id);
    expect(shop.items.map((item) => item.id)).not.toContain(itemId);

    // Not bought by a direct request either; nothing charged.
    const buyer = await createPlayer({ deps, balance: 100_000 });
    const refused = await purchaseItem(deps, buyer.id, {
      itemId,
      serverType: "MAX3",
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
      expectedPrice: null,
    });
    expect(refused).toMatchObject({ ok: false, status: 410 });
    expect(await firstRow("SELECT balance FROM users WHERE id = ?", buyer.id)).toEqual({ balance: 100_000 });

    // The console still has it, marked; the item list marks the item's category.
    expect((await page(admin.token)).categories.find((category) => category.id === id)).toMatchObject({
      hidden: true,
      itemCount: 1,
    });
    const items = await itemsLoader(consoleArgs(deps, "/admin/items?type=MAX3", { token: admin.token }));
    expect(items.items.find((item) => item.id === itemId)).toMatchObject({ categoryName: name, categoryHidden: true });
    expect(await post(admin.token, { intent: "visibility", id, hidden: "1" })).toEqual({
      status: 409,
      data: { ok: false, error: "Ничего не изменилось: состояние уже такое" },
    });

    expect(await post(admin.token, { intent: "visibility", id, hidden: "0" })).toMatchObject({
      status: 303,
      data: { location: "/admin/categories?done=shown" },
    });
    expect(await shopCategories()).toContainEqual(expect.objectContaining({ id, name }));
    expect((await api(`/shop/items/${itemId}`)).status).toBe(200);
    const bought = await purchaseItem(deps, buyer.id, {
      itemId,
      serverType: "MAX3",
      durationDays: null,
      idempotencyKey: crypto.randomUUID(),
      expectedPrice: 5_000,
    });
    expect(bought).toMatchObject({ ok: true });
    expect((await auditRowsFor(deps, "category", id)).map((row) => [row.action, row.before, row.after])).toEqual([
      ["category.create", null, expect.any(String)],
      ["category.hide", '{"hidden":false}', '{"hidden":true}'],
      ["category.show", '{"hidden":true}', '{"hidden":false}'],
    ]);
  });

  it("deletes an empty category, journaled; refuses one with items, saying how many and what to do", async () => {
    const admin = await createOperator(deps, "admin");
    const name = unique("Пустая ");
    const empty = await created(admin.token, name, "Ненужная");
    expect(await post(admin.token, { intent: "delete", id: empty })).toEqual({
      status: 303,
      data: { location: "/admin/categories?done=deleted" },
    });
    expect((await page(admin.token, "?done=deleted")).done).toBe("Категория удалена");
    expect(await firstRow("SELECT id FROM categories WHERE id = ?", empty)).toBeNull();
    expect((await shopCategories()).map((category) => category.id)).not.toContain(empty);
    const journal = await auditRowsFor(deps, "category", empty);
    expect(journal.map((row) => row.action)).toEqual(["category.create", "category.delete"]);
    expect(JSON.parse(journal[1]?.before ?? "{}")).toEqual({ name, description: "Ненужная", hidden: 0 });
    expect(journal[1]?.after).toBeNull();

    const full = await created(admin.token, unique("Полная "));
    await createItem({ categoryId: full, serverType: "MAX3" });
    await createItem({ categoryId: full, serverType: "MAX3", isAvailable: false });
    await createItem({ categoryId: full, serverType: "SOLO" });
    expect(await post(admin.token, { intent: "delete", id: full })).toEqual({
      status: 409,
      data: {
        ok: false,
        error:
          "В категории 3 товара: перенесите их в другую категорию (в карточке товара), потом удалите категорию. Или скройте её — она пропадёт из магазина вместе с товарами.",
      },
    });
    expect(await firstRow("SELECT id FROM categories WHERE id = ?", full)).toEqual({ id: full });
    expect((await auditRowsFor(deps, "category", full)).map((row) => row.action)).toEqual(["category.create"]);
    expect((await page(admin.token)).categories.find((category) => category.id === full)).toMatchObject({
      itemCount: 3,
      listedCount: 2,
    });
    expect(await post(admin.token, { intent: "delete", id: empty })).toEqual({
      status: 404,
      data: { ok: false, error: "Категория не найдена" },
    });
  });
});

describe("Категории: pages", () => {
  it("the journal names the actions in Russian", async () => {
    const admin = await createOperator(deps, "admin");
    const id = await created(admin.token, unique("Журнальная "));
    await post(admin.token, { intent: "visibility", id, hidden: "1" });
    const { loader: auditLoader } = await import("../app/routes/admin.audit.tsx");
    const journal = await auditLoader(consoleArgs(deps, "/admin/audit", { token: admin.token }));
    const mine = journal.rows.filter((row) => row.targetType === "category" && row.targetId === String(id));
    expect(mine.map((row) => row.actionLabel)).toEqual(["Категория скрыта", "Категория добавлена"]);
  });

  it("the item form offers every category, a hidden one marked; with none, it says so and links to «Категории»", async () => {
    const admin = await createOperator(deps, "admin");
    const shown = unique("Видимая ");
    const hidden = unique("Невидимая ");
    await created(admin.token, shown);
    const hiddenId = await created(admin.token, hidden);
    await post(admin.token, { intent: "visibility", id: hiddenId, hidden: "1" });
    const form = await itemLoader(consoleArgs(deps, "/admin/items/new", { token: admin.token, params: { id: "new" } }));
    const text = render(AdminItem, "/admin/items/new", form);
    expect(text).toContain(` ${shown} `);
    expect(text).toContain(` ${hidden} (скрыта) `);

    const none = render(AdminItem, "/admin/items/new", { ...form, categories: [] });
    expect(none).toContain(
      "Чтобы добавить товар, нужна хотя бы одна категория, а их пока нет. [/admin/categories] Создать категорию",
    );
    expect(none).not.toContain("Добавить товар");
  });

  it("the categories page lists each with its count and buttons; with none, says how to start", async () => {
    const category = { description: "", listedCount: 1, itemCount: 2 };
    const text = render(AdminCategories, "/admin/categories", {
      categories: [
        { ...category, id: 1, name: "Привилегии", hidden: false },
        { ...category, id: 2, name: "Наборы", hidden: true },
      ],
      done: null,
    });
    expect(text).toContain("Добавить категорию");
    expect(text).toContain("1 Сохранить 2 (показано 1) Ниже Скрыть Удалить");
    expect(text).toContain("2 Сохранить 2 (показано 1) Выше скрыта Показать Удалить");
    const empty = render(AdminCategories, "/admin/categories", { categories: [], done: null });
    expect(empty).toContain("Категорий пока нет. Добавьте первую — без неё нельзя добавить ни одного товара.");
  });
});
