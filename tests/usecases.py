"""Use cases of the bot on a real SQLite file, without Telegram: what they tell is collected in a list."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.clock import Clock, Tasks
from bot.usecases.events import Event, Say
from bot.usecases.live import LiveGames
from bot.usecases.lobby import Lobbies, LobbyExpiry
from bot.usecases.people import Person
from bot.usecases.table import Table
from storage import Storage

CHAT = -42


@dataclass
class Told:
    """The events told, and whether the game's lock was held while they were (it never should be).  A
    lobby posted gets message id 100 + its game id, as the notifier would keep it."""

    games: LiveGames | None = None
    events: list[Event] = field(default_factory=list)
    under_lock: int = 0

    async def __call__(self, events: Sequence[Event]) -> None:
        assert self.games is not None
        for event in events:
            live = getattr(event, "live", None)
            if live is not None and self.games.locked(live.game_id):
                self.under_lock += 1
            if isinstance(event, Say) and event.lobby_of is not None:
                await self.games.storage.games.set_lobby_message(event.lobby_of, 100 + event.lobby_of)
        self.events += events

    def take(self) -> list[Event]:
        taken, self.events = self.events, []
        return taken


@dataclass
class Bench:
    storage: Storage
    games: LiveGames
    table: Table
    lobbies: Lobbies
    told: Told
    tasks: Tasks


@asynccontextmanager
async def bench(tmp_path: Path, seed: int = 7) -> AsyncIterator[Bench]:
    storage = await Storage.open(tmp_path / "bot.db")
    await storage.chats.ensure(CHAT, "Friends", "supergroup")
    games = LiveGames(storage)
    told = Told(games)
    tasks = Tasks()
    table = Table(storage, games, told)
    expiry = LobbyExpiry(Clock(tasks), ttl=600)
    lobbies = Lobbies(storage, games, table, expiry, "kozel_bot", tell=told, seeds=lambda: seed)
    try:
        yield Bench(storage, games, table, lobbies, told, tasks)
    finally:
        expiry.close()
        await tasks.close()
        await storage.close()


def people(count: int) -> list[Person]:
    return [Person(i + 1, f"P{i + 1}", None, "en") for i in range(count)]


async def no() -> bool:
    return False


async def yes() -> bool:
    return True
