-- Every write to what the shop shows moves the catalog's revision (decision 102): the site's own
-- writes, the operator scripts' and SQL typed by hand alike, so no write path has to remember to.
CREATE TABLE `catalog_revision` (
	`id` integer PRIMARY KEY NOT NULL,
	`revision` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `catalog_revision` (`id`, `revision`) VALUES (1, 1);
--> statement-breakpoint
CREATE TRIGGER `items_insert_catalog_revision` AFTER INSERT ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `items_update_catalog_revision` AFTER UPDATE ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `items_delete_catalog_revision` AFTER DELETE ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_durations_insert_catalog_revision` AFTER INSERT ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_durations_update_catalog_revision` AFTER UPDATE ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_durations_delete_catalog_revision` AFTER DELETE ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_contents_insert_catalog_revision` AFTER INSERT ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_contents_update_catalog_revision` AFTER UPDATE ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `item_contents_delete_catalog_revision` AFTER DELETE ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_insert_catalog_revision` AFTER INSERT ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_update_catalog_revision` AFTER UPDATE ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_delete_catalog_revision` AFTER DELETE ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
