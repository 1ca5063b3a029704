import { type SQL, sql } from "drizzle-orm";
import { type Statement, statement } from "../../ports/database.ts";

/**
 * The grant delivery of the inventory entry the batch's previous statement inserted, written in the
 * same batch as the entry (a purchase, a promo code), so a poll never has to look for entries
 * without one (decision 126). `sameEntry` names the entry a second way (its purchase, its
 * redemption), so a batch whose entry insert matched nothing can't give another entry a grant.
 */
export function grantOfInsertedEntry(now: number, sameEntry: SQL): Statement {
  return statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
    SELECT ${crypto.randomUUID()}, e.id, 'grant', e.server_type, u.steam_id, i.requires_online, 'pending', 0, ${now}, ${now}
    FROM inventory_entries e JOIN users u ON u.id = e.user_id JOIN items i ON i.id = e.item_id
    WHERE e.id = last_insert_rowid() AND ${sameEntry} AND e.status = 'not_used'
    ON CONFLICT DO NOTHING`);
}

/** The grant delivery of entry `entryId`, when it has none (scripts and tests that make entries by hand). */
export function grantOfEntry(now: number, entryId: number): Statement {
  return statement(sql`INSERT INTO deliveries (id, inventory_entry_id, kind, server_type, steam_id, requires_online, status, attempts, not_before, created_at)
    SELECT ${crypto.randomUUID()}, e.id, 'grant', e.server_type, u.steam_id, i.requires_online, 'pending', 0, ${now}, ${now}
    FROM inventory_entries e JOIN users u ON u.id = e.user_id JOIN items i ON i.id = e.item_id
    WHERE e.id = ${entryId} AND e.status = 'not_used'
    ON CONFLICT DO NOTHING`);
}
