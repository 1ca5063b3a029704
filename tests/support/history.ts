// A shop's history, generated inside SQLite (INSERT … SELECT from recursive CTEs) behind the hot
// paths' fixture (hot-paths.ts), for the rows bench (bench/rows/): what a busy project has after
// `purchases / 1 000` days at 1 000 purchases and 200 top-ups a day. Every purchase has its ledger
// row, its Корзина entry and its grant delivery; every fifth is a 30-day rank with its revoke
// (pending while the rank runs, done after). The newest 40 entries wait for their players to come
// online, and one in a thousand older ones waits for good (a player who never came back), so the
// poll's "nothing due" meets waiting rows of offline players, more of them as the history grows.
// The fixture's player has the same 200 purchases (or `playerPurchases`) and 50 top-ups at every size:
// a page's own rows stay the same, so what grows is only everyone else's history; `playerPurchases`
// grows the player's own instead (issue 48: a player's pages cost the same whatever their history).
import type { HotFixture } from "./hot-paths.ts";

const DAY = 86_400_000;
export const PURCHASES_PER_DAY = 1_000;
const TOP_UPS_PER_DAY = 200;
/** Game servers of the history besides the fixture's (ten in all). */
const OTHER_SERVERS = 9;
export const PLAYER_PURCHASES = 200;
const PLAYER_TOP_UPS = 50;

export interface HistoryShape {
  purchases: number;
  players: number;
  topUps: number;
  sessions: number;
  days: number;
}

export function historyShape(purchases: number): HistoryShape {
  return {
    purchases,
    players: 2_000 + Math.floor(purchases / 100),
    topUps: Math.floor(purchases / 5),
    sessions: purchases,
    days: purchases / PURCHASES_PER_DAY,
  };
}

const numbers = (count: number) =>
  `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})`;

