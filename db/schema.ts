import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { MAX_SALE_PERCENT, MAX_WIPE_SALE_HOURS } from "../core/shop/sales.ts";
import { WIPE_KINDS } from "../core/wipe/schedule.ts";

// Money is integer kopecks everywhere in the database; the API speaks rubles.
// Times are integer milliseconds since the epoch (UTC).

const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

export const servers = sqliteTable("servers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  serverType: text("server_type").notNull(),
  // The address players connect to, "ip:port".
  ipPort: text("ip_port").notNull().unique(),
  sortOrder: integer("sort_order").notNull().default(0),
  // A legacy key (before decision 103): SHA-256 hex of a random plugin key. That hash is the HMAC
  // key, so a copy of the database could sign; such servers are flagged until their key is rotated.
  keyHash: text("key_hash"),
  // The plugin key is derived from GAME_KEY_SECRET (never in the database), the id and this random
  // salt (decision 103); a new salt is a new key. Set means the key is derived; key_hash is then NULL.
  keySalt: text("key_salt"),
  keyRotatedAt: integer("key_rotated_at"),
  // Last time Steam's master list showed the server, with what it showed.
  steamSeenAt: integer("steam_seen_at"),
  steamPlayers: integer("steam_players"),
  steamMaxPlayers: integer("steam_max_players"),
  // Every acknowledgement the site accepts from this server bumps it, and the signed answer carries it:
  // a plugin that has seen a higher one knows the site was restored from a backup (decision 124).
  ackSeq: integer("ack_seq").notNull().default(0),
  // Set by `npm run db:restore` (or a plugin that saw a higher ack_seq): deliveries of this server's
  // type wait until its plugin has sent again what it acknowledged after the backup (decision 124).
  needsResync: integer("needs_resync", { mode: "boolean" }).notNull().default(false),
  // The wipe schedule in Moscow time (decision 128): 'none', 'weekly' (weekday 1 Monday … 7 Sunday
  // and minute after midnight), 'every_weeks' (every N weeks from a date, at a minute) or 'forced'
  // (Facepunch's monthly forced wipe only, which every other kind also counts).
  wipeKind: text("wipe_kind", { enum: WIPE_KINDS }).notNull().default("none"),
  wipeWeekday: integer("wipe_weekday"),
  wipeMinute: integer("wipe_minute"),
  wipeEveryWeeks: integer("wipe_every_weeks"),
  // "YYYY-MM-DD", Moscow's calendar: the first wipe of an every-N-weeks schedule.
  wipeFrom: text("wipe_from"),
  // The server's last wipe (decision 129): the later of the last new map its plugin reported
  // (server_wipes) and the last wipe of its schedule that has passed, kept by the heartbeat and the
  // minutely cron so the purchase's SQL and the lease read it without the schedule's arithmetic.
  lastWipeAt: integer("last_wipe_at"),
  // When the operator last saved the schedule (decision 130): only the schedule's wipes after it count
  // as wipes that happened, so a schedule set after its slot passed doesn't make up a wipe.
  wipeScheduleSetAt: integer("wipe_schedule_set_at"),
  createdAt: createdAt(),
});

export const serverHeartbeats = sqliteTable("server_heartbeats", {
  serverId: integer("server_id")
    .primaryKey()
    .references(() => servers.id, { onDelete: "cascade" }),
  hostname: text("hostname").notNull(),
  players: integer("players").notNull(),
  maxPlayers: integer("max_players").notNull(),
  queue: integer("queue").notNull().default(0),
  map: text("map"),
  // The map's size and seed and Rust's save creation time (the last wipe, ms), when the plugin sends them.
  mapSize: integer("map_size"),
  mapSeed: integer("map_seed"),
  wipedAt: integer("wiped_at"),
  onlineSteamIds: text("online_steam_ids", { mode: "json" }).$type<string[]>().notNull(),
  receivedAt: integer("received_at").notNull(),
  // The plugin's timestamp (unix seconds) on the heartbeat written last: a heartbeat is written only
  // with a later one, so a replayed heartbeat changes nothing (decision 126).
  signedAt: integer("signed_at").notNull().default(0),
  // Whether the plugin's doorbell was connected when it sent this heartbeat (decision 146); null: a
  // plugin without one.
  doorbell: integer("doorbell", { mode: "boolean" }),
});

