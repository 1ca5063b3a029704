import { describe, expect, it } from "vitest";
import { auditRowsFor, consoleArgs, createOperator, thrownStatus } from "#tests/support/admin-fixtures.ts";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import { catalogSnapshot } from "#worker/services/shop/catalog-snapshot.ts";
import { catalogVersionAt } from "#worker/services/shop/catalog-version.ts";
import { purchaseItem } from "#worker/services/shop/purchase.ts";
import { action, loader } from "../app/routes/admin.sales.tsx";
import { expectBalancesMatchLedger } from "./support/money.ts";
import { createPlayer } from "./support/players.ts";
import { createCategory, createItem } from "./support/shop-fixtures.ts";
import { firstRow } from "./support/sql.ts";

// Sales in the console and in the price (issue 23, decision 113). Every sale here is scoped to a
// category of its own test: the database is shared with the other test files, whose prices it must not move.

const HOUR = 60 * 60 * 1000;
const NOW = Date.parse("2026-11-22T12:00:00Z");
/** datetime-local in Moscow time, as the form sends it. */
const msk = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 16);

function world() {
  const clock = testClock(NOW);
  return { clock, deps: testDeps({ now: clock.now }) };
}

async function createSaleThroughForm(
  deps: ReturnType<typeof testDeps>,
  token: string,
  fields: { title?: string; percent: string; from: number; to: number; categoryIds?: number[]; serverTypes?: string[] },
) {
  const form: [string, string][] = [
    ["intent", "create"],
    ["title", fields.title ?? "Чёрная пятница"],
    ["percent", fields.percent],
    ["startsAt", msk(fields.from)],
    ["endsAt", msk(fields.to)],
    ...(fields.categoryIds ?? []).map((id): [string, string] => ["categoryIds", String(id)]),
    ...(fields.serverTypes ?? []).map((type): [string, string] => ["serverTypes", type]),
  ];
  return action(consoleArgs(deps, "/admin/sales", { token, form }));
}

async function buyFor(deps: ReturnType<typeof testDeps>, userId: number, itemId: number, expected?: number) {
  return purchaseItem(deps, userId, {
    itemId,
    serverType: "SOLO",
    durationDays: null,
    idempotencyKey: crypto.randomUUID(),
    expectedPrice: expected ?? null,
  });
}

