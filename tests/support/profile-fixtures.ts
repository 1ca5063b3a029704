// Rows the profile, history and promo tests need, each with fresh unique ids
// (D1 is shared by every test file in a run).
import { SELF } from "cloudflare:test";
import { categories, inventoryEntries, items, payments, promoCodes, purchases } from "#db/schema.ts";
import type { Deps } from "#worker/deps.ts";
import { batchChangingCatalog } from "#worker/services/shop/catalog-snapshot.ts";
import { ensureServerStatement } from "./shop-fixtures.ts";
import { bearer, sessionCookie } from "./sign-in.ts";
import { unique } from "./unique.ts";

/** An item on sale, with a game server of its type (added when there is none: decision 122). */
export async function createItem(deps: Deps, { name = "Тестовый кит", serverType = "SOLO" } = {}) {
  await batchChangingCatalog(deps.db, [ensureServerStatement(serverType)]);
  const [category] = await deps.db.orm
    .insert(categories)
    .values({ name: unique("Категория ") })
    .returning();
  if (!category) throw new Error("no category");
  const [item] = await deps.db.orm
    .insert(items)
    .values({ name, price: 15000, img: "/images/items/test.png", serverType, categoryId: category.id })
    .returning();
  if (!item) throw new Error("no item");
  return item;
}

export async function createPromo(
  deps: Deps,
  promo: Partial<typeof promoCodes.$inferInsert> & { type: "BALANCE" | "ITEM" },
) {
  const [row] = await deps.db.orm
    .insert(promoCodes)
    .values({ code: unique("T").toUpperCase().slice(0, 32), maxUses: 100, ...promo })
    .returning();
  if (!row) throw new Error("no promo");
  return row;
}

export async function createPurchase(
  deps: Deps,
  userId: number,
  itemId: number,
  values: Partial<typeof purchases.$inferInsert> = {},
) {
  const [row] = await deps.db.orm
    .insert(purchases)
    .values({
      userId,
      itemId,
      transactionId: unique("tx-"),
      idempotencyKey: unique("key-"),
      serverType: "SOLO",
      durationDays: 30,
      price: 15000,
      status: "completed",
      ...values,
    })
    .returning();
  if (!row) throw new Error("no purchase");
  return row;
}

export async function createPayment(deps: Deps, userId: number, values: Partial<typeof payments.$inferInsert> = {}) {
  const [row] = await deps.db.orm
    .insert(payments)
    .values({
      id: crypto.randomUUID(),
      userId,
      provider: "standin",
      amount: 50000,
      email: "player@example.com",
      status: "pending",
      ...values,
    })
    .returning();
  if (!row) throw new Error("no payment");
  return row;
}

export async function createInventoryEntry(
  deps: Deps,
  userId: number,
  itemId: number,
  values: Partial<typeof inventoryEntries.$inferInsert> = {},
) {
  const [row] = await deps.db.orm
    .insert(inventoryEntries)
    .values({ userId, itemId, serverType: "SOLO", durationDays: 30, isPermanent: false, ...values })
    .returning();
  if (!row) throw new Error("no entry");
  return row;
}

/** A JSON call to the real Worker, as the player's browser or script would make it. */
export async function api(
  path: string,
  options: { token?: string; cookie?: string; ip?: string; method?: string; body?: unknown } = {},
) {
  const headers = new Headers();
  if (options.token) headers.set("Authorization", bearer(options.token).authorization);
  if (options.cookie) headers.set("Cookie", sessionCookie(options.cookie).cookie);
  if (options.ip) headers.set("CF-Connecting-IP", options.ip);
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  const response = await SELF.fetch(`http://localhost/api${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json: json as Record<string, unknown> & unknown[] };
}
