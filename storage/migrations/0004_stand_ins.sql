-- Table manners: a computer player standing in for an absent person, and the person's missed turns in a row.
ALTER TABLE seats ADD COLUMN stand_in TEXT;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
-- A cancel vote: who of the seated players voted (JSON list of user ids).
ALTER TABLE games ADD COLUMN cancel_votes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(cancel_votes));
