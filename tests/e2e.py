"""End-to-end harness: the real application, long polling the embedded Bot API server, and simulated people
who read what the bot sent them and press its buttons.

The bot's requests are handed to the server in process (``playground.inprocess``) and the test's event loop
runs on virtual time (``playground.virtual_time``, see ``tests/conftest.py``): the bot, its outbox, timers and
retries and the server's flood control share one clock, at Telegram's own limits, while a whole series
plays at the CPU's speed.  A test that needs real HTTP (the webhook) says ``http=True`` and is marked
``real_time``."""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
from telegram import Bot
from telegram.ext import Application

from bot.app import build_application, polling_errors, stop_application, webhook_options
from bot.clock import Clock
from bot.config import Settings
from bot.delivery.publisher import Publisher
from bot.usecases.wiring import UseCases
from engine import GameState
from playground.botapi import BOT_USERNAME, Limits, Message
from playground.botapi import BotApiServer as FakeTelegram
from playground.inprocess import InProcessRequest
from playground.virtual_time import VirtualTimeLoop
from storage import GameRow, Storage

GAME_DATA = re.compile(r"g(\d+):(\d+):(.+)")
GROUP = -1001
PERIOD = 60.0  # Telegram's window of 20 messages into a group (on virtual time it costs nothing)
REAL_TIME_SCALE = 0.05  # the few tests over real HTTP run Telegram's clock this much faster
WEBHOOK_SECRET = "kozel-test-secret_1"


def loop_time() -> float:
    """The test's clock: the event loop's time (virtual, unless the test is marked ``real_time``)."""
    return asyncio.get_running_loop().time()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class World:
    server: FakeTelegram
    runner: BotRunner
    path: Path

    def person(self, user_id: int, name: str, language: str = "en") -> Person:
        self.server.add_user(user_id, name, language)
        return Person(self.server, self.runner, user_id, name)

    def group_messages(self, chat_id: int = GROUP) -> list[Message]:
        return self.server.bot_messages(chat_id)


def bare_bot(server: FakeTelegram) -> Bot:
    """A ``Bot`` whose requests go to ``server`` in process."""
    return Bot(server.token, base_url=server.base_url, request=InProcessRequest(server))


@asynccontextmanager
async def server_and_bot(limits: Limits | None, group: int) -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    """A server with ``limits``, a group and two started users (5, 6), and a bare ``Bot`` on it."""
    server = FakeTelegram(limits=limits, clock=Clock.following_the_loop())
    server.add_group(group, "G")
    for user_id in (5, 6):
        server.add_user(user_id, f"U{user_id}").started = True
    bot = bare_bot(server)
    await bot.initialize()
    try:
        yield server, bot
    finally:
        await bot.shutdown()


@asynccontextmanager
async def running_world(
    tmp_path: Path,
    *,
    allow_fallbacks: bool = False,
    webhook: bool = False,
    http: bool = False,
    limits: bool = True,
    flood: Limits | None = None,
    **settings: Any,
) -> AsyncIterator[World]:
    """The embedded server and the real bot on it (with these settings), a group ``GROUP`` whose admin is user
    1; with ``webhook`` (and so ``http``), the server posts updates to the bot's webhook instead of answering its
    long polls, over real HTTP.  A test in which a computer player's choice failed or was refused (so the basic
    player chose instead) fails, unless it says ``allow_fallbacks`` and checks ``world.runner.fallbacks``.
    The server enforces Telegram's flood control (unless ``limits`` is false), and the test fails if the bot
    was ever answered 429 by it, unless the test gives limits of its own (``flood``) and counts them itself."""
    http = http or webhook
    virtual = isinstance(asyncio.get_running_loop(), VirtualTimeLoop)
    assert not (http and virtual), "real HTTP takes real time: mark the test real_time"
    scale = 1.0
    if not virtual:  # on real time, Telegram's pacing twenty times faster (the bot's and the server's alike)
        scale = REAL_TIME_SCALE
        settings = {"group_period_seconds": 60.0 * scale, "rate_private_per_second": 1.0 / scale} | settings
    server = FakeTelegram(limits=(flood or Limits()).scaled(scale) if limits else None, clock=Clock.following_the_loop())
    if http:
        await server.start()
    runner = BotRunner(server, tmp_path / "bot.db", webhook=webhook, http=http, **settings)
    await runner.start()
    server.add_group(GROUP, "Friends & <Co>", admins={1})  # a title that needs HTML escaping
    try:
        yield World(server, runner, tmp_path)
        assert allow_fallbacks or runner.fallbacks == 0, f"{runner.fallbacks} computer choices fell back"
        assert runner.failed_tellings == 0, f"{runner.failed_tellings} tellings failed (see the log)"
        assert runner.unexpected_edits == 0, f"{runner.unexpected_edits} edits raised a bug (see the log)"
        assert flood is not None or not server.limited, f"the bot went past Telegram's limits: {server.limited[:5]}"
        refused = [c.method for c in server.calls if "file identifier" in (c.error or "")]
        assert not refused, f"the bot sent file ids the server does not know: {refused[:5]}"
    finally:
        if runner.app is not None:
            await runner.stop()
        await server.stop()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_world(tmp_path, lobby_ttl_seconds=600) as made:
        yield made


