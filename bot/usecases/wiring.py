"""The use cases of the bot, built once over one storage and one publisher and wired to each other."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from bot.clock import Clock, Tasks
from bot.config import Settings
from bot.delivery.notify import Notifier
from bot.delivery.outbox import Priority
from bot.delivery.publisher import Publisher
from bot.miniapp.links import AppLinks
from bot.usecases.abandoned import Abandonment
from bot.usecases.chats import Chats
from bot.usecases.computers import Computers
from bot.usecases.live import LiveGames
from bot.usecases.lobby import Lobbies, LobbyExpiry, new_seed
from bot.usecases.records import Records
from bot.usecases.seats import Seats
from bot.usecases.table import Table
from bot.usecases.timers import TurnTimers
from bot.usecases.votes import Votes
from storage import Storage, StorageUnavailable

log = logging.getLogger(__name__)

# Seconds of a stop kept for what follows the sending of what is owed: the HTTP client, the database and the
# computer players' workers closed, and the process gone.
STOP_RESERVE = 1.5


@dataclass
class UseCases:
    games: LiveGames
    tasks: Tasks
    notifier: Notifier
    table: Table
    computers: Computers
    timers: TurnTimers
    expiry: LobbyExpiry
    lobbies: Lobbies
    votes: Votes
    seats: Seats
    chats: Chats
    records: Records
    abandonment: Abandonment

    stop_budget: float = 8.0  # seconds a whole stop may take (``SHUTDOWN_GRACE_SECONDS``)
    stop_began: float | None = None  # when a stop began (``clock.monotonic``)

    @property
    def clock(self) -> Clock:
        return self.notifier.clock

    def stopping(self) -> None:
        """A stop began (SIGTERM, Ctrl-C), which must be over within ``stop_budget`` seconds: whatever still
        waits for Telegram's budget when its time is up, a handler's answer or a telling, is given up then (the
        next start sends what the chats are owed)."""
        if self.stop_began is not None:
            return
        self.stop_began = self.clock.monotonic()
        self.clock.later(self._sending_time(), self._time_is_up)

    def _sending_time(self) -> float:
        """How long of a stop what is owed may take to go out."""
        return max(self.stop_budget - STOP_RESERVE, 0.0)

    async def reply_turn(self, chat_id: int) -> None:
        """Wait until a reply to a command may go into ``chat_id``: in the outbox, with every other message
        of the bot, so that Telegram's budgets are never exceeded."""
        await self.notifier.publisher.outbox.turn(chat_id, Priority.MESSAGE, new=True)

    async def restore(self) -> int:
        """At start-up: load every running game, bring its messages up to date, re-arm its timer (counting
        the time gone since its last move) and let its computer players go on."""
        storage = self.games.storage
        self.notifier.publisher.shown.recall(await storage.shown.take())
        count = 0
        for game in await storage.games.unannounced():
            async with self.games.lock(game.game_id):
                live = await self.games.build(game)
                if game.status == "active":
                    self.games.put(live)
            await self.notifier.announce(live, game.announced_deals)
            if game.status == "active":
                await self.notifier.open_deal(live, resume=True)
                since = await storage.games.last_action_at(game.game_id)
                now = self.notifier.clock.now()
                self.timers.arm(live, elapsed=max(now - since, 0.0) if since else 0.0)
                self.computers.drive(live)
                self.abandonment.moved(live)
            count += 1
        for lobby in await storage.games.with_status("lobby"):
            self.expiry.schedule(lobby.game_id)
        return count

    async def catch_up(self) -> None:
        """Telegram answers again after it was unreachable: bring every running game's messages up to date
        (what failed meanwhile was given up after its retries), as a start does."""
        for live in self.games.running():
            async with self.notifier.telling_lock(live.game_id):
                await self.notifier.announce(live, live.game.announced_deals)
                await self.notifier.open_deal(live, resume=True)

    async def _time_is_up(self) -> None:
        self.notifier.publisher.outbox.close()

    async def wind_down(self) -> None:
        """On a stop, while the bot can still reach Telegram: nothing new is begun (turn timers, turn notices,
        lobby expiry, computer players), and what the chats are owed goes out, until the stop's time is up
        (``stopping``, which a stop not begun by a signal begins now).  What is still on its way then is
        dropped: the next start brings those chats up to date."""
        self.stopping()
        assert self.stop_began is not None
        grace = max(self.stop_began + self._sending_time() - self.clock.monotonic(), 0.0)
        self.notifier.pings.stop()
        self.timers.close()
        self.expiry.close()
        self.abandonment.close()
        await self.tasks.close()
        try:
            async with self.notifier.clock.timeout(grace):
                await self.notifier.background.told()
                await self.notifier.publisher.flush()
            owed = self.notifier.publisher.outbox.closed  # something waited for its turn till the time was up
        except TimeoutError:
            owed = True
        if owed:
            took = self.clock.monotonic() - self.stop_began
            log.warning("stopping with messages still owed after %.1f s; the next start sends them", took)
        await self.close()
        try:
            await self.games.storage.shown.keep(self.notifier.publisher.shown.record())
        except StorageUnavailable as exc:  # the next start edits each message once more: no harm
            log.info("what the messages show was not kept: %s", exc)

    async def close(self) -> None:
        """Stop every timer, background task and telling (on shutdown; again after ``wind_down``, at no cost)."""
        self.notifier.close_all()
        self.timers.close()
        self.expiry.close()
        self.abandonment.close()
        await self.tasks.close()
        self.notifier.publisher.close()


def build(
    storage: Storage,
    publisher: Publisher,
    bot_username: str,
    settings: Settings,
    *,
    executor: Executor | None = None,
    seeds: Callable[[], int] = new_seed,
) -> UseCases:
    """``seeds``: each new game's seed.  Every wait and measure is on the publisher's clock."""
    games = LiveGames(storage)
    clock = publisher.clock
    tasks = clock.tasks
    notifier = Notifier(
        storage,
        publisher,
        games,
        clock,
        settings.turn_ping_seconds,
        turn_ping_watching=settings.turn_ping_watching_seconds,
        links=AppLinks.of(settings, bot_username),
    )
    tell = notifier.background.tell_soon  # a handler is done once its change is stored
    table = Table(storage, games, tell)
    computers = Computers(
        games,
        table,
        clock,
        budget=settings.computer_budget_seconds,
        pause=settings.computer_pause_seconds,
        executor=executor,
    )
    timers = TurnTimers(games, table, computers, notifier, clock)
    table.moved_on += [timers.arm, computers.drive]
    expiry = LobbyExpiry(clock, settings.lobby_ttl_seconds)
    votes = Votes(storage, games, table, tell)
    seats = Seats(storage, games, table, votes, tell)
    abandonment = Abandonment(storage, games, votes, clock, idle=settings.game_idle_seconds,
                              deserted=settings.game_deserted_seconds, tell=tell)  # fmt: skip
    table.moved_on.append(abandonment.moved)
    uses = UseCases(
        games=games,
        tasks=tasks,
        notifier=notifier,
        table=table,
        computers=computers,
        timers=timers,
        expiry=expiry,
        lobbies=Lobbies(storage, games, table, expiry, bot_username, tell=tell, seeds=seeds),
        votes=votes,
        seats=seats,
        chats=Chats(storage, games, bot_username, tell),
        records=Records(storage, games),
        abandonment=abandonment,
        stop_budget=settings.shutdown_grace_seconds,
    )

    def blocked(user_id: int) -> None:  # a private chat refused us (403): the person blocked the bot
        tasks.spawn(seats.player_blocked(user_id))

    publisher.on_forbidden = blocked
    return uses
