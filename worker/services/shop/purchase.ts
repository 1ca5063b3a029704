import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { kopecksToRubles } from "#core/format/money.ts";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import { GIFT_ERRORS } from "#core/messages/gifts.ts";
import { PURCHASE_ERRORS, priceChangedText, refundDebtText } from "#core/messages/shop.ts";
import type { PurchaseReceipt } from "#core/profile/types.ts";
import { type PurchaseRefusal, purchaseRefusal } from "#core/shop/eligibility.ts";
import type { FriendRef } from "#core/shop/gift.ts";
import { durationText } from "#core/shop/plural.ts";
import { bestSale, effectiveDiscount, type SaleRule } from "#core/shop/sales.ts";
import { purchaseClosedText } from "#core/wipe/fair-play.ts";
import { itemDurations, items, purchases, sales, servers, users } from "#db/schema.ts";
import type { Deps } from "../../deps.ts";
import { type Compiled, compiled, slot, statement } from "../../ports/database.ts";
import { livePlayerId, sessionPlayerSql } from "../auth/sessions.ts";
import { ringDoorbell } from "../game/doorbell.ts";
import { openWindowFor, purchaseClosedSql } from "../game/fair-play.ts";
import { discordEventStatement } from "../notifications/discord.ts";
import { refundDebtOf } from "../payments/refunds.ts";
import { type DurationRow, getItem, type ItemRow, itemFacts, priceFor } from "./catalog.ts";
import { batchChangingCatalog, offeredDurations, toSaleRule } from "./catalog-snapshot.ts";
import type { GiftRecipient } from "./gift-recipient.ts";

export interface PurchaseInput {
  itemId: number;
  serverType: string;
  durationDays: number | null;
  idempotencyKey: string;
  /** The price the player was shown, in kopecks (decision 112); absent from old clients: no check. */
  expectedPrice?: number | null;
  /** A gift (issue 24): the friend whose Корзина receives it; the buyer pays. */
  giftTo?: GiftRecipient | null;
}

export type PurchaseResult =
  | { ok: true; replayed: boolean; purchase: PurchaseReceipt; balance: number }
  | {
      ok: false;
      status: 400 | 401 | 402 | 403 | 404 | 409 | 410;
      error: string;
      /** A 409 for a price that changed: the price now, in rubles, for the player to confirm. */
      price?: number;
    };

/** Who buys: a player already looked up, or the session a verified token names, checked inside the batch. */
export type Buyer = number | { sessionId: string };

type Failure = Extract<PurchaseResult, { ok: false }>;
const fail = (status: Failure["status"], error: string): Failure => ({ ok: false, status, error });

/** The answer's status for each reason a purchase is refused. */
const REFUSAL_STATUS: Record<PurchaseRefusal, Failure["status"]> = {
  wrongServerType: 400,
  oneTimeNoDuration: 400,
  durationRequired: 400,
  durationNotOffered: 400,
  unavailable: 410,
  ended: 410,
  soldOut: 410,
  notStarted: 409,
  // For now: sold again once a server of the type exists (decision 122).
  noServer: 409,
};

/**
 * The item `i` is for sale: offered by the operator, in a category the shop shows (decision 119). The
 * one statement of it for buying: the purchase's guard requires it and the refusal's reason reads it.
 */
const FOR_SALE = sql`(i.is_available = 1 AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = i.category_id AND c.hidden = 1))`;

/**
 * The item row (for sale or not, as `FOR_SALE` says), its durations, the sales and whether a game
 * server of its type exists, for the purchase checks.
 */
async function loadItemForPurchase(deps: Pick<Deps, "db">, id: number) {
  const { orm } = deps.db;
  const i = alias(items, "i");
  const [row, durations, saleRows, served] = await orm.batch([
    orm
      .select({ item: i, forSale: sql<number>`${FOR_SALE}` })
      .from(i)
      .where(eq(i.id, id))
      .limit(1),
    orm.select().from(itemDurations).where(eq(itemDurations.itemId, id)),
    orm.select().from(sales).where(isNull(sales.cancelledAt)),
    orm
      .select({ id: servers.id })
      .from(servers)
      .innerJoin(items, eq(items.serverType, servers.serverType))
      .where(eq(items.id, id))
      .limit(1),
  ]);
  const found = row[0];
  if (!found) return null;
  const item: ItemRow = { ...found.item, isAvailable: Boolean(found.forSale) };
  return {
    item,
    durations: offeredDurations(item, durations),
    sales: saleRows.map(toSaleRule),
    hasServer: served.length > 0,
  };
}