async def configure(world: World, chat_id: int = GROUP, **values: object) -> None:
    """The group's settings with these ``values``, as if chosen in /settings (``table="text"``, ``turn_timer=0``)."""
    chats = world.runner.storage.chats
    chat = await chats.known(chat_id)
    await chats.save_settings(chat_id, chat.settings.model_validate(chat.settings.model_dump() | values))


async def open_game(world: World, command: str, players: int) -> tuple[list[Person], GameRow]:
    people = [world.person(i + 1, f"P{i + 1}") for i in range(players)]
    await people[0].say(GROUP, command)
    lobby = world.group_messages()[-1]
    for person in people:
        await person.join(lobby)
    lobby = world.server.messages[(GROUP, lobby.message_id)]
    start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
    answer = await people[0].press(lobby, start)
    assert not answer.get("show_alert"), answer
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None and game.status == "active"
    return people, game


async def finished(world: World, game_id: int) -> bool:
    row = await world.runner.storage.games.get(game_id)
    return row is not None and row.status != "active"


async def with_computers(world: World, command: str, computers: int, *others: str) -> tuple[list[Person], GameRow]:
    """Ann opens a game with ``command`` and joins, then the people named ``others``; she seats ``computers``
    computer players and starts it.  The computers may have played it out already."""
    people = [world.person(i + 1, name) for i, name in enumerate(("Ann", *others))]
    ann = people[0]
    await ann.say(GROUP, command)
    lobby = world.group_messages()[-1]
    for person in people:
        await person.join(lobby)
    for _ in range(computers):
        await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":bot"))
    opened = await world.runner.storage.games.open_game(GROUP)
    assert opened is not None
    answer = await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
    assert not answer.get("show_alert"), answer
    game = await world.runner.storage.games.get(opened.game_id)
    assert game is not None and game.status in ("active", "finished")
    return people, game


async def replay(world: World, game_id: int) -> tuple[GameRow, GameState]:
    """The game as stored, read in one transaction (computer players may commit moves meanwhile)."""
    storage = world.runner.storage
    async with storage.db.transaction(reading=True):
        row = await storage.games.get(game_id)
        assert row is not None
        return row, await storage.games.load_state(row)


def seeds_of_this_test() -> Callable[[], int]:
    """Each new game's seed, the same on every run of a test (a test on virtual time plays the same games
    whatever the machine's load), and another for every test."""
    rng = random.Random(os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0])
    return lambda: rng.getrandbits(48)


