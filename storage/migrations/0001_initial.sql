-- Chats, players, games with their seats, the append-only action log and finished deals.

CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE chats (
    chat_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT 'group',
    settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE players (
    user_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    username TEXT,
    language TEXT,
    chosen_language TEXT,
    can_message INTEGER NOT NULL DEFAULT 0 CHECK (can_message IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE games (
    game_id INTEGER PRIMARY KEY,
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE,
    variant TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'lobby' CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    creator_id INTEGER REFERENCES players (user_id),
    action_count INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    deal_no INTEGER NOT NULL DEFAULT 0,
    totals TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(totals)),
    outcome TEXT CHECK (outcome IS NULL OR json_valid(outcome)),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at TEXT,
    finished_at TEXT
);

-- RULES X2: a chat runs at most one series or game at a time.
CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id INTEGER REFERENCES players (user_id),
    computer TEXT,
    hand_message_id INTEGER,
    hand_deal_no INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) <> (computer IS NULL))
) WITHOUT ROWID;

-- The append-only log: (game, seq) is unique, so the same move submitted twice is stored once.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    action TEXT NOT NULL,
    user_id INTEGER,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE deals (
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    deal_no INTEGER NOT NULL,
    result TEXT NOT NULL CHECK (json_valid(result)),
    PRIMARY KEY (game_id, deal_no)
) WITHOUT ROWID;