/** Why `input` can't be bought now, or its price in kopecks. */
export function checkPurchase(
  item: ItemRow,
  durations: DurationRow[],
  input: Pick<PurchaseInput, "serverType" | "durationDays">,
  now: number,
  sales: readonly SaleRule[] = [],
  hasServer = true,
): Failure | { ok: true; price: number } {
  const refusal = purchaseRefusal(itemFacts(item, durations, hasServer), input, now);
  if (refusal) return fail(REFUSAL_STATUS[refusal], PURCHASE_ERRORS[refusal]);
  const discount = effectiveDiscount(item.discount, bestSale(sales, item, now));
  const price = priceFor(item, durations, input.durationDays, discount);
  if (price == null) return fail(400, PURCHASE_ERRORS.durationNotOffered);
  return { ok: true, price };
}

/**
 * What `balance` (kopecks) is short of for the item at `durationDays` at its listed price, in rubles:
 * 0 when it covers it, or when the terms name no listed price (the purchase then says why). Read from
 * the catalog snapshot, so a gift short of money is refused before its friend is asked of Steam (issue 36).
 */
export async function missingFor(
  deps: Pick<Deps, "db" | "now">,
  balance: number,
  itemId: number,
  durationDays: number | null,
): Promise<number> {
  const item = await getItem(deps, itemId);
  const price = item
    ? durationDays != null
      ? item.durations.find((duration) => duration.days === durationDays)?.discount_price
      : item.discount_price
    : undefined;
  if (price == null) return 0;
  const missing = Math.round(price * 100) - balance;
  return missing > 0 ? missing / 100 : 0;
}

type PurchaseRow = typeof purchases.$inferSelect;

type PurchaseViewRow = Pick<
  PurchaseRow,
  "id" | "transactionId" | "paidAt" | "serverType" | "durationDays" | "price" | "status"
>;

export function toPurchaseView(row: PurchaseViewRow): PurchaseReceipt {
  return {
    id: row.id,
    transaction_id: row.transactionId,
    paid_at: row.paidAt == null ? null : new Date(row.paidAt).toISOString(),
    server_type: row.serverType,
    duration_text: durationText(row.durationDays),
    price: kopecksToRubles(row.price),
    status: row.status,
  };
}

/** The player's purchase made with `key`, with its gift's friend by SteamID and name (null for one's own). */
async function findByKey(deps: Pick<Deps, "db">, userId: number, key: string) {
  const friend = alias(users, "friend");
  const [row] = await deps.db.orm
    .select({ purchase: purchases, giftSteamId: friend.steamId, giftNickname: friend.nickname })
    .from(purchases)
    .leftJoin(friend, eq(friend.id, purchases.giftToUserId))
    .where(and(eq(purchases.userId, userId), eq(purchases.idempotencyKey, key)))
    .limit(1);
  return row ? { ...row.purchase, giftSteamId: row.giftSteamId, giftNickname: row.giftNickname } : null;
}