class BotRunner:
    """Start and stop the real application against the fake server."""

    def __init__(
        self,
        server: FakeTelegram,
        db_path: Path,
        *,
        seeds: Callable[[], int] | None = None,
        webhook: bool = False,
        http: bool = False,
        **settings: Any,
    ) -> None:
        self.server = server
        self.http = http
        self.webhook_port = free_port() if webhook else 0  # the same address across restarts
        self.db_path = db_path
        self.seeds = seeds or seeds_of_this_test()  # each new game's seed
        self.settings = settings
        self.app: Application | None = None  # type: ignore[type-arg]
        self.earlier_fallbacks = 0  # of the applications stopped before
        self.earlier_failed_tellings = 0
        self.earlier_unexpected_edits = 0
        self.wall_step = 0.0  # seconds the bot's wall clock is set off the server's (a clock that jumps)

    async def start(self) -> None:
        values: dict[str, Any] = {
            "bot_token": self.server.token,
            "database_path": self.db_path,
            "telegram_base_url": self.server.base_url,
            **self.settings,
        }
        if self.webhook_port:
            values.update(
                webhook_url=f"http://127.0.0.1:{self.webhook_port}/kozel/hook",
                webhook_listen="127.0.0.1",
                webhook_port=self.webhook_port,
                webhook_secret=WEBHOOK_SECRET,
            )
        settings = Settings(**values)
        # one wall clock across restarts, the server's: what the bot stores and reads back agrees with it
        clock = Clock(wall=lambda: self.server.clock.now() + self.wall_step)
        transport = None if self.http else partial(InProcessRequest, self.server)
        app = build_application(settings, seeds=self.seeds, clock=clock, transport=transport)
        await app.initialize()
        if app.post_init:
            await app.post_init(app)
        assert app.updater is not None
        if settings.webhook_url:
            await app.updater.start_webhook(**webhook_options(settings, settings.webhook_secret_or_new()))
        else:
            await app.updater.start_polling(
                poll_interval=0.0, timeout=settings.poll_timeout_seconds, error_callback=polling_errors(app)
            )
        await app.start()
        self.app = app

    async def stop(self) -> None:
        app = self.app
        assert app is not None and app.updater is not None
        self.earlier_fallbacks = self.fallbacks
        self.earlier_failed_tellings = self.failed_tellings
        self.earlier_unexpected_edits = self.unexpected_edits
        await stop_application(app)
        self.app = None

    @property
    def uses(self) -> UseCases:
        assert self.app is not None
        return cast(UseCases, self.app.bot_data["uses"])

    @property
    def fallbacks(self) -> int:
        """Computer choices that failed or were refused by the engine, since the first start."""
        current = self.uses.computers.fallbacks if self.app is not None else 0
        return self.earlier_fallbacks + current

    @property
    def failed_tellings(self) -> int:
        """Tellings of events to the chats that raised, since the first start."""
        current = self.uses.notifier.background.failed if self.app is not None else 0
        return self.earlier_failed_tellings + current

    @property
    def unexpected_edits(self) -> int:
        """Edits that raised something other than Telegram's errors, since the first start."""
        current = self.publisher.unexpected if self.app is not None else 0
        return self.earlier_unexpected_edits + current

    @property
    def storage(self) -> Storage:
        assert self.app is not None
        return cast(Storage, self.app.bot_data["storage"])

    @property
    def publisher(self) -> Publisher:
        assert self.app is not None
        return cast(Publisher, self.app.bot_data["publisher"])

    async def handled(self, timeout: float = 600.0) -> None:
        """Wait until every update fetched has been handled and every edit it scheduled sent."""
        if self.app is not None:
            await asyncio.wait_for(self.app.update_queue.join(), timeout)
            await asyncio.wait_for(self.uses.notifier.background.told(), timeout)
        await self.publisher.flush()

    async def settle(self, timeout: float = 600.0) -> None:
        """Wait until the server is quiet, every fetched update has been handled and every edit sent (a busy
        machine can keep a handler working without a request for longer than the server's quiet time)."""
        await self.server.settled()
        if self.app is not None:
            await asyncio.wait_for(self.app.update_queue.join(), timeout)
            await asyncio.wait_for(self.uses.notifier.background.told(), timeout)
        await self.publisher.flush()
        await self.server.settled()


