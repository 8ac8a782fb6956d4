"""An embedded Telegram Bot API server on localhost (aiohttp): the playground's and the tests' Telegram.

It implements the methods the bot uses with Telegram's JSON shapes and limits, and checks every request
against the official description pinned in ``playground/api.json``: an unknown method, an unknown or
missing parameter, or a value of the wrong type fails the request with 400, as Telegram would refuse it —
and is recorded in ``violations`` so a test can fail on it.

People act through it: ``send_text`` and ``press`` put updates in the queue that the bot reads with long
polling; every chat's messages (and their edits) are kept, for the playground's page and for assertions.
Listeners (``listeners``) hear of every new, edited or deleted message and every callback answer; the
state round-trips through ``snapshot``/``load`` so the playground's chats survive a restart.

Flood control (``limits``, a ``Limits``; None: off) answers 429 with ``parameters.retry_after`` past
Telegram's limits, and records each such answer in ``limited``. The model, in Telegram's own time (``Limits.
scaled`` runs it faster, as the tests run the group pacing faster):

- overall: 30 requests a second per bot token, as a bucket of 30 refilled at 30 a second (so a burst of a
  second's worth is taken at once); ``getUpdates`` and ``answerCallbackQuery`` are not counted;
- a group: 20 new messages (``sendMessage``, ``sendPhoto``) in any 60 seconds, a sliding window (edits of a
  group's messages count only overall: the bot edits one table message in place);
- a private chat: one new message a second after a burst of 3 (a bucket of 3 refilled at one a second);
- edits in a private chat: Telegram tolerates a quick run of edits of the same message (a hand changing
  after each card), so they have a bucket of their own per chat: 20 at once, refilled at 2 a second; a
  bot that edits a message more than about twice a second for longer than ten seconds is refused.

A window is forgiven ``slack`` of its length (network delay between the bot's clock and the server's).
Failure injection: ``fail_rate`` of the requests to ``fail_methods`` are answered 502 before they take effect
(drawn from ``fail_random``, seedable), and recorded in ``failed``, as Telegram's bad moments would be.
Any method may be named there (``ALL_METHODS``: every one, getUpdates and answerCallbackQuery included).
Besides, ``slow_rate`` of them are answered ``slow_seconds`` late (they take effect when answered: a delay
longer than the client's timeout is a timeout after Telegram took the request), and ``hang_rate`` of them
are never taken: after ``hang_seconds`` (longer than the client waits, a timeout) they are answered 504.
Each is recorded in ``failed`` as "method: 502 | slow | hang".  ``fail_next`` fails a chosen method's next calls
for certain: answered 500, or with the connection dropped (a network error); recorded as "method: 500 | network".
While ``down``, every request's connection drops, as when Telegram cannot be reached ("method: down").
"""

from __future__ import annotations

from playground.botapi.flood import ALL_METHODS, EXEMPT, FloodControl, Limits
from playground.botapi.server import BotApiServer
from playground.botapi.state import PHOTOS_LOOSE
from playground.botapi.world import BOT_ID, BOT_USERNAME, ApiError, Call, Chat, DroppedConnection, Message, Shown, User

__all__ = [
    "ALL_METHODS",
    "BOT_ID",
    "BOT_USERNAME",
    "EXEMPT",
    "PHOTOS_LOOSE",
    "ApiError",
    "BotApiServer",
    "Call",
    "Chat",
    "DroppedConnection",
    "FloodControl",
    "Limits",
    "Message",
    "Shown",
    "User",
]
