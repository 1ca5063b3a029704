CREATE TABLE `sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`percent` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`category_ids` text,
	`server_types` text,
	`cancelled_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "sales_percent" CHECK("sales"."percent" >= 1 AND "sales"."percent" <= 90),
	CONSTRAINT "sales_period" CHECK("sales"."ends_at" > "sales"."starts_at")
);
--> statement-breakpoint
CREATE INDEX `sales_period` ON `sales` (`ends_at`,`starts_at`);--> statement-breakpoint
CREATE TABLE `shop_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`return_window_hours` integer DEFAULT 24 NOT NULL,
	`updated_at` integer,
	CONSTRAINT "shop_settings_return_window" CHECK("shop_settings"."return_window_hours" >= 0 AND "shop_settings"."return_window_hours" <= 720)
);
--> statement-breakpoint
ALTER TABLE `inventory_entries` ADD `return_until` integer;--> statement-breakpoint
ALTER TABLE `inventory_entries` ADD `returned_at` integer;--> statement-breakpoint
ALTER TABLE `purchases` ADD `gift_to_user_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `purchases` ADD `sale_id` integer REFERENCES sales(id);--> statement-breakpoint
CREATE INDEX `purchases_gift_to` ON `purchases` (`gift_to_user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_return_once` ON `ledger` (`purchase_id`) WHERE "ledger"."kind" = 'return';
--> statement-breakpoint
-- The default return window (issue 24): a day; an admin may change it or set 0 to turn returns off.
INSERT INTO `shop_settings` (`id`, `return_window_hours`) VALUES (1, 24);
--> statement-breakpoint
-- Sales change what the shop shows, so their writes move the catalog's revision too (decision 102).
CREATE TRIGGER `sales_insert_catalog_revision` AFTER INSERT ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `sales_update_catalog_revision` AFTER UPDATE ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `sales_delete_catalog_revision` AFTER DELETE ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
