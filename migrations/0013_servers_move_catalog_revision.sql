-- Which server types have a game server is part of what the shop shows (decision 122): a type with
-- none is not sold. So adding or removing a server, or moving one to another type, moves the
-- catalog's revision like a write to the catalog itself (decision 102), from the console, the
-- operator script or SQL typed by hand alike. Other writes to servers (keys, Steam's status) don't.
CREATE TRIGGER `servers_insert_catalog_revision` AFTER INSERT ON `servers`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `servers_update_catalog_revision` AFTER UPDATE OF `server_type` ON `servers`
WHEN OLD.`server_type` IS NOT NEW.`server_type`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `servers_delete_catalog_revision` AFTER DELETE ON `servers`
BEGIN
	UPDATE `catalog_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
END;
