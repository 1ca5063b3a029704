// The shop reads its catalog from memory, kept under the catalog's revision (decisions 102 and 116).
// What a player is shown must still be the catalog as it is now: every write to items, durations, kit
// contents or categories made here (the site's, a test's) is seen by the next read, and one made
// elsewhere (another isolate, SQL typed by hand) within CATALOG_TRUST_MS.
import { describe, expect, it } from "vitest";
import { testClock, testDeps } from "#tests/support/deps.ts";
import { routeArgs } from "#tests/support/routes.ts";
import { createCategory, createItem } from "#tests/support/shop-fixtures.ts";
import { firstRow, raw, runBatch } from "#tests/support/sql.ts";
import type { Database } from "#worker/ports/database.ts";
import { getItem, listCategories, shopPageCatalog } from "#worker/services/shop/catalog.ts";
import { CATALOG_TRUST_MS } from "#worker/services/shop/catalog-snapshot.ts";
import { readCatalogVersion } from "#worker/services/shop/catalog-version.ts";
import type { Route } from "../app/routes/+types/shop";
import { loader } from "../app/routes/shop.tsx";

const deps = testDeps();
const firstPage = { page: 1, perPage: 24 };

describe("the catalog the shop reads", () => {
  it("shows a new price, discount, duration price and kit content on the very next read", async () => {
    const id = await createItem({
      price: 10_000,
      durations: [[30, 20_000]],
      contents: [{ item: "Камень", img: "/a.png" }],
    });
    expect(await getItem(deps, id)).toMatchObject({ price: 100, durations: [{ days: 30, price: 200 }] });

    await runBatch([
      raw("UPDATE items SET price = 12000, discount = 50 WHERE id = ?", id),
      raw("UPDATE item_durations SET price = 30000 WHERE item_id = ?", id),
      raw("UPDATE item_contents SET item = 'Металл' WHERE item_id = ?", id),
    ]);
    expect(await getItem(deps, id)).toMatchObject({
      price: 120,
      discount_price: 60,
      durations: [{ days: 30, price: 300, discount_price: 150 }],
      contents: [{ item: "Металл", img: "/a.png" }],
    });
  });

  it("lists a new item, drops a hidden or deleted one, and renames a category, at once", async () => {
    const categoryId = await createCategory("Инструменты");
    const filter = { serverType: "MAX2", categoryId };
    const kept = await createItem({ categoryId, serverType: "MAX2", name: "Кирка" });
    expect((await shopPageCatalog(deps, filter, null, firstPage)).items.map((item) => item.name)).toEqual(["Кирка"]);

    const added = await createItem({ categoryId, serverType: "MAX2", name: "Топор" });
    await runBatch([raw("UPDATE categories SET name = 'Орудия' WHERE id = ?", categoryId)]);
    const after = await shopPageCatalog(deps, filter, null, firstPage);
    expect(after.items.map((item) => [item.name, item.category_name])).toEqual([
      ["Кирка", "Орудия"],
      ["Топор", "Орудия"],
    ]);
    expect((await listCategories(deps)).find((category) => category.id === categoryId)?.name).toBe("Орудия");

    await runBatch([
      raw("UPDATE items SET is_available = 0 WHERE id = ?", kept),
      raw("DELETE FROM items WHERE id = ?", added),
    ]);
    expect((await shopPageCatalog(deps, filter, null, firstPage)).total).toBe(0);
    expect(await getItem(deps, kept)).toBeNull();
  });

  it("finds Cyrillic text in any case, in names, descriptions, categories and kit contents", async () => {
    const categoryId = await createCategory("Оружие ближнего боя");
    const id = await createItem({
      categoryId,
      serverType: "MAX3",
      name: "Набор «Рейдер»",
      description: "Всё для НАЛЁТА",
      contents: [{ item: "Взрывчатка C4", img: "/c4.png" }],
    });
    for (const query of ["рейдер", "НАБОР", "налёта", "ближнего", "взрывчатка c4"]) {
      const found = await shopPageCatalog(deps, { serverType: "MAX3", categoryId }, query, firstPage);
      expect(
        found.items.map((item) => item.id),
        query,
      ).toEqual([id]);
    }
    expect((await shopPageCatalog(deps, { serverType: "MAX3", categoryId }, "вертолёт", firstPage)).total).toBe(0);
  });

  it("shows a limited offer's stock as sold, and its end from the moment it ends", async () => {
    const categoryId = await createCategory();
    const now = Date.now();
    const id = await createItem({ categoryId, serverType: "NO_LIMIT", maxQuantity: 3, endTime: now + 60_000 });
    const cardOf = async (at: number) =>
      (
        await shopPageCatalog(
          { ...deps, now: () => new Date(at) },
          { serverType: "NO_LIMIT", categoryId },
          null,
          firstPage,
        )
      ).items[0];
    expect(await cardOf(now)).toMatchObject({ sold_quantity: 0, is_available: true });
    await runBatch([raw("UPDATE items SET sold_quantity = 3 WHERE id = ?", id)]);
    expect(await cardOf(now)).toMatchObject({ sold_quantity: 3, is_available: false });
    await runBatch([raw("UPDATE items SET sold_quantity = 1 WHERE id = ?", id)]);
    expect(await cardOf(now + 59_999)).toMatchObject({ is_available: true });
    expect(await cardOf(now + 60_000)).toMatchObject({ is_available: false });
  });

  it("renders the shop page with the price set a moment ago here", async () => {
    const categoryId = await createCategory();
    const id = await createItem({ categoryId, serverType: "SOLO", price: 10_000 });
    const load = () =>
      loader(routeArgs<Route.LoaderArgs>(deps, `http://localhost/shop?server_type=SOLO&category_id=${categoryId}`));
    expect((await load()).items.find((item) => item.id === id)?.price).toBe(100);
    await runBatch([raw("UPDATE items SET price = 15000 WHERE id = ?", id)]);
    expect((await load()).items.find((item) => item.id === id)?.price).toBe(150);
  });
});