@dataclass
class Person:
    """A simulated person: writes commands and presses buttons, like a human would."""

    server: FakeTelegram
    runner: BotRunner
    user_id: int
    name: str

    async def say(self, chat_id: int, text: str) -> None:
        await self.server.send_text(self.user_id, chat_id, text)
        await self.runner.settle()

    async def press(self, message: Message, data: str) -> dict[str, Any]:
        query = await self.server.press(self.user_id, message, data)
        answer = await self.server.answer_of(query)
        await self.runner.handled()  # a hand's press is answered before its changes are scheduled
        return answer

    async def join(self, lobby: Message) -> None:
        url = next(b["url"] for b in lobby.buttons() if "url" in b)
        payload = url.split("?start=")[1]
        assert url.startswith(f"https://t.me/{BOT_USERNAME}?start=")
        await self.say(self.user_id, f"/start {payload}")

    def hand(self) -> Message | None:
        """The latest message in his private chat that has game buttons."""
        for message in reversed(self.server.bot_messages(self.user_id)):
            if any(GAME_DATA.fullmatch(b.get("callback_data", "")) for b in message.buttons()):
                return message
        return None

    def options(self) -> tuple[Message | None, list[str], list[str]]:
        """His hand message, its action buttons and its card toggles."""
        message = self.hand()
        if message is None:
            return None, [], []
        actions, toggles = [], []
        for button in message.buttons():
            match = GAME_DATA.fullmatch(button.get("callback_data", ""))
            if match and match[3].startswith("a"):
                actions.append(button["callback_data"])
            elif match and match[3].startswith("t") and not button["text"].startswith("·"):
                toggles.append(button["callback_data"])
        return message, actions, toggles

    def my_turn(self) -> bool:
        message = self.hand()
        return message is not None and "👉" in message.text


async def play_turn(person: Person, rng: random.Random) -> bool:
    """Make one move as a person would: tap a playable card, or choose cards then the move button."""
    for _ in range(12):
        message, actions, toggles = person.options()
        if message is None:
            return False
        if actions:
            await person.press(message, rng.choice(actions))
            return True
        if not toggles:
            return False
        chosen = {b["callback_data"] for b in message.buttons() if b["text"].startswith("✅")}
        fresh = [data for data in toggles if data not in chosen]
        # with nothing to play yet, a person chooses one more card or takes one back, not the same card twice
        pool = fresh if fresh and (not chosen or rng.random() < 0.5) else sorted(chosen) or toggles
        await person.press(message, rng.choice(pool))
    return False


async def one_move(
    world: World, people: list[Person], game_id: int, rng: random.Random
) -> tuple[Person, GameState, GameRow, GameState]:
    """The player to move makes one move, and the bot settles: who moved, the game before, its row and state
    after."""
    _, before = await replay(world, game_id)
    mover = next(p for p in people if p.my_turn())
    assert await play_turn(mover, rng)
    await world.runner.settle()
    row, after = await replay(world, game_id)
    return mover, before, row, after


async def play_until(people: list[Person], done: Any, rng: random.Random, max_moves: int = 5000) -> int:
    """Let the people play until ``done()`` is true; returns the number of moves made."""
    moves = 0
    while not await done():
        movers = [p for p in people if p.my_turn()]
        optional = [p for p in people if p not in movers and p.options()[1]]
        if optional and rng.random() < 0.05:
            movers = [rng.choice(optional)]
        assert movers, "nobody can move, but the game is not over"
        if await play_turn(rng.choice(movers), rng):
            moves += 1
        assert moves < max_moves
    return moves


async def play_moves(people: list[Person], count: int, rng: random.Random) -> None:
    """Let the people make ``count`` moves."""
    calls = 0

    async def enough() -> bool:
        nonlocal calls
        calls += 1
        return calls > count

    await play_until(people, enough, rng)


async def eventually(world: World, check: Any, timeout: float = 600.0, what: str = "condition") -> None:
    """Wait (settling the bot between looks) until ``await check()`` is true; fail after ``timeout`` s."""
    deadline = loop_time() + timeout
    while True:
        await world.runner.settle()
        if await check():
            return
        assert loop_time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def button(message: Message, ending: str) -> str:
    """The callback data of the message's button whose data ends with ``ending``."""
    found = [b["callback_data"] for b in message.buttons() if b.get("callback_data", "").endswith(ending)]
    assert found, f"no button ending in {ending!r} under {message.text[:80]!r}"
    return str(found[0])
