CREATE TABLE `discord_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `discord_outbox_due` ON `discord_outbox` (`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `discord_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`webhook_url` text,
	`events` text DEFAULT '' NOT NULL,
	`updated_by_user_id` integer NOT NULL,
	`updated_by_steam_id` text NOT NULL,
	`updated_by_role` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ledger_created` ON `ledger` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_created` ON `payments` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `purchases_created` ON `purchases` (`created_at`,`id`);