// The signed plugin requests a server's plugin made that changed something (decision 126): the newest
// timestamp among them and those of the last few seconds, [[seconds, signature], …]. A request is
// refused if it is older than that window or among them; a request that changes nothing (a poll with
// nothing due, a heartbeat not written) is answered without a row.
export const gameRequestMarks = sqliteTable("game_request_marks", {
  serverId: integer("server_id")
    .primaryKey()
    .references(() => servers.id, { onDelete: "cascade" }),
  newest: integer("newest").notNull(),
  recent: text("recent").notNull(),
});

// Each new map a server's plugin reported (decision 128): Rust's save creation time, once per wipe
// (reports within ten minutes of a recorded one are the same wipe). The heartbeat keeps only the last.
export const serverWipes = sqliteTable(
  "server_wipes",
  {
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    wipedAt: integer("wiped_at").notNull(),
    // When the site first heard of it.
    seenAt: integer("seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.wipedAt] })],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    steamId: text("steam_id").notNull().unique(),
    nickname: text("nickname").notNull(),
    avatarUrl: text("avatar_url").notNull(),
    balance: integer("balance").notNull().default(0),
    // Set by an operator: the purchase batch refuses a blocked player's purchases.
    purchasesBlocked: integer("purchases_blocked", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at"),
  },
  (t) => [check("users_balance_non_negative", sql`${t.balance} >= 0`)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

// One-time sign-in codes: /auth-success trades one for its session's bearer token. Only a hash
// is kept; consuming a code deletes its row, so it works once.
export const signInCodes = sqliteTable(
  "sign_in_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sign_in_codes_expiry").on(t.expiresAt)],
);

// OpenID response nonces already accepted; a replay hits the primary key.
export const openidNonces = sqliteTable("openid_nonces", {
  nonce: text("nonce").primaryKey(),
  seenAt: integer("seen_at").notNull(),
});

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  sortOrder: integer("sort_order").notNull().default(0),
  // Hidden by an operator (decision 119): neither it nor its items are in the shop; the console still lists it.
  hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
});

export const items = sqliteTable(
  "items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    price: integer("price").notNull(),
    discount: integer("discount").notNull().default(0),
    img: text("img").notNull(),
    serverType: text("server_type").notNull(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    isOneTime: integer("is_one_time", { mode: "boolean" }).notNull().default(false),
    isAvailable: integer("is_available", { mode: "boolean" }).notNull().default(true),
    reloadTime: integer("reload_time").notNull().default(0),
    // A limited offer has a window, a stock, or both.
    startTime: integer("start_time"),
    endTime: integer("end_time"),
    maxQuantity: integer("max_quantity"),
    soldQuantity: integer("sold_quantity").notNull().default(0),
    requiresOnline: integer("requires_online", { mode: "boolean" }).notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    // Sold «до вайпа» at this price (kopecks): until the next wipe of the server it is delivered on
    // (decision 130). NULL: not offered so.
    untilWipePrice: integer("until_wipe_price"),
  },
  (t) => [
    check("items_price_non_negative", sql`${t.price} >= 0`),
    check("items_discount_range", sql`${t.discount} >= 0 AND ${t.discount} <= 100`),
    check("items_stock", sql`${t.maxQuantity} IS NULL OR ${t.soldQuantity} <= ${t.maxQuantity}`),
    index("items_type_category").on(t.serverType, t.categoryId),
  ],
);

export const itemDurations = sqliteTable(
  "item_durations",
  {
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    // Null: pro-rated from the item price as round(days / 30 * price).
    price: integer("price"),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.days] }), check("item_durations_days", sql`${t.days} > 0`)],
);

export const itemContents = sqliteTable(
  "item_contents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    img: text("img").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  // The item page and the API read one page's contents; without it each read scans every kit's.
  (t) => [index("item_contents_item").on(t.itemId, t.sortOrder)],
);

// Console command templates run by the game plugin: {steamid} {nickname} {days} {server}.
export const itemCommands = sqliteTable(
  "item_commands",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
    phase: text("phase", { enum: ["grant", "revoke"] }).notNull(),
    template: text("template").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  // A lease asks, for each delivery it considers, whether its item has commands of the phase.
  (t) => [index("item_commands_item").on(t.itemId, t.phase)],
);

