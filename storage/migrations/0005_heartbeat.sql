-- One row the health check rewrites: proof that the database still takes writes.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT NOT NULL
);
