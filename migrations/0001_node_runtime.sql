CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`slot` integer NOT NULL,
	`holder` text NOT NULL,
	`held_until` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `key_values` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer
);
