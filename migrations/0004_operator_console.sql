CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_user_id` integer NOT NULL,
	`operator_steam_id` text NOT NULL,
	`operator_role` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`before` text,
	`after` text,
	`reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_created` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE TABLE `operators` (
	`steam_id` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purchase_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`operator_user_id` integer NOT NULL,
	`token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`purchase_id`) REFERENCES `purchases`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`operator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_purchase_id_unique` ON `refunds` (`purchase_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_token_unique` ON `refunds` (`token`);--> statement-breakpoint
ALTER TABLE `ledger` ADD `note` text;--> statement-breakpoint
ALTER TABLE `users` ADD `purchases_blocked` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `payments_status_completed` ON `payments` (`status`,`completed_at`,`amount`,`user_id`);--> statement-breakpoint
CREATE INDEX `purchases_status_paid` ON `purchases` (`status`,`paid_at`,`item_id`,`price`,`user_id`);