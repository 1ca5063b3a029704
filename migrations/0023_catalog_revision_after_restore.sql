-- The catalog's revision is never given again after a restore (decision 153). A process keeps the
-- catalog it read under its revision and trusts it while the database's revision is the same
-- (decision 102). Counted by + 1, a database put back (D1 Time Travel, a backup copied back,
-- npm run db:restore) gave the same numbers again to other catalogs, and a process that held one
-- served its old prices. Now each write moves the revision to at least the time in ms: any write
-- after a restore is above every revision written before it, because the clock moved on.
-- Only the triggers' bodies change; the previous release compares revisions for equality only.
DROP TRIGGER IF EXISTS `items_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `items_insert_catalog_revision` AFTER INSERT ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `items_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `items_update_catalog_revision` AFTER UPDATE ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `items_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `items_delete_catalog_revision` AFTER DELETE ON `items`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_durations_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_durations_insert_catalog_revision` AFTER INSERT ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_durations_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_durations_update_catalog_revision` AFTER UPDATE ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_durations_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_durations_delete_catalog_revision` AFTER DELETE ON `item_durations`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_contents_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_contents_insert_catalog_revision` AFTER INSERT ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_contents_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_contents_update_catalog_revision` AFTER UPDATE ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `item_contents_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `item_contents_delete_catalog_revision` AFTER DELETE ON `item_contents`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `categories_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `categories_insert_catalog_revision` AFTER INSERT ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `categories_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `categories_update_catalog_revision` AFTER UPDATE ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `categories_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `categories_delete_catalog_revision` AFTER DELETE ON `categories`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `sales_insert_catalog_revision` AFTER INSERT ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `sales_update_catalog_revision` AFTER UPDATE ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `sales_delete_catalog_revision` AFTER DELETE ON `sales`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `servers_insert_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `servers_insert_catalog_revision` AFTER INSERT ON `servers`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `servers_update_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `servers_update_catalog_revision` AFTER UPDATE OF `server_type` ON `servers`
WHEN OLD.`server_type` IS NOT NEW.`server_type`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `servers_delete_catalog_revision`;
--> statement-breakpoint
CREATE TRIGGER `servers_delete_catalog_revision` AFTER DELETE ON `servers`
BEGIN
	UPDATE `catalog_revision` SET `revision` = MAX(`revision` + 1, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE `id` = 1;
END;
