-- Decision 132: a revoke goes to every server where a grant of the entry took effect. A revoke for a
-- server other than the entry's own names it (revoke_server_id); the due ones are read through their own
-- partial index. Additive: the previous release never reads the column, and leases no such row (their
-- kind, `revoke@<server>`, matches no item command it renders).
ALTER TABLE `deliveries` ADD `revoke_server_id` integer;--> statement-breakpoint
CREATE INDEX `deliveries_pending_split_revoke` ON `deliveries` (`not_before`) WHERE "deliveries"."status" = 'pending' AND "deliveries"."revoke_server_id" IS NOT NULL;