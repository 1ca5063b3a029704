-- An operator may hide a category (decision 119): it and its items leave the shop, the console keeps them.
-- The categories triggers of 0007 move the catalog's revision on the update that hides or shows one.
ALTER TABLE `categories` ADD `hidden` integer DEFAULT false NOT NULL;
