// Deliveries the plugin gave up on, so the operator console's Доставки screen has something to
// retry locally (and the browser tests a failure to retry without waiting out the retry delays).
// They belong to the load-test player, whose Корзина no page test reads.
import { seedItemId } from "./catalog.ts";
import { sqlLiteral } from "./sql.ts";

const PLAYER = "76561198000000009";
const FAILURE = "Group 'vip' doesn't exist";

export const seedFailedDeliveries = [
  { id: "00000000-0000-4000-8000-000000000001", itemId: seedItemId("SOLO", 1), days: 30 },
  { id: "00000000-0000-4000-8000-000000000002", itemId: seedItemId("SOLO", 2), days: 30 },
] as const;

export function deliveriesSeedSql(now = Date.now()): string[] {
  const user = `(SELECT id FROM users WHERE steam_id = ${sqlLiteral(PLAYER)})`;
  return seedFailedDeliveries.flatMap((delivery) => {
    return [
      // Only once: a second seed run finds the delivery and adds nothing.
      `INSERT INTO inventory_entries (user_id, item_id, server_type, duration_days, is_permanent, status, last_error, created_at)
        SELECT ${user}, ${delivery.itemId}, 'SOLO', ${delivery.days}, 0, 'not_used',
          ${sqlLiteral(`Не удалось выдать предмет на сервере: ${FAILURE}`)}, ${now}
        WHERE NOT EXISTS (SELECT 1 FROM deliveries WHERE id = ${sqlLiteral(delivery.id)});`,
      `INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, last_error, created_at)
        SELECT ${sqlLiteral(delivery.id)}, MAX(id), 'grant', 'SOLO', ${sqlLiteral(PLAYER)}, 0, 'failed', 5, ${now}, ${sqlLiteral(FAILURE)}, ${now}
        FROM inventory_entries WHERE user_id = ${user} AND item_id = ${delivery.itemId}
        HAVING NOT EXISTS (SELECT 1 FROM deliveries WHERE id = ${sqlLiteral(delivery.id)}) AND MAX(id) IS NOT NULL;`,
    ];
  });
}
