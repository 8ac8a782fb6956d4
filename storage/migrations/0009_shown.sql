-- What the bot's messages showed when it last stopped cleanly (a digest of each one's text and keyboard, and
-- its picture's key): the next start edits only the messages whose render changed, and takes the record away
-- at once, since after a crash it would no longer be true.
CREATE TABLE shown_messages (
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    digest BLOB NOT NULL,
    picture TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
) WITHOUT ROWID;
