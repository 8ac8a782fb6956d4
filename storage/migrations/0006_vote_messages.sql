-- The group messages of a game's vote to cancel it: when the game ends, however it ends, their button goes
-- (kept here, not in memory, so that a restart in between still finds them).
ALTER TABLE games ADD COLUMN vote_message_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(vote_message_ids));