// Sales (issue 23): a percent off for a period, for the whole store or some categories and server
// types. An item's price is the lower of its own discount and the highest running sale (decision 113).
export const sales = sqliteTable(
  "sales",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    percent: integer("percent").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    // JSON arrays; NULL: every category / every server type.
    categoryIds: text("category_ids", { mode: "json" }).$type<number[]>(),
    serverTypes: text("server_types", { mode: "json" }).$type<string[]>(),
    // An operator ended it early; NULL while it runs as planned.
    cancelledAt: integer("cancelled_at"),
    // A window of a wipe sale (decision 144): the cron adds one per wipe of a server type, once.
    wipeSaleId: integer("wipe_sale_id").references(() => wipeSales.id),
    createdAt: createdAt(),
  },
  (t) => [
    check("sales_percent", sql`${t.percent} >= 1 AND ${t.percent} <= ${sql.raw(String(MAX_SALE_PERCENT))}`),
    check("sales_period", sql`${t.endsAt} > ${t.startsAt}`),
    index("sales_period").on(t.endsAt, t.startsAt),
    uniqueIndex("sales_wipe_window").on(t.wipeSaleId, t.serverTypes, t.startsAt),
  ],
);

// Wipe sales (decision 144): a percent off for `hours` after each wipe of a server type, for some
// categories and types (JSON arrays; NULL: all). Each wipe becomes an ordinary `sales` row, so prices
// follow decision 113 unchanged.
export const wipeSales = sqliteTable(
  "wipe_sales",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    percent: integer("percent").notNull(),
    hours: integer("hours").notNull(),
    categoryIds: text("category_ids", { mode: "json" }).$type<number[]>(),
    serverTypes: text("server_types", { mode: "json" }).$type<string[]>(),
    // An operator ended it; its windows not yet over end with it.
    cancelledAt: integer("cancelled_at"),
    createdAt: createdAt(),
  },
  (t) => [
    check("wipe_sales_percent", sql`${t.percent} >= 1 AND ${t.percent} <= ${sql.raw(String(MAX_SALE_PERCENT))}`),
    check("wipe_sales_hours", sql`${t.hours} >= 1 AND ${t.hours} <= ${sql.raw(String(MAX_WIPE_SALE_HOURS))}`),
  ],
);

// The fair-play window (decision 129): a category or an item of a server type is not delivered, and
// optionally not sold, for `hours` after each wipe of the server that would deliver it.
export const fairPlayWindows = sqliteTable(
  "fair_play_windows",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverType: text("server_type").notNull(),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "cascade" }),
    itemId: integer("item_id").references(() => items.id, { onDelete: "cascade" }),
    hours: integer("hours").notNull(),
    // Whether the item can still be bought during the window (it then waits in the Корзина).
    purchasesOpen: integer("purchases_open", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check("fair_play_windows_hours", sql`${t.hours} >= 1 AND ${t.hours} <= 72`),
    check("fair_play_windows_target", sql`(${t.categoryId} IS NULL) <> (${t.itemId} IS NULL)`),
    index("fair_play_windows_type").on(t.serverType),
  ],
);

export const purchases = sqliteTable(
  "purchases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    transactionId: text("transaction_id").notNull().unique(),
    idempotencyKey: text("idempotency_key").notNull(),
    serverType: text("server_type").notNull(),
    durationDays: integer("duration_days"),
    price: integer("price").notNull(),
    // returned: its owner took it back before delivery (issue 24), the price went back to the balance.
    status: text("status", { enum: ["pending", "completed", "failed", "refunded", "returned"] }).notNull(),
    paidAt: integer("paid_at"),
    // A gift: the friend whose Корзина received it; user_id is the buyer who paid (issue 24).
    giftToUserId: integer("gift_to_user_id").references(() => users.id),
    // The sale that set the price, when one did (issue 23).
    saleId: integer("sale_id").references(() => sales.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("purchases_user_idempotency").on(t.userId, t.idempotencyKey),
    // A player's purchases, newest first (/purchases): in place of one on user_id alone, which left
    // SQLite walking purchases_created over everyone's purchases to skip the sort (decision 126).
    index("purchases_user_created").on(t.userId, t.createdAt, t.id),
    // Gifts only: most purchases have none, and each of them wrote a row here (decision 126).
    index("purchases_gift_to").on(t.giftToUserId).where(sql`${t.giftToUserId} IS NOT NULL`),
    // The console's summary: every sum over a period reads this index alone (decision 096).
    index("purchases_status_paid").on(t.status, t.paidAt, t.itemId, t.price, t.userId),
    // The console's CSV export walks a period page by page on (created_at, id) (decision 110).
    index("purchases_created").on(t.createdAt, t.id),
  ],
);

