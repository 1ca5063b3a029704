-- The free plan holds a busy project (issue 37, decision 126).
-- * Replay protection writes a row only for a signed plugin request that changes something
--   (game_request_marks, one row per server, instead of a row per request in game_request_nonces);
--   a heartbeat is written only with a later timestamp (server_heartbeats.signed_at).
-- * Partial indexes let a poll read only the deliveries of its online players and the due ones that
--   need nobody online, the upkeep only the revokes that are due, an ack only the player's running
--   ranks, and a deposit find its refund-debt row without reading the ledger.
-- * A player's purchases are read newest first through purchases_user_created (user_id, created_at,
--   id), in place of purchases_user (user_id), and purchases_gift_to holds gifts only.
-- * deliveries_waiting keeps, per server type, who has a delivery waiting to be online (steam_ids) and
--   the Корзина entries made since a poll last queued their grants (entry_ids): a poll reads that one
--   row instead of asking about each online player or looking for entries without a grant. Triggers
--   below keep it; the hourly upkeep rebuilds steam_ids, and a poll takes out the entries it queued.
CREATE TABLE `deliveries_waiting` (
	`server_type` text PRIMARY KEY NOT NULL,
	`steam_ids` text DEFAULT '[]' NOT NULL,
	`entry_ids` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `game_request_marks` (
	`server_id` integer PRIMARY KEY NOT NULL,
	`newest` integer NOT NULL,
	`recent` text NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP TABLE `game_request_nonces`;--> statement-breakpoint
DROP INDEX `purchases_user`;--> statement-breakpoint
DROP INDEX `purchases_gift_to`;--> statement-breakpoint
CREATE INDEX `purchases_user_created` ON `purchases` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `purchases_gift_to` ON `purchases` (`gift_to_user_id`) WHERE "purchases"."gift_to_user_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `server_heartbeats` ADD `signed_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `deliveries_pending_player` ON `deliveries` (`steam_id`,`server_type`) WHERE "deliveries"."status" = 'pending' AND "deliveries"."requires_online" = 1;--> statement-breakpoint
CREATE INDEX `deliveries_pending_offline` ON `deliveries` (`server_type`,`not_before`) WHERE "deliveries"."status" = 'pending' AND "deliveries"."requires_online" = 0;--> statement-breakpoint
CREATE INDEX `deliveries_pending_revoke` ON `deliveries` (`not_before`) WHERE "deliveries"."status" = 'pending' AND "deliveries"."kind" = 'revoke';--> statement-breakpoint
CREATE INDEX `inventory_waiting_created` ON `inventory_entries` (`created_at`) WHERE "inventory_entries"."status" = 'not_used';--> statement-breakpoint
CREATE INDEX `inventory_timed_expiry` ON `inventory_entries` (`expires_at`) WHERE "inventory_entries"."status" = 'used' AND "inventory_entries"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `inventory_timed_player` ON `inventory_entries` (`user_id`,`used_server_id`,`expires_at`) WHERE "inventory_entries"."status" = 'used' AND "inventory_entries"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `item_commands_item` ON `item_commands` (`item_id`,`phase`);--> statement-breakpoint
CREATE INDEX `ledger_refund_debt_payment` ON `ledger` (`payment_id`) WHERE "ledger"."kind" = 'refund_debt';--> statement-breakpoint
CREATE TRIGGER `deliveries_waiting_on_insert` AFTER INSERT ON `deliveries`
WHEN NEW.`status` = 'pending' AND NEW.`requires_online` = 1
BEGIN
  INSERT INTO `deliveries_waiting` (`server_type`, `steam_ids`) VALUES (NEW.`server_type`, json_array(NEW.`steam_id`))
  ON CONFLICT (`server_type`) DO UPDATE SET `steam_ids` = json_insert(`steam_ids`, '$[#]', NEW.`steam_id`)
  WHERE NOT EXISTS (SELECT 1 FROM json_each(`deliveries_waiting`.`steam_ids`) WHERE value = NEW.`steam_id`);
END;--> statement-breakpoint
CREATE TRIGGER `deliveries_waiting_on_pending` AFTER UPDATE OF `status` ON `deliveries`
WHEN NEW.`status` = 'pending' AND OLD.`status` <> 'pending' AND NEW.`requires_online` = 1
BEGIN
  INSERT INTO `deliveries_waiting` (`server_type`, `steam_ids`) VALUES (NEW.`server_type`, json_array(NEW.`steam_id`))
  ON CONFLICT (`server_type`) DO UPDATE SET `steam_ids` = json_insert(`steam_ids`, '$[#]', NEW.`steam_id`)
  WHERE NOT EXISTS (SELECT 1 FROM json_each(`deliveries_waiting`.`steam_ids`) WHERE value = NEW.`steam_id`);
END;--> statement-breakpoint
CREATE TRIGGER `deliveries_waiting_new_entry` AFTER INSERT ON `inventory_entries`
WHEN NEW.`status` = 'not_used'
BEGIN
  INSERT INTO `deliveries_waiting` (`server_type`, `entry_ids`) VALUES (NEW.`server_type`, json_array(NEW.`id`))
  ON CONFLICT (`server_type`) DO UPDATE SET `entry_ids` = json_insert(`entry_ids`, '$[#]', NEW.`id`);
END;--> statement-breakpoint
INSERT INTO `deliveries_waiting` (`server_type`, `steam_ids`)
  SELECT `server_type`, json_group_array(DISTINCT `steam_id`) FROM `deliveries`
  WHERE `status` = 'pending' AND `requires_online` = 1 GROUP BY `server_type`
  ON CONFLICT (`server_type`) DO UPDATE SET `steam_ids` = excluded.`steam_ids`;--> statement-breakpoint
INSERT INTO `deliveries_waiting` (`server_type`, `entry_ids`)
  SELECT e.`server_type`, json_group_array(e.`id`) FROM `inventory_entries` e
  WHERE e.`status` = 'not_used'
    AND NOT EXISTS (SELECT 1 FROM `deliveries` d WHERE d.`inventory_entry_id` = e.`id` AND d.`kind` = 'grant')
  GROUP BY e.`server_type`
  ON CONFLICT (`server_type`) DO UPDATE SET `entry_ids` = excluded.`entry_ids`;
