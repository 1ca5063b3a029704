-- Decision 128: each server's wipe schedule in Moscow time. The kind ('none' until an operator sets it, so
-- no server is promised a wipe it didn't announce) and the columns that kind uses: the weekday and minute of
-- a weekly wipe, the period, first date and minute of an every-N-weeks one. Facepunch's forced wipe is not
-- stored: it is the first Thursday of every month, counted for every kind but 'none'.
ALTER TABLE `servers` ADD `wipe_kind` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_weekday` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_minute` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_every_weeks` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `wipe_from` text;