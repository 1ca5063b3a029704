CREATE TABLE `fair_play_windows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_type` text NOT NULL,
	`category_id` integer,
	`item_id` integer,
	`hours` integer NOT NULL,
	`purchases_open` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "fair_play_windows_hours" CHECK("fair_play_windows"."hours" >= 1 AND "fair_play_windows"."hours" <= 72),
	CONSTRAINT "fair_play_windows_target" CHECK(("fair_play_windows"."category_id" IS NULL) <> ("fair_play_windows"."item_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `fair_play_windows_type` ON `fair_play_windows` (`server_type`);--> statement-breakpoint
ALTER TABLE `servers` ADD `last_wipe_at` integer;--> statement-breakpoint
UPDATE `servers` SET `last_wipe_at` = (SELECT MAX(`wiped_at`) FROM `server_wipes` WHERE `server_wipes`.`server_id` = `servers`.`id`);