async function balanceOf(deps: Pick<Deps, "db">, userId: number): Promise<number> {
  const [row] = await deps.db.orm.select({ balance: users.balance }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.balance ?? 0;
}

/**
 * The key was used for exactly these terms, the gift's friend included (or no gift both times):
 * anything else is a different purchase, never the first one again (issue 36).
 */
function sameTerms(row: KeyedPurchase, input: PurchaseInput): boolean {
  return (
    row.itemId === input.itemId &&
    row.serverType === input.serverType &&
    (row.durationDays ?? null) === (input.durationDays ?? null) &&
    row.giftSteamId === (input.giftTo?.steamId ?? null)
  );
}

type KeyedPurchase = PurchaseRow & { giftSteamId: string | null; giftNickname: string | null };

async function replay(deps: Pick<Deps, "db">, userId: number, input: PurchaseInput, row: KeyedPurchase) {
  if (!sameTerms(row, input)) return fail(409, PURCHASE_ERRORS.idempotencyReused);
  return {
    ok: true as const,
    replayed: true,
    purchase: toPurchaseView(row),
    balance: kopecksToRubles(await balanceOf(deps, userId)),
  };
}

/** What a retried gift names, before anyone is asked who that is. */
export interface RetriedGift {
  itemId: number;
  serverType: string;
  durationDays: number | null;
  friend: FriendRef;
}

export type EarlierGift =
  | (Extract<PurchaseResult, { ok: true }> & { giftTo: { steamId: string; nickname: string } })
  | Extract<PurchaseResult, { ok: false }>;

/**
 * The answer a gift's idempotency key already earned (issue 47): the first purchase again when the
 * terms are the same, 409 when they differ, null for a key not used yet. Read before the funds check
 * and the friend's lookup, so a retry after a lost answer is never refused for money it already spent
 * or for the Steam lookups it already made. A custom profile address can't be told from another
 * without asking Steam, which a retry must not need: any friend the key's gift went to is taken as it.
 */
export async function earlierGift(
  deps: Pick<Deps, "db">,
  userId: number,
  key: string,
  gift: RetriedGift,
): Promise<EarlierGift | null> {
  const row = await findByKey(deps, userId, key);
  if (!row) return null;
  // "" matches no friend: the key bought for the player themselves.
  const named = "vanity" in gift.friend ? (row.giftSteamId ?? "") : gift.friend.steamId;
  const answer = await replay(
    deps,
    userId,
    { ...gift, idempotencyKey: key, giftTo: { steamId: named, nickname: "", avatarUrl: "" } },
    row,
  );
  return answer.ok ? { ...answer, giftTo: { steamId: named, nickname: row.giftNickname ?? named } } : answer;
}

/**
 * The running sale that takes the most off the item `i` at `now`, as a one-row subquery `s` (the
 * highest percent, the oldest on a tie): bestSale of core/shop/sales.ts in SQL (decision 113).
 */
function bestSaleSql(now: SQL): SQL {
  return sql`(SELECT s.id, s.percent FROM sales s
    WHERE s.cancelled_at IS NULL AND s.starts_at <= ${now} AND s.ends_at > ${now}
      AND (s.category_ids IS NULL OR i.category_id IN (SELECT value FROM json_each(s.category_ids)))
      AND (s.server_types IS NULL OR i.server_type IN (SELECT value FROM json_each(s.server_types)))
    ORDER BY s.percent DESC, s.id LIMIT 1) s`;
}

/** Until when the buyer may take the purchase back undelivered: the operator's window from now, NULL when off (decision 111). */
function returnUntil(now: SQL): SQL {
  return sql`(SELECT CASE WHEN return_window_hours > 0 THEN ${now} + return_window_hours * 3600000 END
    FROM shop_settings WHERE id = 1)`;
}

/** Every reason a purchase can't happen, checked on a fresh read after the batch aborted. */
async function diagnose(deps: Pick<Deps, "db" | "now">, userId: number, input: PurchaseInput) {
  if (input.giftTo) {
    const [friend] = await deps.db.orm
      .select({ id: users.id, blocked: users.purchasesBlocked })
      .from(users)
      .where(eq(users.steamId, input.giftTo.steamId))
      .limit(1);
    if (friend?.id === userId) return fail(400, GIFT_ERRORS.self);
    if (friend?.blocked) return fail(403, GIFT_ERRORS.blocked);
  }
  const debt = await refundDebtOf(deps, userId);
  if (debt > 0) return fail(403, refundDebtText(kopecksToRubles(debt)));
  const [user] = await deps.db.orm
    .select({ blocked: users.purchasesBlocked })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (user?.blocked) return fail(403, PURCHASE_ERRORS.blocked);
  const loaded = await loadItemForPurchase(deps, input.itemId);
  if (!loaded) return fail(404, PURCHASE_ERRORS.itemNotFound);
  const check = checkPurchase(
    loaded.item,
    loaded.durations,
    input,
    deps.now().getTime(),
    loaded.sales,
    loaded.hasServer,
  );
  if (!check.ok) return check;
  const window = await openWindowFor(deps, input.itemId, { purchasesClosedOnly: true });
  if (window) return fail(409, purchaseClosedText(window));
  if (input.expectedPrice != null && input.expectedPrice !== check.price) {
    const price = kopecksToRubles(check.price);
    return { ok: false as const, status: 409 as const, error: priceChangedText(price), price };
  }
  if ((await balanceOf(deps, userId)) < check.price) return fail(402, PURCHASE_ERRORS.insufficientFunds);
  return null;
}

/** One purchase's values, bound to the `slot`s of its compiled statements. */
type PurchaseValues = {
  /** The player's id, or the session's id whose live player buys. */
  buyer: number | string;
  now: number;
  transactionId: string;
  idempotencyKey: string;
  itemId: number;
  serverType: string;
  days: number | null;
  isPermanent: 0 | 1;
  expected: number | null;
  giftSteamId: string | null;
  giftNickname: string | null;
  giftAvatarUrl: string | null;
};

const compiledPurchases = new Map<string, Compiled<PurchaseValues>[]>();

/**
 * The purchase's batch for a buyer named by id or by session, with a gift or without, built once per
 * isolate: drizzle building this SQL was a tenth of a purchase's CPU (docs/PERFORMANCE.md run 13).
 * Every value is a `slot`, so the text is the one the values themselves would give. Every value a
 * request brings must be one: a plain `${value}` here would be kept for every later purchase.
 */
function purchaseStatements(buyerBy: "player" | "session", withGift: boolean): Compiled<PurchaseValues>[] {
  const shape = `${buyerBy}:${withGift}`;
  const known = compiledPurchases.get(shape);
  if (known) return known;
  const now = slot("now");
  const days = slot("days");
  const transactionId = slot("transactionId");
  const buyerSql = buyerBy === "player" ? slot("buyer") : sessionPlayerSql(slot("buyer"), now);
  const purchaseOf = sql`(SELECT id FROM purchases WHERE transaction_id = ${transactionId})`;
  const priceOf = sql`(SELECT price FROM purchases WHERE transaction_id = ${transactionId})`;
  const itemOf = sql`(SELECT item_id FROM purchases WHERE transaction_id = ${transactionId})`;
  const expected = slot("expected");
  const basePrice = sql`CASE WHEN ${days} IS NULL THEN i.price WHEN ${days} = 0 THEN i.until_wipe_price
    ELSE COALESCE(d.price, CAST(ROUND(d.days * i.price / 3000.0) AS INTEGER) * 100) END`;
  // The item's own discount or the best running sale's, whichever is larger (core/shop/sales.ts).
  const sale = bestSaleSql(now);
  const discount = sql`MAX(i.discount, COALESCE((SELECT s.percent FROM ${sale}), 0))`;
  const finalPrice = sql`CASE WHEN (${discount}) <= 0 THEN (${basePrice})
            ELSE CAST(ROUND((${basePrice}) * (100 - (${discount})) / 10000.0) AS INTEGER) * 100 END`;
  const saleId = sql`(SELECT s.id FROM ${sale} WHERE s.percent > i.discount)`;
  // A gift's friend: an account row made now if they never signed in, so the item waits for them.
  const giftSteamId = slot("giftSteamId");
  const friendSql = withGift ? sql`(SELECT id FROM users WHERE steam_id = ${giftSteamId})` : sql`NULL`;
  const ownerSql = withGift ? friendSql : buyerSql;
  const giftGuard = withGift
    ? sql`AND ${friendSql} <> ${buyerSql}
          AND NOT EXISTS (SELECT 1 FROM users f WHERE f.steam_id = ${giftSteamId} AND f.purchases_blocked = 1)`
    : sql``;
  const friendRow = withGift
    ? [
        // A friend known only by their SteamID takes the Steam name the buyer was shown (issue 46).
        statement(sql`INSERT INTO users (steam_id, nickname, avatar_url, balance) VALUES
            (${giftSteamId}, ${slot("giftNickname")}, ${slot("giftAvatarUrl")}, 0)
          ON CONFLICT(steam_id) DO UPDATE SET nickname = excluded.nickname
            WHERE users.nickname = users.steam_id AND excluded.nickname <> excluded.steam_id`),
      ]
    : [];
  const statements = [
    ...friendRow,
    statement(sql`
        INSERT INTO purchases
          (user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price, status, paid_at,
            sale_id, gift_to_user_id, created_at)
        SELECT ${buyerSql}, i.id, ${transactionId}, ${slot("idempotencyKey")}, i.server_type, ${days},
          ${finalPrice}, 'completed', ${now}, ${saleId}, ${friendSql}, ${now}
        FROM items i
        LEFT JOIN item_durations d ON d.item_id = i.id AND d.days = ${days}
        WHERE i.id = ${slot("itemId")}
          AND i.server_type = ${slot("serverType")}
          AND ${FOR_SALE}
          AND NOT EXISTS (SELECT 1 FROM users b WHERE b.id = ${buyerSql} AND b.purchases_blocked = 1)
          AND (i.start_time IS NULL OR i.start_time <= ${now})
          AND (i.end_time IS NULL OR i.end_time > ${now})
          AND (i.max_quantity IS NULL OR i.sold_quantity < i.max_quantity)
          AND EXISTS (SELECT 1 FROM servers sv WHERE sv.server_type = i.server_type)
          AND NOT ${purchaseClosedSql(now)}
          AND (
            (${days} IS NULL AND i.until_wipe_price IS NULL
              AND NOT EXISTS (SELECT 1 FROM item_durations x WHERE x.item_id = i.id))
            OR (${days} = 0 AND i.is_one_time = 0 AND i.until_wipe_price IS NOT NULL)
            OR (${days} > 0 AND i.is_one_time = 0 AND d.days IS NOT NULL)
          )
          AND NOT EXISTS (SELECT 1 FROM refund_debts WHERE user_id = ${buyerSql} AND amount > 0)
          AND (${expected} IS NULL OR (${finalPrice}) = ${expected})
          ${giftGuard}
        RETURNING id, transaction_id AS transactionId, paid_at AS paidAt, server_type AS serverType,
          duration_days AS durationDays, price, status`),
    statement(sql`
        UPDATE items SET sold_quantity = sold_quantity + 1
        WHERE id = ${itemOf} AND max_quantity IS NOT NULL`),
    statement(sql`
        UPDATE users SET balance = balance - ${priceOf}, updated_at = ${now}
        WHERE id = ${buyerSql}
        RETURNING balance`),
    statement(sql`
        INSERT INTO ledger (user_id, amount, kind, purchase_id, created_at)
        VALUES (${buyerSql}, -${priceOf}, 'purchase', ${purchaseOf}, ${now})`),
    statement(sql`
        INSERT INTO inventory_entries
          (user_id, item_id, purchase_id, server_type, duration_days, is_permanent, status, return_until, created_at)
        VALUES (${ownerSql}, ${itemOf}, ${purchaseOf}, ${slot("serverType")}, ${days}, ${slot("isPermanent")},
          'not_used', ${returnUntil(now)}, ${now})`),
    // The operators' Discord, when they asked for purchases (decision 110): a row to send later.
    discordEventStatement(
      "purchase",
      sql`SELECT json_object('nickname', u.nickname, 'item', i.name, 'price', p.price, 'days', p.duration_days,
            'serverType', p.server_type,
            'giftTo', (SELECT f.nickname FROM users f WHERE f.id = p.gift_to_user_id)) AS payload
          FROM purchases p JOIN users u ON u.id = p.user_id JOIN items i ON i.id = p.item_id
          WHERE p.transaction_id = ${transactionId}`,
      now,
    ),
  ].map((built) => compiled<PurchaseValues>(built));
  compiledPurchases.set(shape, statements);
  return statements;
}

/**
 * Buys one item for one player in ONE batch (one transaction):
 *  1. the purchase row, INSERT … SELECT from the current item and duration rows: the price,
 *     the server type, the duration, the sale window, the stock, the player's refund debt
 *     (decision 097), that a game server of the item's type exists (decision 122) and that no
 *     fair-play window closing it is open after a wipe (decision 129) are all checked inside SQL;
 *     the (user, idempotency key) pair is unique, so a double submit can't buy twice;
 *  2. the stock increment of a limited item (CHECK sold_quantity <= max_quantity aborts an oversell);
 *  3. the debit (CHECK balance >= 0 aborts an overdraft). It subtracts the price read back from
 *     the purchase row: when step 1 matched no row that is NULL and the NOT NULL balance column
 *     aborts the whole batch, so a guard that fails never leaves a half-written purchase;
 *  4. the ledger row (kind purchase, minus the price), so balance = sum(ledger) holds;
 *  5. the Корзина entry, not used yet, returnable until the operator's window ends (decision 111).
 * When the player's client says what price it showed (`expectedPrice`), step 1 also requires the
 * price it computes to be that one, so a price changed since the page never charges (decision 112).
 * Steps 1 and 3 return the purchase and the new balance (RETURNING), so a purchase is one round trip
 * of five statements and nothing is read back.
 * A buyer named by a session is checked in the same SQL: a revoked or expired session leaves the
 * purchase row's user NULL, which aborts the batch, so the API needs no lookup of its own first.
 * Nothing is read first: a replayed idempotency key fails step 1's UNIQUE and any failed guard
 * aborts the batch, and only then is the state read, to choose the answer (decision 030).
 */
export async function purchaseItem(
  deps: Pick<Deps, "db" | "now" | "waitUntil" | "doorbell">,
  buyer: Buyer,
  input: PurchaseInput,
): Promise<PurchaseResult> {
  const now = deps.now().getTime();
  const gift = input.giftTo ?? null;
  const values: PurchaseValues = {
    buyer: typeof buyer === "number" ? buyer : buyer.sessionId,
    now,
    transactionId: crypto.randomUUID(),
    idempotencyKey: input.idempotencyKey,
    itemId: input.itemId,
    serverType: input.serverType,
    days: input.durationDays,
    isPermanent: input.durationDays == null ? 1 : 0,
    expected: input.expectedPrice ?? null,
    giftSteamId: gift?.steamId ?? null,
    giftNickname: gift?.nickname ?? null,
    giftAvatarUrl: gift?.avatarUrl ?? null,
  };
  const statements = purchaseStatements(typeof buyer === "number" ? "player" : "session", gift !== null);

  try {
    const results = await batchChangingCatalog(
      deps.db,
      statements.map((each) => each.bind(values)),
    );
    const first = gift ? 1 : 0;
    const [purchase] = (results[first]?.rows ?? []) as PurchaseViewRow[];
    const [balance] = (results[first + 2]?.rows ?? []) as { balance: number }[];
    // A guard that matched nothing must have aborted the batch above; never report a purchase that isn't there.
    if (!purchase || !balance) {
      throw new Error("purchase guard matched no row but the batch committed");
    }
    // The item (a gift's too) waits for the type's servers: they poll now rather than at their timer.
    ringDoorbell(deps, [input.serverType]);
    return { ok: true, replayed: false, purchase: toPurchaseView(purchase), balance: kopecksToRubles(balance.balance) };
  } catch (error) {
    const userId = typeof buyer === "number" ? buyer : await livePlayerId(deps, buyer.sessionId);
    if (userId == null) return fail(401, AUTH_REQUIRED);
    const again = await findByKey(deps, userId, input.idempotencyKey);
    if (again) return replay(deps, userId, input, again);
    const reason = await diagnose(deps, userId, input);
    if (reason) return reason;
    // The state changed under us and changed back, or the database failed: nothing was written.
    console.error(JSON.stringify({ event: "purchase_aborted", error: String(error) }));
    return fail(409, PURCHASE_ERRORS.conflict);
  }
}
