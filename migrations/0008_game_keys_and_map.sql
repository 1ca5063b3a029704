-- Decision 103: plugin keys derived from GAME_KEY_SECRET and a per-server salt (key_hash stays only
-- for legacy keys until they are rotated). Decision 104: deliveries whose ack was refused after a
-- hand-off. The heartbeat's map size, seed and last wipe for the server cards.
ALTER TABLE `deliveries` ADD `ack_refused_at` integer;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `ack_refused_server_id` integer;--> statement-breakpoint
ALTER TABLE `server_heartbeats` ADD `map_size` integer;--> statement-breakpoint
ALTER TABLE `server_heartbeats` ADD `map_seed` integer;--> statement-breakpoint
ALTER TABLE `server_heartbeats` ADD `wiped_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `key_salt` text;