-- Decision 128: each server's wipe schedule in Moscow time, and wipe sales.
-- servers: the kind ('none' until an operator sets it, so no server is promised a wipe it didn't announce) and
-- the columns that kind uses: the weekday and minute of a weekly wipe, the period, first date and minute of an
-- every-N-weeks one. Facepunch's forced wipe is not stored: it is the first Thursday of every month, counted
-- for every kind but 'none'.
-- wipe_sales: a percent off for some hours after each wipe of a type; the cron adds each wipe's window as an
-- ordinary sales row (wipe_sale_id), once per sale, type and start (sales_wipe_window).
-- server_wipes: each new map a plugin reported, once per wipe, so the site knows when wipes actually happened.
CREATE TABLE `server_wipes` (
	`server_id` integer NOT NULL,
	`wiped_at` integer NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`server_id`, `wiped_at`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `wipe_sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`percent` integer NOT NULL,
	`hours` integer NOT NULL,
	`category_ids` text,
	`server_types` text,
	`cancelled_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "wipe_sales_percent" CHECK("wipe_sales"."percent" >= 1 AND "wipe_sales"."percent" <= 90),
	CONSTRAINT "wipe_sales_hours" CHECK("wipe_sales"."hours" >= 1 AND "wipe_sales"."hours" <= 72)
);
--> statement-breakpoint
ALTER TABLE `sales` ADD `wipe_sale_id` integer REFERENCES wipe_sales(id);--> statement-breakpoint
CREATE UNIQUE INDEX `sales_wipe_window` ON `sales` (`wipe_sale_id`,`server_types`,`starts_at`);--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_kind` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_weekday` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_minute` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_every_weeks` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_from` text;