"""Turn timers, a use case that waits on the clock: the turn of the person to move is timed (a reminder at
half time; on expiry the computer moves for him, and after two in a row keeps his seat)."""

from __future__ import annotations

from bot.clock import Clock, Handle
from bot.delivery.notify import Notifier
from bot.usecases.computers import Computers
from bot.usecases.events import TurnMissed
from bot.usecases.live import Live, LiveGames
from bot.usecases.stored import once_stored
from bot.usecases.table import Table


class TurnTimers:
    """The turn timer of each running game (chat setting ``turn_timer``, 0: off), for a person to move."""

    def __init__(
        self,
        games: LiveGames,
        table: Table,
        computers: Computers,
        notifier: Notifier,
        clock: Clock,
    ) -> None:
        self.games = games
        self.table = table
        self.computers = computers
        self.notifier = notifier
        self.clock = clock
        self._timers: dict[int, dict[str, Handle]] = {}  # game -> its "expire" and "remind" jobs
        self._reminders: dict[int, tuple[int, int]] = {}  # game -> the private reminder of the current turn

    def arm(self, live: Live, elapsed: float = 0.0) -> None:
        """The state moved on: time the turn of the person to move (a reminder at half time, and on expiry
        the computer player moves for him); ``elapsed``: seconds of it already gone (after a restart).  His
        time counts from when his hand has shown him his turn (``Publisher.time_left``)."""
        game_id = live.game_id
        self.stop(game_id)
        seat = live.state.to_move
        seconds = live.settings.turn_timer
        if not self.games.is_current(live) or seconds <= 0 or seat is None:
            return
        if live.level_of(seat) is not None or live.user_of(seat) is None:
            return
        version = live.version
        start = self.clock.monotonic() - elapsed
        handles = self._timers[game_id] = {
            "expire": self.clock.later(seconds - elapsed, self.expire, game_id, seat, version, start)
        }
        if elapsed < seconds / 2:
            left = live.settings.turn_timer - live.settings.turn_timer // 2
            handles["remind"] = self.clock.later(
                seconds / 2 - elapsed, self.remind, game_id, seat, version, left, start
            )

    def _later(self, live: Live, seat: int, start: float, seconds: float) -> float:
        """Seconds until ``seconds`` of his turn are over, counted from when his hand showed it (0: now)."""
        user = live.user_of(seat)
        if user is None:
            return 0.0
        return self.notifier.publisher.time_left(user, live.seats[seat].hand_message_id, start, seconds)

    def stop(self, game_id: int) -> None:
        for handle in self._timers.pop(game_id, {}).values():
            handle.cancel()
        reminder = self._reminders.pop(game_id, None)
        if reminder is not None:  # the turn is over: its reminder goes
            self.clock.tasks.spawn(self._delete(*reminder))

    async def _delete(self, chat_id: int, message_id: int) -> None:
        await self.notifier.publisher.delete(chat_id, message_id)

    async def remind(self, game_id: int, seat: int, version: int, left: int, start: float) -> None:
        if self.games.get(game_id) is None:
            return
        async with self.games.lock(game_id):
            live = self.games.get(game_id)
            user = live.user_of(seat) if live else None
            if live is None or user is None or live.version != version or live.state.to_move != seat:
                return
            if (later := self._later(live, seat, start, live.settings.turn_timer / 2)) > 0:
                self._timers.setdefault(game_id, {})["remind"] = self.clock.later(
                    later, self.remind, game_id, seat, version, left, start
                )
                return
            text = self.notifier.reminder_text(live, seat, left)
        message_id = await self.notifier.publisher.send(user, text, notify=True)
        if message_id is None:
            return
        if live.version == version and self.games.is_current(live):
            self._reminders[game_id] = (user, message_id)
        else:  # the turn ended while the reminder was on its way
            await self._delete(user, message_id)

    async def expire(self, game_id: int, seat: int, version: int, start: float) -> None:
        await once_stored(
            self.table.storage.db,
            lambda: self._expire(game_id, seat, version, start),
            lambda: self.games.reload(game_id),
        )

    async def _expire(self, game_id: int, seat: int, version: int, start: float) -> None:
        """The turn ran out: the computer player moves for the person; after two in a row it keeps his seat
        until he taps "I'm back".  Not before his hand has shown him his turn for the whole time (an edit may
        wait for Telegram's budget, or fail and be tried again): his time counts from then."""
        if self.games.get(game_id) is None:
            return
        async with self.games.lock(game_id):
            live = self.games.get(game_id)
            if live is None or live.version != version or live.state.to_move != seat or live.level_of(seat):
                return
            if (later := self._later(live, seat, start, live.settings.turn_timer)) > 0:
                self._timers.setdefault(game_id, {})["expire"] = self.clock.later(
                    later, self.expire, game_id, seat, version, start
                )
                return
            level = live.settings.computer_level
            view = live.state.view(seat)
        action = await self.computers.think(level, view, live.game.seed ^ (version << 3) ^ seat)
        if not self.games.is_current(live):
            return
        async with self.games.lock(game_id):
            live = self.games.get(game_id)
            if live is None or live.version != version or action is None:
                return
            action = self.computers.checked(live, seat, action)
            timeouts = live.seats[seat].timeouts + 1
            name = live.seating.name(seat)
            missed = live.seats[seat].model_copy(
                update={"timeouts": timeouts, "stand_in": level if timeouts >= 2 else None}
            )
            events = [*await self.table.act(live, action, None, missed), TurnMissed(live, name, timeouts)]
        await self.table.tell(events)

    def close(self) -> None:
        for game_id in list(self._timers):
            self.stop(game_id)
