"""Soak: tables played for an hour or more, the bot killed and started again on the way.

    python -m bench.soak [--minutes 60] [--games 50] [--pace 4] [--kill-every 15] [--fail-rate 0.03]

This process is Telegram and the people: the embedded Bot API server over HTTP, with Telegram's flood control
and ``--fail-rate`` of every request answered 502 before it takes effect, and simulated people at a human pace
(a card every ``--pace`` seconds per table on average, each thinking from the table's last card).  One table
in five seats a computer player beside three people.  A series that ends is followed by another at its table.

The bot is ``python -m bot --no-playground`` in a process of its own, as a container runs it, with its
database on disk, one worker process for the computers, the metrics on and JSON logs.  Every ``--kill-every``
minutes it is killed (SIGKILL: no goodbye, no flush) and started again at once.

Reported:
- moves lost: every press of a card the bot answered as taken must be in the action log (expected 0);
- stuck games: a running game with no change seen for longer than two turn timers (expected 0);
- 429s (expected 0);
- the presser's own hand, p50 and p99, in the first quarter of the run and in the last;
- the bot's memory (RSS of its main process, looked at every five seconds), its slope within each life
  (between two kills, past its first two minutes), and the database's size at the start and the end;
- what the bot logged at WARNING and above, by message, and its metrics at the end of the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.bot_load import LoadPerson, Watch, pct, rss_mib
from bot import callbacks
from bot.clock import Clock
from engine import clock
from engine.registry import variant_names
from playground.botapi import ALL_METHODS, Limits
from playground.botapi import BotApiServer as FakeTelegram
from storage.db import size_on_disk
from tests.e2e import Person, free_port, play_turn

REAL_TIME = Clock()  # this bench's people wait on the real clock, as Telegram's do

VARIANTS = tuple(f"/newgame {name}" for name in variant_names())
TURN_TIMER = 60  # the chats' default: a turn open twice as long is a stuck game
ANSWER_WAIT = 15.0  # seconds a person waits for his press to be answered before he looks again
WARM_UP = 120.0  # seconds of a life left out of its memory slope
LOOK_EVERY = 5.0  # seconds between two looks at the database (stuck games, finished series) and the bot's memory


@dataclass
class Taken:
    """A press of a card the bot answered as taken: it must be in the action log as ``action`` at ``seq``."""

    game_id: int
    seq: int
    action: str


@dataclass
class Soak:
    server: FakeTelegram
    folder: Path
    games: int
    pace: float
    rng: random.Random
    taken: list[Taken] = field(default_factory=list)
    tables: dict[int, list[Person]] = field(default_factory=dict)  # group -> its people
    computers: dict[int, int] = field(default_factory=dict)  # group -> computer seats
    seen: dict[int, float] = field(default_factory=dict)  # group -> when something of its game last changed
    stuck: list[tuple[int, float]] = field(default_factory=list)  # (group, seconds without a change)
    series: Counter[int] = field(default_factory=Counter)  # group -> series opened
    opening: set[int] = field(default_factory=set)  # groups whose next series is being opened
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    process: asyncio.subprocess.Process | None = None
    lives: list[list[tuple[float, float]]] = field(default_factory=list)  # each life's (time, RSS MiB)
    started_at: float = 0.0
    health_port: int = 0

    @property
    def database(self) -> Path:
        return self.folder / "soak.db"

    # --- the bot ----------------------------------------------------------------------------------------

    async def start_bot(self) -> None:
        env = {
            **os.environ,
            "BOT_TOKEN": self.server.token,
            "TELEGRAM_BASE_URL": self.server.base_url,
            "DATABASE_PATH": str(self.database),
            "COMPUTER_WORKERS": "1",
            "HEALTH_PORT": str(self.health_port),
            "METRICS": "true",
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "WARNING",
        }
        log = (self.folder / "bot.log").open("a")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--no-playground", env=env, stdout=log, stderr=log, cwd=Path.cwd()
        )
        log.close()
        self.lives.append([])

    async def kill_bot(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    def note_memory(self) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(OSError):
                pid = self.process.pid
                self.lives[-1].append((clock.monotonic(), rss_mib(pid)))

    # --- the tables ---------------------------------------------------------------------------------------

    async def open_table(self, index: int) -> None:
        chat_id = -20_000 - index
        if chat_id not in self.tables:
            self.server.add_group(chat_id, f"Soak {index}")
            people = 3 if index % 5 == 0 else 4
            self.computers[chat_id] = 4 - people
            self.tables[chat_id] = []
            for seat in range(people):
                user_id = 200_000 + index * 10 + seat
                self.server.add_user(user_id, f"S{index}.{seat}")
                person = SoakPerson(self.server, None, user_id, f"S{index}.{seat}")  # type: ignore[arg-type]
                person.soak, person.table = self, chat_id
                self.tables[chat_id].append(person)
        await self.start_series(chat_id, index)

    async def start_series(self, chat_id: int, index: int) -> None:
        people = self.tables[chat_id]
        self.series[chat_id] += 1
        before = {m.message_id for m in self.server.bot_messages(chat_id)}
        typed = VARIANTS[(index + self.series[chat_id]) % len(VARIANTS)]
        await self.server.send_text(people[0].user_id, chat_id, typed)
        lobby = await self.wait_for(lambda: next((m for m in reversed(self.server.bot_messages(chat_id))
                                                  if m.message_id not in before
                                                  and any("url" in b for b in m.buttons())), None))  # fmt: skip
        for person in people:
            url = next(b["url"] for b in lobby.buttons() if "url" in b)
            await self.server.send_text(person.user_id, person.user_id, "/start " + url.split("?start=")[1])
        for _ in range(self.computers[chat_id]):
            await self.lobby_press(chat_id, lobby.message_id, ":bot", people[0])
        await self.lobby_press(chat_id, lobby.message_id, ":start", people[0])
        self.seen[chat_id] = clock.monotonic()
        self.opening.discard(chat_id)

    def seated(self, chat_id: int, message_id: int) -> list[str]:
        text = self.server.messages[(chat_id, message_id)].text
        return [p.name for p in self.tables[chat_id] if p.name in text]

    async def lobby_press(self, chat_id: int, message_id: int, ending: str, person: Person) -> None:
        for _ in range(60):  # the lobby shows the joins and computers as the group's budget lets its edits go
            message = self.server.messages[(chat_id, message_id)]
            data = next((b["callback_data"] for b in message.buttons() if b.get("callback_data", "").endswith(ending)),
                        None)  # fmt: skip
            if data is not None and (ending != ":start" or len(self.seated(chat_id, message_id)) == len(
                    self.tables[chat_id])):  # fmt: skip
                with contextlib.suppress(TimeoutError):
                    await self.server.answer_of(await self.server.press(person.user_id, message, data), ANSWER_WAIT)
                    return
            await REAL_TIME.sleep(1.0)

    async def wait_for(self, found: Any, seconds: float = 300.0) -> Any:
        deadline = clock.monotonic() + seconds
        while (value := found()) is None:
            assert clock.monotonic() < deadline, "waited too long"
            await REAL_TIME.sleep(0.2)
        return value

    async def person_plays(self, person: SoakPerson, until: float) -> None:
        """One person: he thinks from his table's last card and moves once his hand says it is his turn."""
        watch = person.watch
        assert watch is not None
        shown = watch.turn_event(person.user_id)
        while (left := until - clock.monotonic()) > 0:
            if not person.my_turn():
                shown.clear()
                with contextlib.suppress(TimeoutError):
                    await REAL_TIME.wait_for(shown.wait(), min(left, 5.0))
                continue
            since = clock.monotonic() - watch.last_card.get(person.table, clock.monotonic())
            await REAL_TIME.sleep(max(0.0, self.rng.uniform(0.25 * self.pace, 1.75 * self.pace) - since))
            if person.my_turn() and clock.monotonic() < until:
                await play_turn(person, self.rng)

    async def look(self, until: float) -> None:
        """Every few seconds: the bot's memory, a finished series followed by another, and stuck games."""
        while clock.monotonic() < until:
            await REAL_TIME.sleep(LOOK_EVERY)
            self.note_memory()
            now = clock.monotonic()
            for chat_id in list(self.tables):
                latest = [s.at for s in self.server.shown[-2000:] if s.chat_id in self.chats_of(chat_id)]
                if latest:
                    self.seen[chat_id] = max(self.seen.get(chat_id, 0.0), self.server_to_local(max(latest)))
                if chat_id in self.opening:
                    continue
                if game_status(self.database, chat_id) in ("finished", "cancelled"):
                    self.opening.add(chat_id)
                    opened = asyncio.get_running_loop().create_task(self.start_series(chat_id, -20_000 - chat_id))
                    self.tasks.add(opened)
                    opened.add_done_callback(self.tasks.discard)
                elif now - self.seen.get(chat_id, now) > 2 * TURN_TIMER:
                    self.stuck.append((chat_id, round(now - self.seen[chat_id])))
                    self.seen[chat_id] = now

    def chats_of(self, chat_id: int) -> set[int]:
        return {chat_id, *(p.user_id for p in self.tables[chat_id])}

    def server_to_local(self, at: float) -> float:
        return clock.monotonic() - (self.server.clock.now() - at)