export const payments = sqliteTable(
  "payments",
  {
    // Our own id (UUID), sent to the provider in metadata and the return URL.
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").unique(),
    amount: integer("amount").notNull(),
    email: text("email").notNull(),
    status: text("status", { enum: ["pending", "completed", "failed", "cancelled"] }).notNull(),
    confirmationUrl: text("confirmation_url"),
    createdAt: createdAt(),
    completedAt: integer("completed_at"),
  },
  (t) => [
    check("payments_amount_positive", sql`${t.amount} > 0`),
    index("payments_user").on(t.userId),
    // The console's summary reads top-ups by period from this index alone (decision 096).
    index("payments_status_completed").on(t.status, t.completedAt, t.amount, t.userId),
    // The console's CSV export walks a period page by page on (created_at, id) (decision 110).
    index("payments_created").on(t.createdAt, t.id),
  ],
);

export const promoCodes = sqliteTable(
  "promo_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Stored upper-case; input is trimmed and upper-cased before lookup.
    code: text("code").notNull().unique(),
    type: text("type", { enum: ["BALANCE", "ITEM"] }).notNull(),
    value: integer("value"),
    itemId: integer("item_id").references(() => items.id),
    itemServerType: text("item_server_type"),
    itemDurationDays: integer("item_duration_days"),
    startsAt: integer("starts_at"),
    endsAt: integer("ends_at"),
    maxUses: integer("max_uses").notNull(),
    usedCount: integer("used_count").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check("promo_codes_limit", sql`${t.usedCount} <= ${t.maxUses}`),
    check(
      "promo_codes_shape",
      sql`(${t.type} = 'BALANCE' AND ${t.value} > 0) OR (${t.type} = 'ITEM' AND ${t.itemId} IS NOT NULL)`,
    ),
  ],
);

export const promoRedemptions = sqliteTable(
  "promo_redemptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    promoId: integer("promo_id")
      .notNull()
      .references(() => promoCodes.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("promo_redemptions_once").on(t.promoId, t.userId)],
);

// Failed promo attempts, for slowing down guessing (per player and per address).
export const promoAttempts = sqliteTable(
  "promo_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id"),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("promo_attempts_user").on(t.userId, t.createdAt), index("promo_attempts_ip").on(t.ip, t.createdAt)],
);

// The site's Steam Web API budget for gift recipient lookups (issue 36): calls counted per player,
// per address and for the whole site in fixed windows. A call past a cap breaks the CHECK, which
// aborts the batch that counts it in all three, so nothing is counted for a refused call.
export const steamCallBudget = sqliteTable(
  "steam_call_budget",
  {
    // A gift's lookup (decisions 127, 141): player and player-hour (a SteamID), address (an IPv4 address or an IPv6
    // /64), newcomers ('': players who never topped up, together), site (''). Sign-in (issue 47):
    // profile (a SteamID, once a day), sign-in ('').
    scope: text("scope", {
      enum: ["player", "player-hour", "address", "newcomers", "site", "profile", "sign-in"],
    }).notNull(),
    subject: text("subject").notNull(),
    windowStart: integer("window_start").notNull(),
    calls: integer("calls").notNull(),
    cap: integer("cap").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.subject, t.windowStart] }),
    index("steam_call_budget_window").on(t.windowStart),
    check("steam_call_budget_cap", sql`${t.calls} <= ${t.cap}`),
  ],
);

