"""The cache of running games: each one's row, engine state, seating, chosen cards and lock.

An entry is built from storage on first use and dropped when its game ends (or a commit fails: the database
is the truth).  One lock per game makes two presses at once apply one after the other.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.i18n import pick_language, t
from bot.present import Seating
from engine import Card, GameState
from storage import ChatSettings, GameRow, PlayerRow, SeatRow, Storage


@dataclass
class Live:
    """A running game in memory: its row, engine state and seating."""

    game: GameRow
    state: GameState
    seats: list[SeatRow]
    players: dict[int, PlayerRow]
    chat_title: str
    chat_lang: str
    settings: ChatSettings = field(default_factory=ChatSettings)
    selection: dict[int, frozenset[Card]] = field(default_factory=dict)
    waited: set[tuple[int, int]] = field(default_factory=set)  # (seat, version): a computer chose to wait
    committing: asyncio.Event | None = None  # set while an applied action is not yet committed

    async def settled(self) -> None:
        """Wait until the state holds only committed actions: nothing is shown before it is stored."""
        while self.committing is not None:
            await self.committing.wait()

    @property
    def game_id(self) -> int:
        return self.game.game_id

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id if seat < len(self.seats) else None

    def lang_of(self, seat: int) -> str:
        user = self.user_of(seat)
        player = self.players.get(user) if user is not None else None
        return pick_language(player.effective_language if player else None, self.chat_lang)

    @property
    def version(self) -> int:
        return len(self.state.history)

    def level_of(self, seat: int) -> str | None:
        """The computer level playing this seat now, or None for a person at the table."""
        return self.seats[seat].player_level if seat < len(self.seats) else None

    @property
    def seating(self) -> Seating:
        """Who sits where now (a person's name is marked while a computer stands in for him)."""
        return Seating(seat_names(self.seats, self.players, self.chat_lang), self.chat_title)


def seat_names(seats: Sequence[SeatRow], players: dict[int, PlayerRow], lang: str) -> tuple[str, ...]:
    """Names at the table: people by name (marked 🤖 while a computer plays for them), computers numbered."""
    names = []
    for s in seats:
        if s.user_id is None:
            names.append(t(lang, "computer.name", n=s.seat + 1))
            continue
        name = players[s.user_id].name  # a seat's person has his row (a foreign key)
        names.append(f"{name} 🤖" if s.stand_in else name)
    return tuple(names)


class LiveGames:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._live: dict[int, Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._holders: Counter[int] = Counter()  # game -> the coroutines holding or awaiting its lock

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock (lobby or running): whoever changes the game holds it, never across a send.
        A lock nobody holds or awaits goes, unless its game is running (a press on a keyboard of a game long
        over would otherwise keep one for ever)."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        self._holders[game_id] += 1
        try:
            async with lock:
                yield
        finally:
            self._holders[game_id] -= 1
            if not self._holders[game_id]:
                del self._holders[game_id]
                if game_id not in self._live:
                    self._locks.pop(game_id, None)

    def locked(self, game_id: int) -> bool:
        """Whether somebody holds the game's lock now."""
        lock = self._locks.get(game_id)
        return lock is not None and lock.locked()

    def get(self, game_id: int) -> Live | None:
        """The running game if it is in memory."""
        return self._live.get(game_id)

    async def chat_lang(self, chat_id: int) -> str:
        """The language a chat chose (/language), or the default for a chat the bot does not know."""
        chat = await self.storage.chats.get(chat_id)
        return pick_language(chat.settings.language if chat else None)

    def is_current(self, live: Live) -> bool:
        return self._live.get(live.game_id) is live

    async def load(self, game_id: int) -> Live | None:
        """The running game, read from storage if it is not in memory; None if it is not running."""
        live = self._live.get(game_id)
        if live is None:
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "active":
                return None
            live = self._live[game_id] = await self.build(game)
        return live

    async def build(self, game: GameRow) -> Live:
        state = await self.storage.games.load_state(game)
        seats = await self.storage.games.seats(game.game_id)
        players = await self.storage.players.many([s.user_id for s in seats if s.user_id is not None])
        chat = await self.storage.chats.get(game.chat_id)
        return Live(
            game=game,
            state=state,
            seats=list(seats),
            players=players,
            chat_title=chat.title if chat else "",
            chat_lang=pick_language(chat.settings.language if chat else None),
            settings=chat.settings if chat else ChatSettings(),
        )

    async def reload(self, game_id: int) -> None:
        """Read the game again if a failed commit made it forgotten (a press would; a computer's or a timer's
        work waiting for the database must, for no press may come while a computer is to move)."""
        async with self.lock(game_id):
            await self.load(game_id)

    def put(self, live: Live) -> None:
        self._live[live.game_id] = live

    def forget(self, game_id: int) -> None:
        """Drop the state only (after a failed commit it is read again on the next press)."""
        self._live.pop(game_id, None)

    def drop(self, game_id: int) -> Live | None:
        """The game ended (or its lobby closed): its state, selection and (once nobody holds it) lock go."""
        if game_id not in self._holders:
            self._locks.pop(game_id, None)
        return self._live.pop(game_id, None)

    def running(self, chat_id: int | None = None) -> list[Live]:
        return [live for live in self._live.values() if chat_id is None or live.game.chat_id == chat_id]

    def __len__(self) -> int:
        return len(self._live)
