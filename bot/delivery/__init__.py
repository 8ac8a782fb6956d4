"""Delivery to Telegram, after the game's lock is released: events become renders for each chat (``notify``,
``group_table``, ``background``), and one publisher sends and edits them through one outbox that keeps
Telegram's limits (``publisher``, ``outbox``, ``budgets``, ``floods``, ``sending``, ``shown``)."""