describe("sales", () => {
  it("an admin's sale prices the items it covers, struck through on the card, and the purchase charges it", async () => {
    const { deps } = world();
    const admin = await createOperator(deps, "admin");
    const categoryId = await createCategory("Распродажная категория");
    const covered = await createItem({ categoryId, price: 20_000, serverType: "SOLO" });
    const otherType = await createItem({ categoryId, price: 20_000, serverType: "MAX2" });
    const otherCategory = await createItem({ price: 20_000, serverType: "SOLO" });

    const created = await createSaleThroughForm(deps, admin.token, {
      percent: "25",
      from: NOW - HOUR,
      to: NOW + HOUR,
      categoryIds: [categoryId],
      serverTypes: ["SOLO"],
    });
    expect(created).toBeInstanceOf(Response);
    expect((created as Response).status).toBe(303);
    const page = await loader(
      consoleArgs(deps, (created as Response).headers.get("Location") ?? "", { token: admin.token }),
    );
    expect(page.notice).toEqual({ ok: true, message: "Распродажа создана" });
    const sale = page.sales.find((row) => row.categoryIds?.includes(categoryId));
    expect(sale).toMatchObject({ title: "Чёрная пятница", percent: 25, serverTypes: ["SOLO"], cancelledAt: null });
    const journal = await auditRowsFor(deps, "sale", sale?.id ?? 0);
    expect(journal).toMatchObject([{ action: "sale.create", operator_steam_id: admin.steamId }]);

    expect(await getItem(deps, covered)).toMatchObject({
      price: 200,
      discount: 25,
      discount_price: 150,
      sale: { title: "Чёрная пятница", percent: 25, ends_at: new Date(NOW + HOUR).toISOString() },
    });
    expect(await getItem(deps, otherType)).toMatchObject({ discount: 0, discount_price: 200, sale: null });
    expect(await getItem(deps, otherCategory)).toMatchObject({ discount: 0, discount_price: 200, sale: null });

    const player = await createPlayer({ deps, balance: 100_000 });
    const bought = await buyFor(deps, player.id, covered, 15_000);
    expect(bought).toMatchObject({ ok: true, purchase: { price: 150 } });
    expect(
      await firstRow(
        "SELECT price, sale_id FROM purchases WHERE transaction_id = ?",
        bought.ok ? bought.purchase.transaction_id : "",
      ),
    ).toEqual({ price: 15_000, sale_id: sale?.id });
    await expectBalancesMatchLedger([player.id]);
  });

  it("a sale and the item's own discount never add up: the lower price wins, and only a winning sale is recorded", async () => {
    const { deps } = world();
    const admin = await createOperator(deps, "admin");
    const categoryId = await createCategory("Скидка и распродажа");
    const ownLarger = await createItem({ categoryId, price: 10_000, discount: 30 });
    const saleLarger = await createItem({ categoryId, price: 10_000, discount: 10 });
    await createSaleThroughForm(deps, admin.token, {
      percent: "20",
      from: NOW - HOUR,
      to: NOW + HOUR,
      categoryIds: [categoryId],
    });
    expect(await getItem(deps, ownLarger)).toMatchObject({ discount: 30, discount_price: 70, sale: null });
    expect(await getItem(deps, saleLarger)).toMatchObject({ discount: 20, discount_price: 80, sale: { percent: 20 } });
    const player = await createPlayer({ deps, balance: 100_000 });
    const own = await buyFor(deps, player.id, ownLarger, 7_000);
    const onSale = await buyFor(deps, player.id, saleLarger, 8_000);
    expect([own.ok, onSale.ok]).toEqual([true, true]);
    const rows = await Promise.all(
      [own, onSale].map((result) =>
        firstRow<{ price: number; sale_id: number | null }>(
          "SELECT price, sale_id FROM purchases WHERE transaction_id = ?",
          result.ok ? result.purchase.transaction_id : "",
        ),
      ),
    );
    expect(rows[0]).toEqual({ price: 7_000, sale_id: null });
    expect(rows[1]?.price).toBe(8_000);
    expect(rows[1]?.sale_id).not.toBeNull();
  });

  it("a sale prices nothing before it starts, after it ends or once ended early; the page's version moves at each boundary", async () => {
    const { clock, deps } = world();
    const admin = await createOperator(deps, "admin");
    const categoryId = await createCategory("Будущая распродажа");
    const itemId = await createItem({ categoryId, price: 10_000 });
    await createSaleThroughForm(deps, admin.token, {
      percent: "50",
      from: NOW + HOUR,
      to: NOW + 2 * HOUR,
      categoryIds: [categoryId],
    });
    const versionBefore = catalogVersionAt(await catalogSnapshot(deps), clock.now().getTime());
    expect(await getItem(deps, itemId)).toMatchObject({ discount_price: 100, sale: null });
    expect(versionBefore.changesAt).not.toBeNull();

    clock.set(NOW + HOUR);
    expect(await getItem(deps, itemId)).toMatchObject({ discount_price: 50, sale: { percent: 50 } });
    expect(catalogVersionAt(await catalogSnapshot(deps), clock.now().getTime()).version).not.toBe(
      versionBefore.version,
    );

    clock.set(NOW + 2 * HOUR);
    expect(await getItem(deps, itemId)).toMatchObject({ discount_price: 100, sale: null });
    const player = await createPlayer({ deps, balance: 100_000 });
    expect(await buyFor(deps, player.id, itemId, 5_000)).toMatchObject({
      ok: false,
      status: 409,
      error: "Цена изменилась: теперь 100\u00a0₽",
    });

    // A running sale ended early by an admin: journaled, no longer priced, not offered again.
    clock.set(NOW);
    await createSaleThroughForm(deps, admin.token, {
      percent: "30",
      from: NOW - HOUR,
      to: NOW + HOUR,
      categoryIds: [categoryId],
    });
    expect(await getItem(deps, itemId)).toMatchObject({ discount_price: 70 });
    const running = (await loader(consoleArgs(deps, "/admin/sales", { token: admin.token }))).sales.find(
      (sale) => sale.percent === 30 && sale.categoryIds?.includes(categoryId),
    );
    const ended = await action(
      consoleArgs(deps, "/admin/sales", { token: admin.token, form: { intent: "end", id: String(running?.id) } }),
    );
    expect((ended as Response).headers.get("Location")).toBe("/admin/sales?done=ended");
    expect(await getItem(deps, itemId)).toMatchObject({ discount_price: 100, sale: null });
    expect(await buyFor(deps, player.id, itemId, 10_000)).toMatchObject({ ok: true, purchase: { price: 100 } });
    const again = await action(
      consoleArgs(deps, "/admin/sales", { token: admin.token, form: { intent: "end", id: String(running?.id) } }),
    );
    expect(again).toMatchObject({ data: { ok: false, error: "Эта распродажа уже завершена" }, init: { status: 409 } });
    expect((await auditRowsFor(deps, "sale", running?.id ?? 0)).map((row) => row.action)).toEqual([
      "sale.create",
      "sale.end",
    ]);
  });

  it("refuses a bad form with the reason, and support altogether", async () => {
    const { deps } = world();
    const admin = await createOperator(deps, "admin");
    const categoryId = await createCategory("Проверка формы");
    const cases: [Parameters<typeof createSaleThroughForm>[2], string][] = [
      [{ percent: "0", from: NOW, to: NOW + HOUR }, "Скидка — целое число процентов от 1 до 90"],
      [{ percent: "91", from: NOW, to: NOW + HOUR }, "Скидка — целое число процентов от 1 до 90"],
      [{ percent: "десять", from: NOW, to: NOW + HOUR }, "Скидка — целое число процентов от 1 до 90"],
      [{ percent: "10", from: NOW, to: NOW - HOUR }, "Укажите окончание позже начала"],
      [{ title: "  ", percent: "10", from: NOW, to: NOW + HOUR }, "Укажите название от 1 до 60 символов"],
      [
        { percent: "10", from: NOW, to: NOW + HOUR, categoryIds: [categoryId, 999_999_999] },
        "Такой категории или типа сервера нет",
      ],
      [{ percent: "10", from: NOW, to: NOW + HOUR, serverTypes: ["PVE"] }, "Такой категории или типа сервера нет"],
    ];
    const before = (await loader(consoleArgs(deps, "/admin/sales", { token: admin.token }))).sales.length;
    for (const [fields, error] of cases) {
      expect(await createSaleThroughForm(deps, admin.token, fields)).toMatchObject({
        data: { ok: false, error },
        init: { status: 400 },
      });
    }
    expect((await loader(consoleArgs(deps, "/admin/sales", { token: admin.token }))).sales.length).toBe(before);
    const support = await createOperator(deps, "support");
    expect((await thrownStatus(loader(consoleArgs(deps, "/admin/sales", { token: support.token })))).status).toBe(403);
    expect(
      (await thrownStatus(createSaleThroughForm(deps, support.token, { percent: "10", from: NOW, to: NOW + HOUR })))
        .status,
    ).toBe(403);
  });
});
