// Rows the profile, history and promo tests need, each with fresh unique ids
// (D1 is shared by every test file in a run).
import { SELF } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { categories, inventoryEntries, items, payments, promoCodes, purchases, users } from "#db/schema.ts";
import type { Deps } from "#worker/deps.ts";
import { createSession } from "#worker/services/auth/sessions.ts";
import { raw, runBatch } from "./sql.ts";

let counter = 0;
export function unique(prefix = ""): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export function uniqueIp(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

export async function createPlayer(deps: Deps, { balance = 0, nickname = "Игрок" } = {}) {
  const steamId = `7656119${Math.floor(Math.random() * 1e10)
    .toString()
    .padStart(10, "0")}`;
  const [user] = await deps.db.orm
    .insert(users)
    .values({ steamId, nickname, avatarUrl: "https://avatars.example/a.jpg", balance: 0 })
    .returning();
  if (!user) throw new Error("no user");
  if (balance > 0) {
    // Through the ledger, so balance = sum(ledger) holds from the start.
    await runBatch([
      raw("INSERT INTO ledger (user_id, amount, kind) VALUES (?1, ?2, 'adjustment')", user.id, balance),
      raw("UPDATE users SET balance = balance + ?2 WHERE id = ?1", user.id, balance),
    ]);
  }
  const session = await createSession(deps, user.id);
  return { ...user, balance, token: session.token };
}

export async function createItem(deps: Deps, { name = "Тестовый кит", serverType = "SOLO" } = {}) {
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
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", `__session=${options.cookie}`);
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

/** The balance column and the ledger's sum for a player (they must always agree). */
export async function balanceAndLedger(deps: Deps, userId: number) {
  const rows = await deps.db.orm.all<{ balance: number; ledger: number }>(
    sql`SELECT (SELECT balance FROM users WHERE id = ${userId}) AS balance,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE user_id = ${userId}) AS ledger`,
  );
  const row = rows[0];
  if (!row) throw new Error("no user");
  return row;
}