// The Корзина: what a player owns, waiting for or done with delivery.
export const inventoryEntries = sqliteTable(
  "inventory_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    purchaseId: integer("purchase_id").references(() => purchases.id),
    promoRedemptionId: integer("promo_redemption_id").references(() => promoRedemptions.id),
    serverType: text("server_type").notNull(),
    // Days; 0: «до вайпа», until the next wipe of the server that delivers it (decision 130).
    durationDays: integer("duration_days"),
    isPermanent: integer("is_permanent", { mode: "boolean" }).notNull(),
    // returned: taken back by its buyer before delivery (issue 24).
    status: text("status", { enum: ["not_used", "used", "refunded", "returned"] })
      .notNull()
      .default("not_used"),
    // Until when the buyer may return it while undelivered; NULL: never (set from shop_settings at purchase).
    returnUntil: integer("return_until"),
    returnedAt: integer("returned_at"),
    usedAt: integer("used_at"),
    usedServerId: integer("used_server_id").references(() => servers.id),
    expiresAt: integer("expires_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("inventory_user").on(t.userId),
    // The Корзина a page at a time, newest first, by the key (created_at, id) (decision 150).
    index("inventory_user_created").on(t.userId, t.createdAt, t.id),
    // What the Корзина shows first (decision 150): a player's waiting entries, timed ones by their end
    // (the running ones are a range of it), and «до вайпа» ones (running while expires_at IS NULL);
    // delivered kits, the bulk of every history, are left out.
    index("inventory_user_ongoing")
      .on(t.userId, t.status, t.expiresAt)
      .where(
        sql`${t.status} = 'not_used' OR (${t.status} = 'used' AND (${t.expiresAt} IS NOT NULL OR ${t.durationDays} = 0))`,
      ),
    // The deliveries' hourly backstop reads the day's waiting entries, not every one (decision 126).
    index("inventory_waiting_created").on(t.createdAt).where(sql`${t.status} = 'not_used'`),
    // Timed ranks delivered: the backstop reads those ending lately, an ack the player's on one server.
    index("inventory_timed_expiry").on(t.expiresAt).where(sql`${t.status} = 'used' AND ${t.expiresAt} IS NOT NULL`),
    index("inventory_timed_player")
      .on(t.userId, t.usedServerId, t.expiresAt)
      .where(sql`${t.status} = 'used' AND ${t.expiresAt} IS NOT NULL`),
    // «До вайпа» entries running on a server (decision 130): a wipe ends those delivered before it.
    index("inventory_until_wipe_running")
      .on(t.usedServerId, t.usedAt)
      .where(sql`${t.status} = 'used' AND ${t.durationDays} = 0 AND ${t.expiresAt} IS NULL`),
  ],
);

