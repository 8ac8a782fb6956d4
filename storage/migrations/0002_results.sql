-- Results of finished series and games per seat (the all-time tables and player statistics), the chat
-- id history (a group upgraded to a supergroup changes id) and redelivered-update protection.

CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE,
    user_id INTEGER REFERENCES players (user_id),
    variant TEXT NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    lost INTEGER NOT NULL CHECK (lost IN (0, 1)),
    score INTEGER NOT NULL,
    table_points INTEGER NOT NULL DEFAULT 0,
    with_eggs INTEGER NOT NULL DEFAULT 0 CHECK (with_eggs IN (0, 1)),
    cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled IN (0, 1)),
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX results_by_chat ON results (chat_id, variant);
CREATE INDEX results_by_user ON results (user_id);

CREATE TABLE chat_id_history (
    old_chat_id INTEGER PRIMARY KEY,
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE ON DELETE CASCADE,
    migrated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE processed_updates (
    update_id INTEGER PRIMARY KEY,
    processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
