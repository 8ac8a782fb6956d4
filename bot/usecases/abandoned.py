"""A game nobody plays ends by itself, so that its chat is free for the next one.

- **Deserted:** every seat is played by a computer (each person has left the group, blocked the bot, been
  kicked, or let his turns run out), and nobody has come back for ``deserted`` seconds: the computers would
  only play on for nobody.
- **Idle:** no move at all for ``idle`` seconds (a chat without a turn timer whose players went away: nothing
  else would ever end it).

Either ends the game as a cancel does (``Votes.end``): its results are kept, marked cancelled, and a series
past its first deal is rated as it stood (docs/ratings.md).  The times count from the last change of the game
or from the bot's start, whichever is later.
"""

from __future__ import annotations

from bot.clock import Clock, Handle
from bot.i18n import t, tn
from bot.usecases.live import Live, LiveGames
from bot.usecases.stored import once_stored
from bot.usecases.table import Tell, ignore
from bot.usecases.votes import Votes
from storage import Storage


class Abandonment:
    def __init__(
        self,
        storage: Storage,
        games: LiveGames,
        votes: Votes,
        clock: Clock,
        *,
        idle: float,
        deserted: float,
        tell: Tell = ignore,
    ) -> None:
        """``idle``, ``deserted``: seconds (0: never)."""
        self.storage = storage
        self.games = games
        self.votes = votes
        self.clock = clock
        self.idle = idle
        self.deserted = deserted
        self.tell = tell
        self._handles: dict[int, Handle] = {}
        self._deserted_since: dict[int, float] = {}
        self.ended = 0  # games ended by this

    def moved(self, live: Live) -> None:
        """The game changed (a move, a seat taken or given back, a start): count its time anew."""
        game_id = live.game_id
        self.stop(game_id, forget=False)
        if live.state.is_over or not self.games.is_current(live):
            self._deserted_since.pop(game_id, None)
            return
        now = self.clock.monotonic()
        if all(live.level_of(seat) is not None for seat in range(len(live.seats))):
            since = self._deserted_since.setdefault(game_id, now)
            due, key = (since + self.deserted, "game.deserted") if self.deserted else (None, "")
        else:
            self._deserted_since.pop(game_id, None)
            due, key = (now + self.idle, "game.idle") if self.idle else (None, "")
        if due is not None:
            self._handles[game_id] = self.clock.later(max(0.0, due - now), self._end, game_id, key)

    def stop(self, game_id: int, *, forget: bool = True) -> None:
        if (handle := self._handles.pop(game_id, None)) is not None:
            handle.cancel()
        if forget:
            self._deserted_since.pop(game_id, None)

    async def _end(self, game_id: int, key: str) -> None:
        self._handles.pop(game_id, None)
        await once_stored(self.storage.db, lambda: self._ended(game_id, key))

    async def _ended(self, game_id: int, key: str) -> None:
        async with self.games.lock(game_id):
            live = self.games.get(game_id)
            game = await self.storage.games.get(game_id)
            if live is None or game is None or game.status != "active":
                return
            hours = max(1, round(self.idle / 3600))
            notice = tn(live.chat_lang, key, hours) if key == "game.idle" else t(live.chat_lang, key)
            events = await self.votes.end(game, notice)
            self.ended += 1
        await self.tell(events)

    def close(self) -> None:
        for game_id in list(self._handles):
            self.stop(game_id)