// One unit of work for the game plugin: grant an entry, or revoke it when it expires.
export const deliveries = sqliteTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    inventoryEntryId: integer("inventory_entry_id")
      .notNull()
      .references(() => inventoryEntries.id),
    kind: text("kind", { enum: ["grant", "revoke"] }).notNull(),
    serverType: text("server_type").notNull(),
    steamId: text("steam_id").notNull(),
    requiresOnline: integer("requires_online", { mode: "boolean" }).notNull(),
    // superseded: a later entry of the same rank revokes it; stranded: its granting server is gone;
    // cancelled: an operator stopped it (a refund before delivery, or by hand).
    status: text("status", { enum: ["pending", "done", "failed", "superseded", "stranded", "cancelled"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    notBefore: integer("not_before").notNull(),
    leaseUntil: integer("lease_until"),
    leasedServerId: integer("leased_server_id"),
    lastError: text("last_error"),
    doneAt: integer("done_at"),
    doneServerId: integer("done_server_id"),
    // A server acknowledged it after it had been handed to another server (a 403): it may have
    // been given twice (decision 104).
    ackRefusedAt: integer("ack_refused_at"),
    ackRefusedServerId: integer("ack_refused_server_id"),
    // Decision 124. The commands, rendered once at the first lease (JSON array of strings); NULL
    // until then. An item's later edit changes them only through an operator's «Повторить».
    commands: text("commands"),
    // One entry per command (JSON array): {"state": pending|given|saved|failed|uncertain,
    // "server": id, "at": ms} — what the plugins reported; NULL until one did.
    progress: text("progress"),
    // Some command ran and the world has not been saved since: held for home_server_id.
    savingSince: integer("saving_since"),
    // The server where one of its commands took effect: retries stay there while it lives.
    homeServerId: integer("home_server_id"),
    // Leases given so far; the plugin names the one it ran under, so a failure counts once.
    leaseSeq: integer("lease_seq").notNull().default(0),
    // The lease whose failure was counted last.
    countedLease: integer("counted_lease").notNull().default(0),
    // «Повторить» pressed this many times: an uncertain command runs again only after one.
    retries: integer("retries").notNull().default(0),
    // Decision 132. A revoke for one more server where the entry's grant took effect (a grant split by
    // a hand-off): only that server leases it. NULL on an entry's own revoke, which follows the entry's
    // server (revokeTarget). Its kind is `revoke@<server>` while UNIQUE(entry, kind) stands.
    revokeServerId: integer("revoke_server_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deliveries_entry_kind").on(t.inventoryEntryId, t.kind),
    index("deliveries_due").on(t.serverType, t.status, t.notBefore),
    // A poll reads the waiting deliveries of its online players and the due ones that need nobody
    // online, never those waiting for players who are away (decision 126).
    index("deliveries_pending_player")
      .on(t.steamId, t.serverType)
      .where(sql`${t.status} = 'pending' AND ${t.requiresOnline} = 1`),
    index("deliveries_pending_offline")
      .on(t.serverType, t.notBefore)
      .where(sql`${t.status} = 'pending' AND ${t.requiresOnline} = 0`),
    // The upkeep's revokes that are due.
    index("deliveries_pending_revoke").on(t.notBefore).where(sql`${t.status} = 'pending' AND ${t.kind} = 'revoke'`),
    // The upkeep's due revokes on the other servers of a split grant (decision 132).
    index("deliveries_pending_split_revoke")
      .on(t.notBefore)
      .where(sql`${t.status} = 'pending' AND ${t.revokeServerId} IS NOT NULL`),
  ],
);

// Per server type, what a poll needs to know before it reads any delivery (decision 126), kept by
// triggers (migration 0016): `steam_ids`, the players who have a pending delivery that waits for them
// to be online (JSON array of SteamID64s; the hourly upkeep drops those served since), and
// `entry_ids`, the Корзина entries made since a poll last queued their grant deliveries (JSON array
// of ids; the first poll of the type queues them, with decision 124's ids, and takes them out). A poll
// reads this one row and asks about its online players only if one is in it.
export const deliveriesWaiting = sqliteTable("deliveries_waiting", {
  serverType: text("server_type").primaryKey(),
  steamIds: text("steam_ids").notNull().default("[]"),
  entryIds: text("entry_ids").notNull().default("[]"),
});

// A provider refund of a deposit, recorded once per provider refund id (decision 097).
export const paymentRefunds = sqliteTable(
  "payment_refunds",
  {
    // Our own id (UUID): the deposit history's row id.
    id: text("id").primaryKey(),
    providerRefundId: text("provider_refund_id").notNull().unique(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    // Kopecks the provider returned to the card.
    amount: integer("amount").notNull(),
    // Kopecks taken from the balance at once; amount - debited went to refund_debts.
    debited: integer("debited").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("payment_refunds_amount", sql`${t.amount} > 0 AND ${t.debited} >= 0 AND ${t.debited} <= ${t.amount}`),
    index("payment_refunds_user").on(t.userId),
    index("payment_refunds_payment").on(t.paymentId),
  ],
);

// What a provider refund took back that the player's balance could not cover (decision 097).
// While amount > 0 the player's purchases are refused; the next deposits pay it off first.
export const refundDebts = sqliteTable(
  "refund_debts",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    // Kopecks still owed.
    amount: integer("amount").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [check("refund_debts_amount_non_negative", sql`${t.amount} >= 0`)],
);

// Append-only. For every user, balance = sum(amount).
export const ledger = sqliteTable(
  "ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    amount: integer("amount").notNull(),
    // refund: a provider refund of a deposit (minus what the balance covered); refund_debt: a later
    // deposit paying off what a refund could not take (refund_debts).
    // return: a purchase taken back by its buyer before delivery (issue 24).
    kind: text("kind", {
      enum: ["deposit", "purchase", "promo", "refund", "refund_debt", "adjustment", "return"],
    }).notNull(),
    purchaseId: integer("purchase_id").references(() => purchases.id),
    paymentId: text("payment_id").references(() => payments.id),
    // A provider payment is credited once.
    providerPaymentId: text("provider_payment_id").unique(),
    // A provider refund is debited once.
    providerRefundId: text("provider_refund_id").unique(),
    promoRedemptionId: integer("promo_redemption_id").references(() => promoRedemptions.id),
    // Why an operator moved the money (adjustments and refunds).
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_user").on(t.userId),
    // A purchase is returned at most once (issue 24): a second return's ledger row aborts its batch.
    uniqueIndex("ledger_return_once").on(t.purchaseId).where(sql`${t.kind} = 'return'`),
    // The console's CSV export walks a period page by page on (created_at, id) (decision 110).
    index("ledger_created").on(t.createdAt, t.id),
    // A deposit's payment of a refund debt, read back in the deposit's own batch (decision 097).
    index("ledger_refund_debt_payment").on(t.paymentId).where(sql`${t.kind} = 'refund_debt'`),
  ],
);

// The catalog's revision: one row, bumped by triggers (migrations 0007, 0010, 0013; their bodies 0021) on
// every write to items, their durations and contents, categories, sales and which server types have a
// server, made by the site or by hand. Pages keep the catalog they read under its revision and read it
// again only when the revision moves (decision 102). Each write moves it to at least the time in ms, so
// a database put back by a restore never gives a revision a process holds to another catalog (decision 153).
export const catalogRevision = sqliteTable("catalog_revision", {
  id: integer("id").primaryKey(),
  revision: integer("revision").notNull(),
});

// What KV holds on Workers (the server list, the payment stand-in's state), on a runtime without KV.
// Unused on D1.
export const keyValues = sqliteTable("key_values", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  // Milliseconds since the epoch; NULL keeps the value until it is overwritten.
  expiresAt: integer("expires_at"),
});