describe("the catalog's revision", () => {
  it("moves with every write to items, durations, kit contents and categories, and with nothing else", async () => {
    const id = await createItem({ durations: [[7, null]] });
    const categoryId = await createCategory();
    const versions = [(await readCatalogVersion(deps)).version];
    const changes = [
      raw("INSERT INTO item_contents (item_id, item, img) VALUES (?, 'Дерево', '/w.png')", id),
      raw("DELETE FROM item_contents WHERE item_id = ?", id),
      raw("INSERT INTO item_durations (item_id, days, price) VALUES (?, 14, NULL)", id),
      raw("DELETE FROM item_durations WHERE item_id = ? AND days = 7", id),
      raw("UPDATE categories SET sort_order = 5 WHERE id = ?", categoryId),
      raw("UPDATE items SET name = 'Переименован' WHERE id = ?", id),
    ];
    for (const change of changes) {
      await runBatch([change]);
      versions.push((await readCatalogVersion(deps)).version);
    }
    expect(new Set(versions).size).toBe(versions.length);

    // A purchase of an item without stock writes no catalog row: the shop's reads stay where they are.
    const before = (await readCatalogVersion(deps)).version;
    await runBatch([
      raw("UPDATE items SET sold_quantity = sold_quantity + 1 WHERE id = ? AND max_quantity IS NOT NULL", id),
    ]);
    expect((await readCatalogVersion(deps)).version).toBe(before);
  });
});

/**
 * Another process's or isolate's view: a port of its own over the test's database, with its own clock,
 * counting the statements run on their own (the revision check is one).
 */
function countingDeps() {
  const base = testDeps();
  const clock = testClock(Date.now());
  const counted = { singleRuns: 0 };
  const db: Database = {
    orm: base.db.orm,
    batch: (statements) => base.db.batch(statements),
    read: (reads) => base.db.read(reads),
    run: (statement) => {
      counted.singleRuns++;
      return base.db.run(statement);
    },
  };
  return { deps: { ...base, db, now: clock.now }, clock, counted };
}

describe("the catalog kept in memory (decision 116)", () => {
  it("spares a page the revision's read for CATALOG_TRUST_MS, then shows a write made elsewhere", async () => {
    const id = await createItem({ price: 10_000 });
    const { deps: kept, clock, counted } = countingDeps();
    expect(await getItem(kept, id)).toMatchObject({ price: 100 });
    const reads = counted.singleRuns;
    clock.advance(CATALOG_TRUST_MS - 1);
    expect(await getItem(kept, id)).toMatchObject({ price: 100 });
    expect(counted.singleRuns).toBe(reads);

    // SQL typed by hand, or another isolate's write: past this process's port, so it tells nobody here.
    await testDeps().db.batch([raw("UPDATE items SET price = 20000 WHERE id = ?", id)]);
    clock.advance(1);
    expect(await getItem(kept, id)).toMatchObject({ price: 200 });
    expect(counted.singleRuns).toBe(reads + 1);
  });

  it("shows a write made here on the very next read, trusted or not", async () => {
    const id = await createItem({ price: 10_000 });
    const { deps: kept } = countingDeps();
    expect(await getItem(kept, id)).toMatchObject({ price: 100 });
    await runBatch([raw("UPDATE items SET price = 30000 WHERE id = ?", id)]);
    expect(await getItem(kept, id)).toMatchObject({ price: 300 });
  });
});

describe("the catalog after the database is put back (decision 153)", () => {
  it("serves the restored database's catalog to a process that held a newer one, after as many edits as it had seen", async () => {
    const id = await createItem({ price: 10_000, name: "Кирка" });
    const revision = async () =>
      (await firstRow<{ revision: number }>("SELECT revision FROM catalog_revision WHERE id = 1"))?.revision ?? 0;
    // The backup: the item at 100 ₽ and the revision it was read under.
    const backedUp = await revision();
    // SQL typed by hand (past every port here): the two edits made before the restore.
    const elsewhere = testDeps().db;
    const edits = [
      raw("UPDATE items SET price = 20000 WHERE id = ?", id),
      raw("UPDATE items SET name = 'Топор' WHERE id = ?", id),
    ];
    for (const edit of edits) await elsewhere.batch([edit]);
    const { deps: isolate, clock } = countingDeps();
    expect(await getItem(isolate, id)).toMatchObject({ price: 200, name: "Топор" });

    // The restore puts the rows and the revision back as they were at the backup, behind the isolate's back.
    await elsewhere.batch([
      raw("UPDATE items SET price = 10000, name = 'Кирка' WHERE id = ?", id),
      raw("UPDATE catalog_revision SET revision = ? WHERE id = 1", backedUp),
    ]);
    // As many edits after it as before: a counter moved by one would land on the revision the isolate holds.
    await elsewhere.batch([raw("UPDATE items SET price = 30000 WHERE id = ?", id)]);
    await elsewhere.batch([raw("UPDATE items SET description = 'После восстановления' WHERE id = ?", id)]);

    clock.advance(CATALOG_TRUST_MS);
    expect(await getItem(isolate, id)).toMatchObject({ price: 300, name: "Кирка" });
  });
});
