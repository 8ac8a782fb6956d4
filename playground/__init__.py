"""The playground: the real bot on an embedded Bot API server, with a web page that shows its chats."""
