CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_refund_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`debited` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payment_refunds_amount" CHECK("payment_refunds"."amount" > 0 AND "payment_refunds"."debited" >= 0 AND "payment_refunds"."debited" <= "payment_refunds"."amount")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_refunds_provider_refund_id_unique` ON `payment_refunds` (`provider_refund_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_user` ON `payment_refunds` (`user_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_payment` ON `payment_refunds` (`payment_id`);--> statement-breakpoint
CREATE TABLE `refund_debts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`amount` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "refund_debts_amount_non_negative" CHECK("refund_debts"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE `ledger` ADD `provider_refund_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_provider_refund_id_unique` ON `ledger` (`provider_refund_id`);