class SoakPerson(LoadPerson):
    """Notes each card he played that the bot answered as taken; waits for an answer as a person would."""

    soak: Soak
    answer_wait = ANSWER_WAIT

    def took(self, press: callbacks.Play) -> None:
        self.soak.taken.append(Taken(press.game_id, press.version, press.action.text()))

    async def press(self, message: Any, data: str) -> dict[str, Any]:
        try:
            return await super().press(message, data)
        except TimeoutError:  # the bot was killed, or the answer failed: he looks at his hand again
            return {}


def game_status(database: Path, chat_id: int) -> str | None:
    """The status of the chat's latest game, read without disturbing the bot (None: none yet)."""
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            row = db.execute("SELECT status FROM games WHERE chat_id = ? ORDER BY game_id DESC LIMIT 1",
                             (chat_id,)).fetchone()  # fmt: skip
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None


def lost_moves(database: Path, taken: list[Taken]) -> list[Taken]:
    """The presses answered as taken whose action is not in the action log."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        stored = {(g, s): a for g, s, a in db.execute("SELECT game_id, seq, action FROM actions")}
    return [t for t in taken if stored.get((t.game_id, t.seq)) != t.action]


def slope_per_hour(points: list[tuple[float, float]]) -> float | None:
    """The least-squares slope of (seconds, MiB) past a life's first ``WARM_UP`` seconds (its start and first
    pictures), in MiB an hour."""
    points = [p for p in points if p[0] - points[0][0] >= WARM_UP] if points else []
    if len(points) < 3:
        return None
    return round(3600 * statistics.linear_regression([p[0] for p in points], [p[1] for p in points]).slope, 2)


async def run(minutes: float, games: int, pace: float, kill_every: float, fail_rate: float) -> dict[str, Any]:
    server = FakeTelegram(limits=Limits())
    await server.start()
    with tempfile.TemporaryDirectory() as tmp:
        soak = Soak(server, Path(tmp), games, pace, random.Random(1), health_port=free_port())
        await soak.start_bot()
        await asyncio.gather(*(soak.open_table(i) for i in range(games)))
        opened_calls, opened_limited = len(server.calls), len(server.limited)
        server.fail_methods, server.fail_rate = ALL_METHODS, fail_rate
        size_before = size_on_disk(soak.database)
        watch = Watch([(chat_id, people) for chat_id, people in soak.tables.items()])
        watch.waits = True
        server.listeners.append(watch.heard)
        for people in soak.tables.values():
            for person in people:
                assert isinstance(person, SoakPerson)
                person.watch = watch
        started = clock.monotonic()
        until = started + 60 * minutes
        soak.started_at, wall = started, clock.wall()

        async def killer() -> None:
            while clock.monotonic() + 60 * kill_every < until:
                await REAL_TIME.sleep(60 * kill_every)
                soak.note_memory()
                await soak.kill_bot()
                await soak.start_bot()

        players = [soak.person_plays(p, until) for people in soak.tables.values() for p in people
                   if isinstance(p, SoakPerson)]  # fmt: skip
        await asyncio.gather(killer(), soak.look(until), *players)
        soak.note_memory()
        metrics = await scrape(soak.health_port)
        server.fail_rate = 0.0
        await REAL_TIME.sleep(10)  # what is owed goes out
        await soak.kill_bot()
        quarter = 60 * minutes / 4
        first = [w for _, tap, w in watch.own_at if tap < wall + quarter]
        last = [w for _, tap, w in watch.own_at if tap >= wall + 3 * quarter]
        lost = lost_moves(soak.database, soak.taken)
        logged: Counter[str] = Counter()
        for line in (soak.folder / "bot.log").read_text().splitlines():
            with contextlib.suppress(ValueError):
                record = json.loads(line)
                logged[f"{record['level']}: {record['message'][:90]}"] += 1
        result = {
            "minutes": minutes,
            "tables": games,
            "pace_s": pace,
            "kills": len(soak.lives) - 1,
            "series_opened": sum(soak.series.values()),
            "cards_taken": len(soak.taken),
            "moves_lost": len(lost),
            "moves_lost_first": [t.__dict__ for t in lost[:5]],
            "stuck_games": len(soak.stuck),
            "stuck_first": soak.stuck[:5],
            "flood_429": len(server.limited) - opened_limited,
            "failed_on_purpose": len(server.failed),
            "calls": len(server.calls) - opened_calls,
            "own_hand_ms_p50_p99_first_quarter": [pct(first, 0.5), pct(first, 0.99)],
            "own_hand_ms_p50_p99_last_quarter": [pct(last, 0.5), pct(last, 0.99)],
            "bot_rss_mib_first_and_last_of_each_life": [[life[0][1], life[-1][1]] for life in soak.lives if life],
            "bot_rss_slope_mib_per_hour_each_life": [slope_per_hour(life) for life in soak.lives],
            "database_mb_before_and_after": [round(size_before / 1e6, 2), round(size_on_disk(soak.database) / 1e6, 2)],
            "logged_warning_or_worse": dict(logged.most_common(12)),
            "metrics": metrics,
        }
    await server.stop()
    return result


async def scrape(port: int) -> dict[str, float]:
    """A few of the bot's own metrics at the end of the run."""
    wanted = ("kozel_budget_cuts_total", "kozel_retries_total", "kozel_presses_total", "kozel_games_running",
              "kozel_computer_fallbacks_total", "kozel_telegram_reachable")  # fmt: skip
    try:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as page:
            text = await page.text()
    except aiohttp.ClientError:
        return {}
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith(wanted):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pace", type=float, default=4.0, help="seconds between cards per table, on average")
    parser.add_argument("--kill-every", type=float, default=15.0, help="minutes between two SIGKILLs of the bot")
    parser.add_argument("--fail-rate", type=float, default=0.03)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.minutes, args.games, args.pace, args.kill_every, args.fail_rate))))


if __name__ == "__main__":
    main()
