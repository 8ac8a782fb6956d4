-- No column falls back on SQLite's own clock: every time a row keeps is the bot's (storage.db NOW), so a
-- statement that forgot its time fails on NOT NULL instead of reading another clock. A default is only the
-- table's text in the schema, so it is changed there, the way SQLite documents for defaults, without
-- rebuilding the tables.
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = replace(sql, ' DEFAULT (strftime(''%Y-%m-%dT%H:%M:%fZ'', ''now''))', '')
WHERE type = 'table';
PRAGMA writable_schema = OFF;
