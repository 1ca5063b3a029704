-- Databases made while 0010 was its first version (commits 4f8a920 to 416f366^) lack this index:
-- 0010 gained it when it was edited in place, and neither drizzle's migrator nor wrangler runs an
-- applied migration again (decision 120). IF NOT EXISTS: every database made since has it already.
-- Returns came with the index, so no database can hold two return rows for one purchase.
CREATE UNIQUE INDEX IF NOT EXISTS `ledger_return_once` ON `ledger` (`purchase_id`) WHERE "ledger"."kind" = 'return';
