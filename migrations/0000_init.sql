CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`inventory_entry_id` integer NOT NULL,
	`kind` text NOT NULL,
	`server_type` text NOT NULL,
	`steam_id` text NOT NULL,
	`requires_online` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`not_before` integer NOT NULL,
	`lease_until` integer,
	`leased_server_id` integer,
	`last_error` text,
	`done_at` integer,
	`done_server_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`inventory_entry_id`) REFERENCES `inventory_entries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_entry_kind` ON `deliveries` (`inventory_entry_id`,`kind`);--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`server_type`,`status`,`not_before`);--> statement-breakpoint
CREATE TABLE `game_request_nonces` (
	`server_id` integer NOT NULL,
	`signature` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`server_id`, `signature`)
);
--> statement-breakpoint
CREATE INDEX `game_request_nonces_seen` ON `game_request_nonces` (`seen_at`);--> statement-breakpoint
CREATE TABLE `inventory_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`purchase_id` integer,
	`promo_redemption_id` integer,
	`server_type` text NOT NULL,
	`duration_days` integer,
	`is_permanent` integer NOT NULL,
	`status` text DEFAULT 'not_used' NOT NULL,
	`used_at` integer,
	`used_server_id` integer,
	`expires_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`purchase_id`) REFERENCES `purchases`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`promo_redemption_id`) REFERENCES `promo_redemptions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`used_server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `inventory_user` ON `inventory_entries` (`user_id`);--> statement-breakpoint
CREATE TABLE `item_commands` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`phase` text NOT NULL,
	`template` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `item_contents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`item` text NOT NULL,
	`img` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `item_durations` (
	`item_id` integer NOT NULL,
	`days` integer NOT NULL,
	`price` integer,
	PRIMARY KEY(`item_id`, `days`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "item_durations_days" CHECK("item_durations"."days" > 0)
);
--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`price` integer NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`img` text NOT NULL,
	`server_type` text NOT NULL,
	`category_id` integer NOT NULL,
	`is_one_time` integer DEFAULT false NOT NULL,
	`is_available` integer DEFAULT true NOT NULL,
	`reload_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer,
	`end_time` integer,
	`max_quantity` integer,
	`sold_quantity` integer DEFAULT 0 NOT NULL,
	`requires_online` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "items_price_non_negative" CHECK("items"."price" >= 0),
	CONSTRAINT "items_discount_range" CHECK("items"."discount" >= 0 AND "items"."discount" <= 100),
	CONSTRAINT "items_stock" CHECK("items"."max_quantity" IS NULL OR "items"."sold_quantity" <= "items"."max_quantity")
);
--> statement-breakpoint
CREATE INDEX `items_type_category` ON `items` (`server_type`,`category_id`);--> statement-breakpoint
CREATE TABLE `ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`kind` text NOT NULL,
	`purchase_id` integer,
	`payment_id` text,
	`provider_payment_id` text,
	`promo_redemption_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`purchase_id`) REFERENCES `purchases`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`promo_redemption_id`) REFERENCES `promo_redemptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_provider_payment_id_unique` ON `ledger` (`provider_payment_id`);--> statement-breakpoint
CREATE INDEX `ledger_user` ON `ledger` (`user_id`);--> statement-breakpoint
CREATE TABLE `openid_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_id` text,
	`amount` integer NOT NULL,
	`email` text NOT NULL,
	`status` text NOT NULL,
	`confirmation_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payments_amount_positive" CHECK("payments"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_payment_id_unique` ON `payments` (`provider_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_user` ON `payments` (`user_id`);--> statement-breakpoint
CREATE TABLE `promo_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`ip` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `promo_attempts_user` ON `promo_attempts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `promo_attempts_ip` ON `promo_attempts` (`ip`,`created_at`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`type` text NOT NULL,
	`value` integer,
	`item_id` integer,
	`item_server_type` text,
	`item_duration_days` integer,
	`starts_at` integer,
	`ends_at` integer,
	`max_uses` integer NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "promo_codes_limit" CHECK("promo_codes"."used_count" <= "promo_codes"."max_uses"),
	CONSTRAINT "promo_codes_shape" CHECK(("promo_codes"."type" = 'BALANCE' AND "promo_codes"."value" > 0) OR ("promo_codes"."type" = 'ITEM' AND "promo_codes"."item_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_code_unique` ON `promo_codes` (`code`);--> statement-breakpoint
CREATE TABLE `promo_redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`promo_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`promo_id`) REFERENCES `promo_codes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_redemptions_once` ON `promo_redemptions` (`promo_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `purchases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`transaction_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`server_type` text NOT NULL,
	`duration_days` integer,
	`price` integer NOT NULL,
	`status` text NOT NULL,
	`paid_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `purchases_transaction_id_unique` ON `purchases` (`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `purchases_user_idempotency` ON `purchases` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `purchases_user` ON `purchases` (`user_id`);--> statement-breakpoint
CREATE TABLE `server_heartbeats` (
	`server_id` integer PRIMARY KEY NOT NULL,
	`hostname` text NOT NULL,
	`players` integer NOT NULL,
	`max_players` integer NOT NULL,
	`queue` integer DEFAULT 0 NOT NULL,
	`map` text,
	`online_steam_ids` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`server_type` text NOT NULL,
	`ip_port` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`key_hash` text,
	`key_rotated_at` integer,
	`steam_seen_at` integer,
	`steam_players` integer,
	`steam_max_players` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `servers_ip_port_unique` ON `servers` (`ip_port`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`steam_id` text NOT NULL,
	`nickname` text NOT NULL,
	`avatar_url` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer,
	CONSTRAINT "users_balance_non_negative" CHECK("users"."balance" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_steam_id_unique` ON `users` (`steam_id`);