// Who runs the minutely jobs for which minute, when several processes share the database (decision 095).
// Unused on Workers, where Cloudflare's cron fires once.
export const jobLeases = sqliteTable("job_leases", {
  name: text("name").primaryKey(),
  // The minute (ms since the epoch / 60 000) the holder runs.
  slot: integer("slot").notNull(),
  holder: text("holder").notNull(),
  // The holder may run until then; another process may take a later minute only after it.
  heldUntil: integer("held_until").notNull(),
});

// Operators stored in the database (`npm run admins`); ADMIN_STEAM_IDS adds admins from the settings.
export const OPERATOR_ROLES = ["admin", "support"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const operators = sqliteTable("operators", {
  // A SteamID64, so a role can be given before the player first signs in.
  steamId: text("steam_id").primaryKey(),
  role: text("role", { enum: OPERATOR_ROLES }).notNull(),
  createdAt: createdAt(),
});

// One refund per purchase: the unique purchase_id makes a second refund abort its batch.
export const refunds = sqliteTable("refunds", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  purchaseId: integer("purchase_id")
    .notNull()
    .unique()
    .references(() => purchases.id),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
  amount: integer("amount").notNull(),
  reason: text("reason").notNull(),
  operatorUserId: integer("operator_user_id")
    .notNull()
    .references(() => users.id),
  // Names this refund inside its own batch, whose later statements read it back.
  token: text("token").notNull().unique(),
  createdAt: createdAt(),
});

// Append-only (triggers refuse UPDATE and DELETE): every operator action, written in the action's own batch.
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    operatorUserId: integer("operator_user_id")
      .notNull()
      .references(() => users.id),
    operatorSteamId: text("operator_steam_id").notNull(),
    operatorRole: text("operator_role").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    // JSON objects of the fields the action changed, as they were and as they became.
    before: text("before"),
    after: text("after"),
    reason: text("reason"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("audit_log_created").on(t.createdAt), index("audit_log_target").on(t.targetType, t.targetId)],
);

// The console's Discord notifications (decision 110): one row, set by an admin. The operator who set it
// signs the journal line written when a message is dropped.
export const discordSettings = sqliteTable("discord_settings", {
  id: integer("id").primaryKey(),
  webhookUrl: text("webhook_url"),
  // Comma-separated event names (DISCORD_EVENTS in core/admin/discord.ts).
  events: text("events").notNull().default(""),
  updatedByUserId: integer("updated_by_user_id")
    .notNull()
    .references(() => users.id),
  updatedBySteamId: text("updated_by_steam_id").notNull(),
  updatedByRole: text("updated_by_role").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

// Messages waiting for Discord, written in the batch of the event they tell about and sent by the
// minutely job; a sent message's row is deleted, one still failing after a day is dropped with a journal line.
export const discordOutbox = sqliteTable(
  "discord_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    event: text("event").notNull(),
    // JSON: the facts the message text is made of.
    payload: text("payload").notNull(),
    createdAt: createdAt(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
  },
  (t) => [index("discord_outbox_due").on(t.nextAttemptAt)],
);

// The shop's own settings an admin changes in the console: one row (id = 1).
export const shopSettings = sqliteTable(
  "shop_settings",
  {
    id: integer("id").primaryKey(),
    // How long after a purchase its buyer may return it while undelivered; 0 turns returns off (issue 24).
    returnWindowHours: integer("return_window_hours").notNull().default(24),
    updatedAt: integer("updated_at"),
  },
  (t) => [check("shop_settings_return_window", sql`${t.returnWindowHours} >= 0 AND ${t.returnWindowHours} <= 720`)],
);
