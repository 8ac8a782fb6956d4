"""The Mini App: the table and one's hand on one page inside Telegram, a second way to play the same game
through the same use cases (``server``); who asks is proved by Telegram's signed initData (``auth``), what a
page is shown is that person's view (``state``), and the pages of a game hear of each change (``hub``)."""