/** The statements that write the history, in order; `now` is the fixture's clock. */
export function historySql(
  purchases: number,
  fixture: HotFixture,
  now: number,
  playerPurchases = PLAYER_PURCHASES,
): string[] {
  const shape = historyShape(purchases);
  const { players, topUps, sessions } = shape;
  const purchaseGap = DAY / PURCHASES_PER_DAY;
  const topUpGap = DAY / TOP_UPS_PER_DAY;
  const playerEvery = Math.max(1, Math.floor(purchases / playerPurchases));
  const topUpEvery = Math.max(1, Math.floor(topUps / PLAYER_TOP_UPS));
  const me = fixture.player.id;
  const userOf = (i: string, every: number) =>
    `CASE WHEN ${i} % ${every} = 1 THEN ${me} ELSE 1000000 + (${i} * 7919) % ${players} + 1 END`;
  const steamOf = (i: string, every: number) =>
    `CASE WHEN ${i} % ${every} = 1 THEN '${fixture.player.steamId}' ELSE '76561199' || printf('%09d', (${i} * 7919) % ${players} + 1) END`;
  const at = `(${now} - (i + 1) * ${purchaseGap})`;
  const timed = "(i % 5 = 0)";
  const waiting = "(i < 40 OR i % 1000 = 507)";
  const server = `CASE WHEN i % 10 = 0 THEN ${fixture.server.id} ELSE 2000000 + i % 10 END`;
  const usedAt = `(${at} + 60000)`;
  const expiresAt = `(${usedAt} + 30 * ${DAY})`;
  return [
    `INSERT INTO servers (id, name, server_type, ip_port, key_salt, key_rotated_at)
     ${numbers(OTHER_SERVERS)}
     SELECT 2000001 + i, 'Сервер ' || (i + 2), 'SOLO', '10.8.0.' || (i + 1) || ':28015', 'salt' || i, ${now} FROM n`,
    `INSERT INTO users (id, steam_id, nickname, avatar_url, balance, created_at)
     ${numbers(players)}
     SELECT 1000001 + i, '76561199' || printf('%09d', i + 1), 'Игрок ' || (i + 1), '', 0, ${now - shape.days * DAY} FROM n`,
    `INSERT INTO sessions (id, user_id, created_at, expires_at)
     ${numbers(sessions)}
     SELECT 'history-session-' || i, 1000000 + (i * 7919) % ${players} + 1, ${now} - (i + 1) * ${purchaseGap},
       ${now} - (i + 1) * ${purchaseGap} + 30 * ${DAY} FROM n`,
    `INSERT INTO payments (id, user_id, provider, provider_payment_id, amount, email, status, created_at, completed_at)
     ${numbers(topUps)}
     SELECT 'history-pay-' || i, ${userOf("i", topUpEvery)}, 'standin', 'history-provider-' || i, 50000,
       'player@example.com', 'completed', ${now} - (i + 1) * ${topUpGap}, ${now} - (i + 1) * ${topUpGap} + 30000 FROM n`,
    `INSERT INTO ledger (user_id, amount, kind, payment_id, provider_payment_id, created_at)
     SELECT user_id, amount, 'deposit', id, provider_payment_id, completed_at FROM payments WHERE id LIKE 'history-pay-%'`,
    `INSERT INTO purchases (id, user_id, item_id, transaction_id, idempotency_key, server_type, duration_days, price, status, paid_at, created_at)
     ${numbers(purchases)}
     SELECT 10000000 + i, ${userOf("i", playerEvery)}, CASE WHEN ${timed} THEN ${fixture.rankId} ELSE ${fixture.itemId} END,
       'history-tx-' || i, 'history-key-' || i, 'SOLO', CASE WHEN ${timed} THEN 30 END,
       CASE WHEN ${timed} THEN 30000 ELSE 4900 END, 'completed', ${at}, ${at} FROM n`,
    `INSERT INTO ledger (user_id, amount, kind, purchase_id, created_at)
     SELECT user_id, -price, 'purchase', id, paid_at FROM purchases WHERE id >= 10000000`,
    `INSERT INTO inventory_entries (id, user_id, item_id, purchase_id, server_type, duration_days, is_permanent, status, used_at, used_server_id, expires_at, created_at)
     ${numbers(purchases)}
     SELECT 10000000 + i, ${userOf("i", playerEvery)}, CASE WHEN ${timed} THEN ${fixture.rankId} ELSE ${fixture.itemId} END,
       10000000 + i, 'SOLO', CASE WHEN ${timed} THEN 30 END, CASE WHEN ${timed} THEN 0 ELSE 1 END,
       CASE WHEN ${waiting} THEN 'not_used' ELSE 'used' END,
       CASE WHEN ${waiting} THEN NULL ELSE ${usedAt} END, CASE WHEN ${waiting} THEN NULL ELSE ${server} END,
       CASE WHEN ${waiting} OR NOT ${timed} THEN NULL ELSE ${expiresAt} END, ${at} FROM n`,
    `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, done_at, done_server_id, leased_server_id, created_at)
     ${numbers(purchases)}
     SELECT '00000000-0000-4000-8000-' || printf('%012d', i), 10000000 + i, 'grant', 'SOLO', ${steamOf("i", playerEvery)}, 1,
       CASE WHEN ${waiting} THEN 'pending' ELSE 'done' END, 0, ${at},
       CASE WHEN ${waiting} THEN NULL ELSE ${usedAt} END, CASE WHEN ${waiting} THEN NULL ELSE ${server} END,
       CASE WHEN ${waiting} THEN NULL ELSE ${server} END, ${at} FROM n`,
    `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, done_at, done_server_id, leased_server_id, created_at)
     ${numbers(purchases)}
     SELECT '00000000-0000-4000-9000-' || printf('%012d', i), 10000000 + i, 'revoke', 'SOLO', ${steamOf("i", playerEvery)}, 0,
       CASE WHEN ${expiresAt} > ${now} THEN 'pending' ELSE 'done' END, 0, ${expiresAt},
       CASE WHEN ${expiresAt} > ${now} THEN NULL ELSE ${expiresAt} + 60000 END,
       CASE WHEN ${expiresAt} > ${now} THEN NULL ELSE ${server} END,
       CASE WHEN ${expiresAt} > ${now} THEN NULL ELSE ${server} END, ${usedAt}
     FROM n WHERE ${timed} AND NOT ${waiting}`,
    // Every entry's grant is queued: a poll has taken them off the type's list of new entries (decision 126).
    "UPDATE deliveries_waiting SET entry_ids = '[]'",
    `INSERT INTO audit_log (operator_user_id, operator_steam_id, operator_role, action, target_type, target_id, created_at)
     ${numbers(Math.max(1, Math.floor(purchases / 100)))}
     SELECT ${me}, '${fixture.player.steamId}', 'admin', 'player.adjust', 'player', '76561199' || printf('%09d', i % ${players} + 1),
       ${now} - (i + 1) * ${purchaseGap * 100} FROM n`,
    `INSERT INTO promo_attempts (user_id, ip, created_at)
     ${numbers(Math.max(1, Math.floor(purchases / 100)))}
     SELECT 1000000 + i % ${players} + 1, '10.7.' || (i % 250) || '.' || (i % 199), ${now} - (i + 1) * ${purchaseGap * 100} FROM n`,
  ];
}

/** The tables whose rows the report counts, as "rows of history". */
export const HISTORY_TABLES = [
  "users",
  "sessions",
  "payments",
  "purchases",
  "ledger",
  "inventory_entries",
  "deliveries",
  "audit_log",
  "promo_attempts",
] as const;

/**
 * Only the fixture player's own history, with ids of their own (so several players fit in one
 * database): `purchases` kits a minute apart, each with its Корзина entry, the newest three waiting
 * for delivery and the rest delivered (issue 48: what a player's own pages read against their history).
 */
export function playerHistorySql(purchases: number, fixture: HotFixture, now: number): string[] {
  const me = fixture.player.id;
  return [
    `INSERT INTO purchases (user_id, item_id, transaction_id, idempotency_key, server_type, price, status, paid_at, created_at)
     ${numbers(purchases)}
     SELECT ${me}, ${fixture.itemId}, 'own-tx-${me}-' || i, 'own-key-${me}-' || i, 'SOLO', 4900, 'completed',
       ${now} - (i + 1) * 60000, ${now} - (i + 1) * 60000 FROM n`,
    `INSERT INTO inventory_entries (user_id, item_id, purchase_id, server_type, is_permanent, status, used_at, created_at)
     SELECT user_id, item_id, id, 'SOLO', 1, CASE WHEN created_at >= ${now} - 3 * 60000 THEN 'not_used' ELSE 'used' END,
       CASE WHEN created_at >= ${now} - 3 * 60000 THEN NULL ELSE created_at + 60000 END, created_at
     FROM purchases WHERE user_id = ${me}`,
  ];
}
