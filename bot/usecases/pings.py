"""A private word when the turn came: a short message with a notification, sent only to a player who has not
moved within a while, and deleted once his turn has passed.  His hand message is never moved for it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from html import escape

from bot.clock import Clock, Handle
from bot.delivery.publisher import Publisher
from bot.i18n import t
from bot.usecases.live import Live, LiveGames

WATCHING = 60.0  # seconds after a press of his hand in which a player is taken to be looking at it


class TurnPings:
    def __init__(
        self,
        publisher: Publisher,
        games: LiveGames,
        clock: Clock,
        telling: Callable[[int], asyncio.Lock],
        *,
        turn_ping: float,
        watching: float,
    ) -> None:
        """``telling``: the lock held while something is told about a game (a notice goes between tellings);
        ``turn_ping``: seconds before a player whose turn came is notified; ``watching``: the same for
        a player who pressed a button of his hand within ``WATCHING`` seconds (he is probably looking at it: a
        notification would only buzz)."""
        self.publisher = publisher
        self.games = games
        self.clock = clock
        self.telling = telling
        self.turn_ping = turn_ping
        self.watching = watching
        self._pressed_at: dict[tuple[int, int], float] = {}  # (game, seat) -> when he last pressed
        self._pings: dict[tuple[int, int], Handle] = {}
        self._pinged: dict[tuple[int, int], tuple[int, int]] = {}  # (game, seat) -> his turn notice (chat, id)

    def pressed(self, game_id: int, seat: int) -> None:
        """He pressed a button of his hand: no notice for this turn, and a longer delay for the next."""
        self.cancel(game_id, seat)
        self._pressed_at[(game_id, seat)] = self.clock.monotonic()

    def delay(self, game_id: int, seat: int) -> float:
        """How long a player whose turn came may take before he is notified: longer when he pressed a
        button of his hand lately (he is probably looking at it)."""
        pressed = self._pressed_at.get((game_id, seat))
        watching = pressed is not None and self.clock.monotonic() - pressed < WATCHING
        return self.watching if watching and self.turn_ping > 0 else self.turn_ping  # 0: every turn

    def forget_presses(self, game_id: int) -> None:
        for key in [k for k in self._pressed_at if k[0] == game_id]:
            del self._pressed_at[key]

    def schedule(self, game_id: int, seat: int, version: int) -> None:
        """Notify a player whose turn came, unless he moves within ``delay`` seconds (a player who is
        watching needs no notification, and an edit costs one call where a notification costs two)."""
        self.cancel(game_id, seat)
        self._pings[(game_id, seat)] = self.clock.later(self.delay(game_id, seat), self.ping, game_id, seat, version)

    def cancel(self, game_id: int, seat: int) -> None:
        if (old := self._pings.pop((game_id, seat), None)) is not None:
            old.cancel()

    async def ping(self, game_id: int, seat: int, version: int) -> None:
        self._pings.pop((game_id, seat), None)
        live = self.games.get(game_id)
        if live is None or live.version != version or live.state.to_move != seat:
            return
        user = live.user_of(seat)
        delay = self.delay(game_id, seat)
        hand = live.seats[seat].hand_message_id
        since = self.clock.monotonic() - delay
        if user is not None and (left := self.publisher.time_left(user, hand, since, delay)) > 0:
            # His hand showed his turn late (Telegram's budget), or has not yet: the delay counts from then.
            self._pings[(game_id, seat)] = self.clock.later(left, self.ping, game_id, seat, version)
            return
        async with self.telling(game_id):
            if live.version == version and self.games.is_current(live):
                await self.send(live, seat)

    async def send(self, live: Live, seat: int) -> None:
        """The notice itself; it is deleted when the turn passes (``drop``)."""
        user = live.user_of(seat)
        if user is None or (live.game_id, seat) in self._pinged:
            return
        text = t(live.lang_of(seat), "turn.ping", chat=escape(live.seating.chat_title))
        message_id = await self.publisher.send(user, text, notify=True)
        if message_id is not None:
            self._pinged[(live.game_id, seat)] = (user, message_id)
        await self.drop(live)  # the turn may have passed while it was on its way

    async def drop(self, live: Live, *, every: bool = False) -> None:
        """Delete the turn notices of ``live`` whose turn has passed (``every``: all, the game is over)."""
        over = every or live.state.is_over or not self.games.is_current(live)
        for key in [k for k in self._pinged if k[0] == live.game_id]:
            if over or live.state.to_move != key[1]:
                chat_id, message_id = self._pinged.pop(key)
                self.publisher.delete_later(chat_id, message_id)  # cleanup: no hand waits behind it

    def stop(self) -> None:
        """No turn notice is sent from now on (a stop has begun)."""
        for handle in self._pings.values():
            handle.cancel()
        self._pings.clear()
