-- What the group has been told: the bot commits an action before it sends anything about it, so after a
-- crash between the two it must know which deal results and table messages are still owed.

ALTER TABLE games ADD COLUMN announced_deals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN table_deal_no INTEGER;
