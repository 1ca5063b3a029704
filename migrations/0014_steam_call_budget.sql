CREATE TABLE `steam_call_budget` (
	`scope` text NOT NULL,
	`subject` text NOT NULL,
	`window_start` integer NOT NULL,
	`calls` integer NOT NULL,
	`cap` integer NOT NULL,
	PRIMARY KEY(`scope`, `subject`, `window_start`),
	CONSTRAINT "steam_call_budget_cap" CHECK("steam_call_budget"."calls" <= "steam_call_budget"."cap")
);
--> statement-breakpoint
CREATE INDEX `steam_call_budget_window` ON `steam_call_budget` (`window_start`);