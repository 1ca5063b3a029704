ALTER TABLE `items` ADD `until_wipe_price` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_schedule_set_at` integer;--> statement-breakpoint
CREATE INDEX `inventory_until_wipe_running` ON `inventory_entries` (`used_server_id`,`used_at`) WHERE "inventory_entries"."status" = 'used' AND "inventory_entries"."duration_days" = 0 AND "inventory_entries"."expires_at" IS NULL;