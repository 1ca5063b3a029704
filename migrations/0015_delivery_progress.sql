-- Decision 124: delivery exactly once. Each delivery keeps the commands fixed at its first lease and
-- what the plugins reported per command (progress), the server holding its effects (home) and its
-- wait for a world save, its lease count (a failure counts once per lease) and its operator retries.
-- Each server counts accepted acknowledgements (ack_seq), so a plugin can tell a restored site, and
-- may be marked to send its results again after a restore (needs_resync).
ALTER TABLE `deliveries` ADD `commands` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `progress` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `saving_since` integer;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `home_server_id` integer;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `lease_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `counted_lease` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `retries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `ack_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `needs_resync` integer DEFAULT false NOT NULL;