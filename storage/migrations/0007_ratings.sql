-- Ratings (storage/rating.py, docs/ratings.md).  Facts first: each result row says who played the seat (a
-- computer level too), his place and his deals won; rated_series keeps the order in which series were rated.
-- Derived from them: each player's rating per game, and its history (one row per seat of a rated series).
ALTER TABLE results ADD COLUMN computer TEXT;
ALTER TABLE results ADD COLUMN place INTEGER CHECK (place IS NULL OR place >= 0);  -- NULL: not rated
ALTER TABLE results ADD COLUMN deals_won INTEGER CHECK (deals_won IS NULL OR deals_won >= 0);

UPDATE results SET computer = (SELECT s.computer FROM seats s WHERE s.game_id = results.game_id
    AND s.seat = results.seat) WHERE user_id IS NULL;

-- The series finished before ratings existed are rated in the order they ended; their places follow from how
-- they ended (winners first, losers last, totals in between: penalties, the lower the better).  Series
-- cancelled before ratings existed stay unrated: no one could have been dodging a rating then.
UPDATE results SET place = (
    SELECT count(*) FROM (
        SELECT DISTINCT r2.won, r2.lost, r2.score FROM results r2 WHERE r2.game_id = results.game_id
        AND (r2.won > results.won OR (r2.won = results.won AND (r2.lost < results.lost
            OR (r2.lost = results.lost AND r2.score < results.score))))
    )
) WHERE cancelled = 0;

CREATE TABLE rated_series (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games (game_id) ON DELETE CASCADE,
    variant TEXT NOT NULL
);

INSERT INTO rated_series (game_id, variant)
    SELECT g.game_id, g.variant FROM games g WHERE g.status = 'finished'
    AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.game_id AND r.place IS NOT NULL)
    ORDER BY g.finished_at, g.game_id;

-- subject: 'p<user id>' for a person, 'c:<level>' for a computer level.
CREATE TABLE ratings (
    variant TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id INTEGER REFERENCES players (user_id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    series INTEGER NOT NULL CHECK (series > 0),
    best INTEGER,  -- the highest settled rating shown so far (NULL until the rating settles)
    PRIMARY KEY (variant, subject)
) WITHOUT ROWID;

CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE rating_history (
    seq INTEGER NOT NULL REFERENCES rated_series (seq) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    subject TEXT NOT NULL,
    variant TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    series INTEGER NOT NULL,
    PRIMARY KEY (seq, seat)
) WITHOUT ROWID;

-- A player's rating before a series is his newest row in that game before it: one seek, however long he plays.
CREATE INDEX rating_history_by_subject ON rating_history (subject, variant, seq);
-- Empty once the first start has counted the deals won of the series stored before ratings.
CREATE INDEX results_deals_won_unknown ON results (game_id) WHERE deals_won IS NULL;
CREATE INDEX results_by_user_chat ON results (user_id, chat_id, variant) WHERE place IS NOT NULL;
-- A person's series (/stats) are found by his seats.
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Who wants to hear, in private, that a game opens in a chat (/notify_me).
CREATE TABLE notify_me (
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES players (user_id),
    since TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (chat_id, user_id)
) WITHOUT ROWID;

CREATE INDEX notify_me_by_user ON notify_me (user_id);
