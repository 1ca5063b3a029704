// Demo promo codes: balance, items (a permanent kit and a 7-day rank) and an expired one.
// Re-running the seed refreshes their settings and keeps their use counters.

import { seedItemId } from "./catalog.ts";
import { promoInsertSql } from "./promo-sql.ts";

export const seedPromos = [
  { code: "WELCOME100", type: "BALANCE", value: 100, maxUses: 1000 },
  { code: "BONUS50", type: "BALANCE", value: 50, maxUses: 1000 },
  { code: "STARTKIT", type: "ITEM", itemId: seedItemId("SOLO", 3), serverType: "SOLO", maxUses: 500 },
  { code: "VIPWEEK", type: "ITEM", itemId: seedItemId("SOLO", 1), serverType: "SOLO", days: 7, maxUses: 500 },
  { code: "SUMMER2025", type: "BALANCE", value: 300, maxUses: 1000, startsAt: "2025-06-01", endsAt: "2025-09-01" },
] as const;

export function promosSeedSql(): string[] {
  return seedPromos.map((promo) => promoInsertSql(promo, { upsert: true }));
}
