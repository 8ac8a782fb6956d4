-- Whether a game's table message is a picture (its caption edited with it) or a text: the kind of a message
-- cannot change, so a restart must know which one it edits.
ALTER TABLE games ADD COLUMN table_picture INTEGER NOT NULL DEFAULT 0 CHECK (table_picture IN (0, 1));
