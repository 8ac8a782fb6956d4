"""Load benchmark: many concurrent games played by simulated people through the real bot and the fake Bot
API server of the tests, all on this machine.

    python -m bench.bot_load [--games 200] [--seconds 60] [--limits] [--computers K [--workers W]] [--fail-rate F]
                             [--table picture|text] [--commit-delay S]

Prints one JSON object: card plays processed per second, press-to-table-edit latency (p50/p99), Bot API calls
per card played, and memory per active game (allocations made by engine/, storage/ and bot/ code, traced).
Without ``--limits`` the rate limiter and the group pacing are off (the bot's own capacity); with it they are
Telegram's (30 requests a second overall, 20 a minute per group), which caps what any bot can do, and the
fake server enforces Telegram's flood control too: ``flood_429`` counts the requests it refused with 429.
``--fail-rate F`` answers that share of sends, edits and deletes with 502 (``retries`` counts what the
publisher tried again).  ``--table`` is how every group shows its table (a picture, the default, or a text):
the table's staleness counts its edits of either kind, and ``uploaded_kb_per_card`` the pictures' bytes.
The fake server runs in the same process and on the same core, so its work is counted against the bot.
``--commit-delay S``: a slow disk, each commit of the bot's S seconds longer (its lock held meanwhile).
With ``--computers K`` every table seats K strong computer players (default budget and pause) beside 4 − K
people, who think in W worker processes (0: threads of the bot's process): the latency of the people's
presses shows whether the thinking stays off the event loop.

``--split --limits --pace 4`` is issue 16's measurement: the bot alone in this process (its CPU and memory
measured), the fake server with Telegram's flood control and the simulated people in another; the tables
open 50 at a time, play starts once the opening's messages are out, and each person thinks ``pace`` seconds on
average (uniform between a quarter and 1.75 times that) from the moment the card before his went down at his
table (he follows the game while the others play), and moves once his hand says it is his turn: a card every
``pace`` seconds per table, nobody waiting for another's hand.  A person taps, then
looks at the hand he tapped until it changes (a message of another kind reaching his chat,
such as a turn notice, is not the answer to his tap; a tap refused with an alert changes nothing).
Reported: press → the presser's own hand changed (p50/p99, and the p99 of the best and the worst table);
the turn came → that player's hand said so (p50/p99); a press → the group's table changed (staleness);
429s received; rate-limited calls per card (per move: a four-card move of several cards is one) by method,
and by whom the bot made them for (``own_hand``, ``turn_hand``, ``message``, ``table``, idle ``hand``), and
how long each kind waited in the outbox on average; a tap → its callback answered (how late the bot handles
updates); the bot's CPU ms per card and memory per game; the CPU share of the people-and-server process (if
it is near 1, the figures measure it, not the bot); each event loop's stalls and each process's garbage
collections (how many, and the longest, by generation), with the busiest second of calls as the bot let them
go and as the server got them (a stall between the two bunches calls on their way).  The people-and-server
process, Telegram's stand-in, plays without a garbage collector; the bot's settles its heap as ``python -m
bot`` does.  Turn timers are off (play starts once every table is
open, minutes at 1,000 tables); the end-to-end tests hold the timers' behaviour under Telegram's limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import tempfile
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

from bot import callbacks
from bot.app import settle_heap
from bot.clock import Clock
from bot.delivery.outbox import Outbox
from engine import clock
from engine.actions import Kind
from engine.registry import variant_names
from playground.botapi import EXEMPT, Limits
from playground.botapi import BotApiServer as FakeTelegram
from tests.e2e import BotRunner, Person, play_turn
from tests.helpers import slow_commits

REAL_TIME = Clock()  # this bench's people wait on the real clock, as Telegram's do

VARIANTS = [f"/newgame {name}" for name in variant_names()]
PUT_DOWN = frozenset({Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.MOLODKA, Kind.PLAY})  # moves that play cards
OPEN_TIMEOUT = 900.0  # seconds one table may take to open when a thousand open at once under the limits
OPENING = 50  # tables opened at once
FAIR_SAMPLES = 5  # a table's own-hand waits needed before its p99 is compared with the others'
SAMPLE_EVERY = 15.0  # seconds between two looks at the bot's memory and backlog


TABLE_EDITS = frozenset({"editMessageText", "editMessageMedia", "editMessageCaption"})  # a group's table changed


def group_of(index: int) -> int:
    return -10_000 - index


async def show_tables_as(runner: BotRunner, games: int, table: str) -> None:
    """Every group of the run shows its table as ``table``, as if each had chosen it in /settings."""
    chats = runner.uses.chats.storage.chats
    for index in range(games):
        chat = await chats.known(group_of(index))
        await chats.save_settings(group_of(index), chat.settings.model_copy(update={"table": table}))


def table_edits(calls: list[Any]) -> dict[int, list[float]]:
    """When each group's messages (its table, above all) were edited."""
    edits: dict[int, list[float]] = {}
    for call in calls:
        if call.method in TABLE_EDITS and str(call.params.get("chat_id", "")).startswith("-"):
            edits.setdefault(int(call.params["chat_id"]), []).append(call.at)
    return edits


async def open_games(
    server: FakeTelegram, runner: BotRunner, games: int, computers: int = 0
) -> list[tuple[int, list[Person]]]:
    """Open ``games`` tables, ``OPENING`` at a time (as groups would, not one after another)."""
    gate = asyncio.Semaphore(OPENING)

    async def one(index: int) -> tuple[int, list[Person]]:
        async with gate:
            return await open_game(server, runner, index, computers)

    return list(await asyncio.gather(*(one(i) for i in range(games))))


async def open_game(
    server: FakeTelegram, runner: BotRunner, index: int, computers: int = 0
) -> tuple[int, list[Person]]:
    chat_id = group_of(index)
    server.add_group(chat_id, f"Group {index}")
    people: list[Person] = []
    for seat in range(4 - computers):
        user_id = 100_000 + index * 10 + seat
        server.add_user(user_id, f"U{index}.{seat}")
        people.append(LoadPerson(server, runner, user_id, f"U{index}.{seat}"))
    for person in people:
        assert isinstance(person, LoadPerson)
        person.chats = (chat_id, *(p.user_id for p in people))
    await server.send_text(people[0].user_id, chat_id, VARIANTS[index % len(VARIANTS)])
    while not server.bot_messages(chat_id):
        await REAL_TIME.sleep(0.005)
    lobby = server.bot_messages(chat_id)[-1]
    for person in people:
        url = next(b["url"] for b in lobby.buttons() if "url" in b)
        await server.send_text(person.user_id, person.user_id, "/start " + url.split("?start=")[1])
    # The creator starts once the lobby shows everyone seated (joins go into the group's budget of edits).
    deadline = clock.monotonic() + OPEN_TIMEOUT
    while not all(p.name in server.messages[(chat_id, lobby.message_id)].text for p in people):
        assert clock.monotonic() < deadline, f"table {index}: the lobby never showed everyone"
        await REAL_TIME.sleep(0.05)
    for _ in range(computers):
        lobby = server.messages[(chat_id, lobby.message_id)]
        add = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":bot"))
        await server.answer_of(await server.press(people[0].user_id, lobby, add), timeout=120)
        await runner.handled()
    lobby = server.messages[(chat_id, lobby.message_id)]
    start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
    await server.answer_of(await server.press(people[0].user_id, lobby, start), timeout=120)
    return chat_id, people


def bot_settings(limits: bool, workers: int, cruise: float | None = None) -> dict[str, Any]:
    """The bot's settings for a run: Telegram's limits kept (at the overall rate Telegram allows) or none."""
    settings: dict[str, Any] = {"concurrent_updates": 256, "computer_workers": workers}
    if limits:
        settings.update(rate_overall_per_second=30)
    else:
        settings.update(group_messages_per_minute=0)
    if cruise is not None:
        settings.update(rate_cruise_share=cruise)
    return settings


def bots_traced_bytes() -> int:
    """What the bot's own code (engine, storage, bot) holds on the traced heap; tracing stops."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(True, f"*/{pkg}/*") for pkg in ("engine", "storage", "bot")]
    )
    tracemalloc.stop()
    return sum(stat.size for stat in snapshot.statistics("filename"))


async def people_play(
    opened: list[tuple[int, list[Person]]], seconds: float, pace: float, presses: list[tuple[int, float]]
) -> int:
    """The people at every table play for ``seconds``: whoever's turn it is plays (after ``pace`` s of thought
    on average, per table).  Each press is noted with its table and time; returns the cards played."""
    rng = random.Random(1)
    deadline = clock.monotonic() + seconds
    played = 0

    async def play(chat_id: int, people: list[Person]) -> None:
        nonlocal played
        while clock.monotonic() < deadline:
            movers = [p for p in people if p.my_turn()]
            if not movers:
                await REAL_TIME.sleep(0.05)  # his hand is on its way (or the series is over)
                continue
            if pace:  # a person thinks before his card: one every ``pace`` seconds per table, on average
                await REAL_TIME.sleep(rng.uniform(0.25 * pace, 1.75 * pace))
                movers = [p for p in people if p.my_turn()]
                if not movers:
                    continue
            started = clock.wall()
            if await play_turn(rng.choice(movers), rng):
                presses.append((chat_id, started))
                played += 1

    await asyncio.gather(*(play(chat_id, people) for chat_id, people in opened))
    return played


def staleness(presses: list[tuple[int, float]], edits: dict[int, list[float]]) -> list[float]:
    """For each press, how long its table took to show something newer (sorted)."""
    latencies = []
    for chat_id, at in presses:
        later = [e for e in edits.get(chat_id, []) if e >= at]
        if later:
            latencies.append(min(later) - at)
    return sorted(latencies)


async def run(
    games: int,
    seconds: float,
    limits: bool,
    computers: int = 0,
    workers: int = 1,
    *,
    fail_rate: float = 0.0,
    pace: float = 0.0,
    table: str = "picture",
    commit_delay: float = 0.0,
) -> dict[str, Any]:
    server = FakeTelegram(limits=Limits() if limits else None)
    server.fail_rate = fail_rate
    await server.start()
    with tempfile.TemporaryDirectory() as tmp:
        runner = BotRunner(server, Path(tmp) / "load.db", **bot_settings(limits, workers))
        await runner.start()
        if commit_delay:
            slow_commits(runner.storage.db, commit_delay, REAL_TIME.sleep)
        await show_tables_as(runner, games, table)
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        opened = await open_games(server, runner, games, computers)
        await runner.handled()
        bot_bytes = bots_traced_bytes()

        first_call = len(server.calls)
        first_limited = len(server.limited)
        presses: list[tuple[int, float]] = []
        watch = Watch(opened)
        server.listeners.append(watch.heard)
        for _, people in opened:
            for person in people:
                cast(LoadPerson, person).watch = watch
        cpu = clock.cpu()
        started = clock.monotonic()
        played = await people_play(opened, seconds, pace, presses)
        elapsed = clock.monotonic() - started
        await runner.handled()
        cpu = clock.cpu() - cpu
        by_method = Counter(c.method for c in server.calls[first_call:] if c.method != "getUpdates")
        limited = Counter(m for m in by_method.elements() if m not in EXEMPT)
        calls = sum(by_method.values())

        latencies = staleness(presses, table_edits(server.calls))
        pictures = server.uploads(first_call)
        retries = dict(runner.publisher.retries)
        await runner.stop()
    await server.stop()
    return {
        "games": games,
        "table": table,
        "limits": limits,
        "commit_delay_ms": round(commit_delay * 1000),
        "computers_per_table": computers,
        "computer_workers": workers,
        "seconds": round(elapsed, 1),
        "cards_played": played,
        "card_plays_per_second": round(played / elapsed, 1),
        "own_hand_ms_p50": pct(watch.own, 0.5),
        "own_hand_ms_p99": pct(watch.own, 0.99),
        "turn_hand_ms_p50": pct(watch.turn, 0.5),
        "turn_hand_ms_p99": pct(watch.turn, 0.99),
        "table_staleness_ms_p50": pct(latencies, 0.5),
        "table_staleness_ms_p99": pct(latencies, 0.99),
        "own_hand_p99_worst_table_ms": max((pct(v, 0.99) or 0.0) for v in watch.own_by_table().values())
        if watch.own_at
        else None,
        "rate_limited_calls_per_card": round(sum(limited.values()) / played, 2) if played else None,
        "cpu_ms_per_card": round(1000 * cpu / played, 2) if played else None,
        "bot_api_calls_per_card": round(calls / played, 2) if played else None,
        "bot_api_calls_per_card_by_method": {m: round(n / played, 3) for m, n in sorted(by_method.items())}
        if played
        else None,
        "pictures_uploaded": len(pictures),
        "uploaded_kb_per_card": round(sum(map(len, pictures)) / 1000 / played, 1) if played else None,
        "memory_per_active_game_kib": round((bot_bytes - before) / games / 1024, 1),
        "spec_violations": len(server.violations),
        "flood_429": len(server.limited) - first_limited,
        "failed_on_purpose": len(server.failed),
        "retries": retries,
    }


@dataclass
class Address:
    """Where the bot in this process finds the fake server of the other process, whose clock is the real one."""

    token: str
    base_url: str

    @property
    def clock(self) -> Clock:
        return Clock()


@dataclass(frozen=True)
class Plan:
    games: int
    seconds: float
    pace: float
    limits: bool
    fail_rate: float


def people_side(conn: Connection, plan: Plan) -> None:
    """The other process: the fake server and the simulated people (see ``run_split``)."""
    asyncio.run(play_people(conn, plan))


@dataclass
class PeoplePlaying:
    """The people of the opened tables playing for ``seconds``: each thinks ``pace`` s on average from his
    table's latest card (one card every ``pace`` s per table) and moves once his hand says it is his turn;
    nobody waits for another's hand to change."""

    watch: Watch
    seconds: float
    pace: float
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    presses: list[tuple[int, float]] = field(default_factory=list)  # (table, when the move's tap began)
    moves_by_table: Counter[int] = field(default_factory=Counter)
    played: int = 0

    async def run(self, opened: list[tuple[int, list[Person]]]) -> None:
        self.deadline = clock.monotonic() + self.seconds
        self.moves_by_table.update(dict.fromkeys((chat_id for chat_id, _ in opened), 0))
        self.watch.last_card.update(dict.fromkeys(self.moves_by_table, clock.monotonic()))
        await asyncio.gather(*(self.person(chat_id, person) for chat_id, people in opened for person in people))

    async def person(self, chat_id: int, person: Person) -> None:
        shown = self.watch.turn_event(person.user_id)
        while (left := self.deadline - clock.monotonic()) > 0:
            if not person.my_turn():
                shown.clear()
                with contextlib.suppress(TimeoutError):
                    await REAL_TIME.wait_for(shown.wait(), left)
                continue
            think = self.rng.uniform(0.25 * self.pace, 1.75 * self.pace)
            await REAL_TIME.sleep(max(0.0, think - (clock.monotonic() - self.watch.last_card[chat_id])))
            if not person.my_turn() or clock.monotonic() >= self.deadline:
                continue
            started, stored = clock.wall(), cast(LoadPerson, person).moved
            # a move counts once the bot took it: past capacity a hand that still shows the turn after a move
            # (its edit waiting for the budget) gets tapped again, and the bot refuses the stale press
            if await play_turn(person, self.rng) and cast(LoadPerson, person).moved > stored:
                self.presses.append((chat_id, started))
                self.moves_by_table[chat_id] += 1
                self.played += 1


async def play_people(conn: Connection, plan: Plan) -> None:
    server = FakeTelegram(limits=Limits() if plan.limits else None)
    server.fail_rate = plan.fail_rate
    await server.start()
    loop = asyncio.get_running_loop()

    async def receive() -> Any:  # the server answers the bot meanwhile
        return await loop.run_in_executor(None, conn.recv)

    conn.send(Address(server.token, server.base_url))
    assert await receive() == "bot up"
    runner = cast(BotRunner, None)  # the bot is in the other process: a person watches his own chat instead
    opened = await open_games(server, runner, plan.games)
    await server.settled(timeout=300)
    conn.send("opened")
    assert await receive() == "play"
    first_call, first_limited = len(server.calls), len(server.limited)
    watch = Watch(opened)
    watch.waits = True
    server.listeners.append(watch.heard)
    for chat_id, people in opened:
        for person in people:
            cast(LoadPerson, person).watch = watch
            cast(LoadPerson, person).table = chat_id
    play = PeoplePlaying(watch, plan.seconds, plan.pace)
    # This process stands in for Telegram, whose clock does not stop: a full collection over the opened
    # tables' people and messages would stop its loop, and the requests that waited meanwhile would then be
    # counted against the flood limits in one bunch.  Its collector is off while the people play (a few
    # minutes: memory is no concern here); the bot's process is as in production.
    gc.collect()
    gc.disable()
    started, cpu, wall_started = clock.monotonic(), clock.cpu(), clock.wall()
    lags: list[float] = []
    lagger = asyncio.create_task(loop_lag(lags))
    with GcPauses().on() as pauses:
        await play.run(opened)
    lagger.cancel()
    gc.enable()
    elapsed, cpu = clock.monotonic() - started, clock.cpu() - cpu
    conn.send("played")
    assert await receive() == "flushed"
    ran = Ran(plan, opened, first_call, first_limited, wall_started, elapsed, cpu, lags, pauses.summary())
    conn.send(people_report(server, play, ran))
    assert await receive() == "bot down"
    await server.stop()


@dataclass(frozen=True)
class Ran:
    """How a split run went, as the people's process saw it."""

    plan: Plan
    opened: list[tuple[int, list[Person]]]
    first_call: int  # the server's calls and 429s before the play began
    first_limited: int
    wall_started: float
    elapsed: float
    cpu: float
    lags: list[float]  # the server's event loop's lags
    gc: dict[str, list[float | int | None]]  # its collections, as ``GcPauses.summary`` gives them


def people_report(server: FakeTelegram, play: PeoplePlaying, ran: Ran) -> dict[str, Any]:
    """What the people measured: their waits, the fairness between tables, and what the server saw."""
    watch, played, elapsed = play.watch, play.played, ran.elapsed
    calls = server.calls[ran.first_call :]
    by_method = Counter(c.method for c in calls if c.method != "getUpdates")
    arrived = [c.at for c in calls if c.method not in EXEMPT]
    limited = Counter(m for m in by_method.elements() if m not in EXEMPT)
    edits = table_edits(calls)
    staleness = [
        min(later) - at for chat_id, at in play.presses if (later := [e for e in edits.get(chat_id, []) if e >= at])
    ]
    pictures = server.uploads(ran.first_call)
    worst = [pct(v, 0.99) for v in watch.own_by_table().values()]
    # Past capacity each table gets a move only now and then: a table's p99 over a sample or two is one wait.
    # Fairness is judged on the second half of the run (the queues built up) by each table's moves and by the
    # waits of the tables with enough of them.
    later_by_table = watch.own_by_table(since=ran.wall_started + elapsed / 2)
    queued = [wait for waits in later_by_table.values() for wait in waits]
    late_answers = [wait for tap, wait in watch.answered_at if tap >= ran.wall_started + elapsed / 2]
    steady = [pct(v, 0.99) or 0.0 for v in later_by_table.values() if len(v) >= FAIR_SAMPLES]
    moves = sorted(play.moves_by_table.values())
    per_card = (lambda n: round(n / played, 2)) if played else (lambda n: None)
    return {
        "games": ran.plan.games,
        "pace_s": ran.plan.pace,
        "seconds": round(elapsed, 1),
        "cards_played": played,
        "card_plays_per_second": round(played / elapsed, 1),
        "tap_answered_ms_p50_p99": [pct(watch.answered, 0.5), pct(watch.answered, 0.99)],
        # every table's first card comes in the first seconds: the second half shows the steady state
        "second_half_tap_answered_ms_p50_p99": [pct(late_answers, 0.5), pct(late_answers, 0.99)],
        "own_hand_ms_p50": pct(watch.own, 0.5),
        "own_hand_ms_p99": pct(watch.own, 0.99),
        "own_hand_p99_ms_best_and_worst_table": best_and_worst([w for w in worst if w is not None]),
        "second_half_own_hand_ms_p50_p99": [pct(queued, 0.5), pct(queued, 0.99)],
        f"second_half_own_hand_p99_ms_best_and_worst_table_of_{FAIR_SAMPLES}_or_more": (
            [min(steady), max(steady), len(steady)] if steady else None
        ),
        "moves_per_table_min_median_max": [moves[0], moves[len(moves) // 2], moves[-1]],
        "tables_without_a_move": moves.count(0),
        "turn_hand_ms_p50": pct(watch.turn, 0.5),
        "turn_hand_ms_p99": pct(watch.turn, 0.99),
        "table_staleness_ms_p50": pct(staleness, 0.5),
        "table_staleness_ms_p99": pct(staleness, 0.99),
        "tables_never_edited": sum(1 for chat_id, _ in ran.opened if chat_id not in edits),
        "pictures_uploaded": len(pictures),
        "uploaded_kb_per_card": round(sum(map(len, pictures)) / 1000 / played, 1) if played else None,
        "flood_429": len(server.limited) - ran.first_limited,
        "flood_429_first": server.limited[ran.first_limited : ran.first_limited + 3],
        "server_busiest_second_of_limited_calls": busiest_second(arrived),
        # the server counts a request when its loop gets to it: a stall of its loop bunches requests
        "server_loop_lag_ms_p50_p99_max": [pct(ran.lags, 0.5), pct(ran.lags, 0.99), pct(ran.lags, 1.0)],
        "server_gc_collections_and_longest_ms": ran.gc,
        "rate_limited_calls_per_card": per_card(sum(limited.values())),
        "cards_put_down": watch.cards,
        "presses_refused": watch.refusals,
        "rate_limited_calls_per_card_put_down": (
            round(sum(limited.values()) / watch.cards, 2) if watch.cards else None
        ),
        "calls_per_card_by_method": (
            {m: round(n / played, 3) for m, n in sorted(by_method.items())} if played else None
        ),
        "spec_violations": len(server.violations),
        "failed_on_purpose": len(server.failed),
        "people_and_server_cpu_share": round(ran.cpu / elapsed, 2),
    }


def best_and_worst(values: list[float]) -> list[float] | None:
    """The least and the greatest of some figures (None when there are none)."""
    return [min(values), max(values)] if values else None


class BotWatched:
    """While the people play: the bot's memory and backlog every ``SAMPLE_EVERY`` s, its loop's lag, and
    when each call the outbox let go was resumed, to be made at once."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.samples: list[tuple[float, int]] = []
        self.lags: list[float] = []
        self.granted_at: list[float] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def sample(self) -> None:
        while True:
            self.samples.append((rss_mib(), self.outbox.waiting()))
            await REAL_TIME.sleep(SAMPLE_EVERY)

    def __enter__(self) -> BotWatched:
        wait = self.wait = self.outbox.wait

        async def traced(waiter: Any) -> None:
            await wait(waiter)
            self.granted_at.append(clock.wall())

        self.outbox.wait = traced  # type: ignore[method-assign]
        self.tasks = [asyncio.create_task(self.sample()), asyncio.create_task(loop_lag(self.lags))]
        return self

    def __exit__(self, *exc: object) -> None:
        for task in self.tasks:
            task.cancel()
        self.outbox.wait = self.wait  # type: ignore[method-assign]


async def run_split(
    games: int,
    seconds: float,
    limits: bool,
    *,
    fail_rate: float = 0.0,
    pace: float = 4.0,
    cruise: float | None = None,
    table: str = "picture",
) -> dict[str, Any]:
    """The bot alone in this process (its CPU and memory measured), the fake server and the people in
    another."""
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    side = ctx.Process(target=people_side, args=(theirs, Plan(games, seconds, pace, limits, fail_rate)), daemon=True)
    side.start()
    loop = asyncio.get_running_loop()

    async def receive() -> Any:
        return await loop.run_in_executor(None, mine.recv)

    address: Address = await receive()
    with tempfile.TemporaryDirectory() as tmp:
        # No turn timers: play starts only once every table is open (minutes, at 1,000 tables), and meanwhile
        # the first tables' timers would run out and computers take the seats of people about to play.
        settings = bot_settings(limits, workers=0, cruise=cruise)
        runner = BotRunner(cast(FakeTelegram, address), Path(tmp) / "load.db", http=True, **settings)  # over a socket
        await runner.start()
        await show_tables_as(runner, games, table)
        settle_heap()  # as ``python -m bot`` does once the application is built
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        mine.send("bot up")
        assert await receive() == "opened"
        await runner.handled()
        while runner.publisher.outbox.waiting():  # the opening's messages still on their way: play starts after
            await REAL_TIME.sleep(0.1)
            await runner.handled()
        bot_bytes = bots_traced_bytes()
        rss_before = rss_mib()
        calls_before = runner.publisher.calls_by_priority.copy()
        decisions = runner.uses.computers.decisions
        outbox = runner.publisher.outbox
        waited, granted = dict(outbox.waited), outbox.granted_by_priority.copy()
        cpu = clock.cpu()
        with BotWatched(outbox) as watched:
            mine.send("play")
            with GcPauses().on() as pauses:
                assert await receive() == "played"
        played_decisions = runner.uses.computers.decisions - decisions
        await runner.handled()
        cpu = clock.cpu() - cpu
        rss_after = rss_mib()
        mine.send("flushed")
        result: dict[str, Any] = await receive()
        retries = dict(runner.publisher.retries)
        decisions = runner.uses.computers.decisions - decisions
        granted = outbox.granted_by_priority - granted
        outbox_wait = {
            k.name.lower(): round(1000 * (outbox.waited[k] - waited[k]) / n) for k, n in sorted(granted.items())
        }
        by_priority = {p.name.lower(): n - calls_before[p] for p, n in runner.publisher.calls_by_priority.items()}
        await runner.stop()
    mine.send("bot down")
    side.join(30)
    played = result["cards_played"]
    result.update(
        table=table,
        bot_cpu_ms_per_card=round(1000 * cpu / played, 2) if played else None,
        bot_cpu_share=round(cpu / result["seconds"], 2),
        bot_memory_per_game_kib=round((bot_bytes - before) / games / 1024, 1),
        bot_rss_mib_before_and_after_play=[rss_before, rss_after],
        **{f"bot_rss_mib_and_calls_waiting_every_{SAMPLE_EVERY:g}_s": [[round(r, 1), n] for r, n in watched.samples]},
        retries=retries,
        # no computer seats and no timers here: a computer decision would be a person's turn taken from him
        computer_decisions_while_people_played_and_after=[played_decisions, decisions - played_decisions],
        outbox_mean_wait_ms_by_priority=outbox_wait,
        # a call the outbox lets go reaches the server later when the loop is late: bunched calls can go past
        # Telegram's budget even though the outbox never lets more go than it allows
        bot_loop_lag_ms_p50_p99_max=[pct(watched.lags, 0.5), pct(watched.lags, 0.99), pct(watched.lags, 1.0)],
        bot_loop_lags_over_half_a_second=sum(1 for x in watched.lags if x > 0.5),
        bot_gc_collections_and_longest_ms=pauses.summary(),
        bot_busiest_second_of_calls_let_go=busiest_second(watched.granted_at),
        rate_limited_calls_per_card_by_priority={k: round(n / played, 3) for k, n in sorted(by_priority.items())}
        if played
        else None,
    )
    return result


def rss_mib(pid: int | None = None) -> float:
    """The resident memory of process ``pid`` (this one by default), in MiB."""
    with open(f"/proc/{pid or os.getpid()}/statm") as statm:
        return round(int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


async def loop_lag(lags: list[float]) -> None:
    """Note how late the event loop wakes a task that sleeps 50 ms, until cancelled."""
    while True:
        at = clock.monotonic()
        await REAL_TIME.sleep(0.05)
        lags.append(clock.monotonic() - at - 0.05)


class GcPauses:
    """The garbage collector's pauses in this process while ``on``: a collection stops the event loop, and a
    long one bunches the calls made after it (each pause noted by generation, in seconds)."""

    def __init__(self) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = clock.perf()
        else:
            self.by_generation[info["generation"]].append(clock.perf() - self._started)

    @contextlib.contextmanager
    def on(self) -> Iterator[GcPauses]:
        gc.callbacks.append(self._note)
        try:
            yield self
        finally:
            gc.callbacks.remove(self._note)

    def summary(self) -> dict[str, list[float | int | None]]:
        """By generation: how many collections, and their longest pause in ms."""
        return {f"gen{g}": [len(p), pct(p, 1.0)] for g, p in self.by_generation.items()}


def busiest_second(times: list[float]) -> int:
    """The most of ``times`` (seconds) in any one-second window."""
    times, most, first = sorted(times), 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def pct(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of seconds, in ms."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[int(q * (len(ordered) - 1))], 1)


class Watch:
    """Hears what the server shows and times it against the people's taps: a tap → the first change of the
    presser's own chat after it; a tap that passed the turn → the first "your turn" in the next player's hand."""

    def __init__(self, opened: list[tuple[int, list[Person]]]) -> None:
        self.table_of = {p.user_id: chat_id for chat_id, people in opened for p in people}
        self.taps: dict[int, list[float]] = {}  # user -> taps not yet seen answered
        self.last_tap: dict[int, float] = {}  # table -> the latest tap at it
        self.turn_shown: dict[int, bool] = {}  # user -> whether his hand last said it was his turn
        self.tapped_hand: dict[int, int] = {}  # user -> the hand message he last tapped
        self._turns: dict[int, asyncio.Event] = {}  # user -> set when his hand shows his turn
        self.cards = 0  # cards put on the table by the moves made (a four-card move may put down several)
        self.refusals = 0  # presses the bot refused with an alert (a stale hand, mostly)
        self.answered: list[float] = []  # a tap → its callback answered: how late the bot handles updates
        self.answered_at: list[tuple[float, float]] = []  # (tap, wait) of the same
        self.last_card: dict[int, float] = {}  # group -> when the bot took its latest card
        self.own_at: list[tuple[int, float, float]] = []  # a tap → his own hand changed: (table, tap, wait)
        self.turn: list[float] = []
        self.waits = False
        self.changed: dict[int, asyncio.Event] = {}

    def tapped(self, user_id: int, message_id: int) -> asyncio.Event | None:
        """Note a tap on his hand ``message_id``; with ``waits``, the event set when his hand next changes."""
        now = clock.wall()
        self.taps.setdefault(user_id, []).append(now)
        self.tapped_hand[user_id] = message_id
        self.last_tap[self.table_of[user_id]] = now
        if not self.waits:
            return None
        changed = self.changed[user_id] = asyncio.Event()
        return changed

    @property
    def own(self) -> list[float]:
        return [wait for _, _, wait in self.own_at]

    def own_by_table(self, since: float = 0.0) -> dict[int, list[float]]:
        """Each table's own-hand waits, of the taps from ``since`` (a Unix time) on."""
        tables: dict[int, list[float]] = {}
        for table, tap, wait in self.own_at:
            if tap >= since:
                tables.setdefault(table, []).append(wait)
        return tables

    def turn_event(self, user_id: int) -> asyncio.Event:
        """Set whenever his hand comes to say it is his turn."""
        return self._turns.setdefault(user_id, asyncio.Event())

    def refused(self, user_id: int) -> None:
        """His last tap was answered with an alert (nothing in his hand changes for it)."""
        self.refusals += 1
        if taps := self.taps.get(user_id):
            taps.pop()
        self.changed.pop(user_id, None)

    def heard(self, kind: str, subject: Any) -> None:
        if kind not in ("new", "edit") or subject.chat_id not in self.table_of:
            return
        now = clock.wall()
        user = subject.chat_id
        hand = subject.message_id == self.tapped_hand.get(user) if kind == "edit" else bool(subject.buttons())
        if hand and (changed := self.changed.pop(user, None)) is not None:
            changed.set()
        for tap in self.taps.pop(user, []) if hand else ():
            self.own_at.append((self.table_of[user], tap, now - tap))
        turn = "👉" in subject.text
        if turn and user in self._turns:
            self._turns[user].set()
        if turn and not self.turn_shown.get(user):
            last = self.last_tap.get(self.table_of[user])
            if last is not None and user not in self.taps:
                self.turn.append(now - last)
        self.turn_shown[user] = turn


class LoadPerson(Person):
    """Waits for the answer and for his own hand to change, not for the other games' messages."""

    chats: tuple[int, ...] = ()

    watch: Watch | None = None
    table = 0  # his group
    moved = 0  # his moves the bot took
    answer_wait = 120.0  # seconds he waits for his press to be answered (then ``answer_of`` raises)

    def took(self, press: callbacks.Play) -> None:
        """The bot answered his card as taken."""

    async def press(self, message: Any, data: str) -> dict[str, Any]:
        changed = self.watch.tapped(self.user_id, message.message_id) if self.watch is not None else None
        tapped = clock.wall()
        query = await self.server.press(self.user_id, message, data)
        answer = await self.server.answer_of(query, timeout=self.answer_wait)
        if self.watch is not None:
            self.watch.answered.append(clock.wall() - tapped)
            self.watch.answered_at.append((tapped, clock.wall() - tapped))
        if answer.get("text") and self.watch is not None:  # refused with an alert: his hand stays as it is
            self.watch.refused(self.user_id)
            return answer
        press = callbacks.parse(data)
        if isinstance(press, callbacks.Play):
            self.took(press)
        if self.watch is not None and isinstance(press, callbacks.Play):
            self.moved += 1
            self.watch.last_card[self.table] = clock.monotonic()  # the others see it (before his hand changes)
            if press.action.kind in PUT_DOWN:
                self.watch.cards += len(press.action.cards)
        if changed is not None:  # the bot is in another process: he looks at his hand until it changes
            with contextlib.suppress(TimeoutError):
                await REAL_TIME.wait_for(changed.wait(), 60)
        else:
            await self.runner.handled()  # (the in-process mode: his press is handled, its edits sent)
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--limits", action="store_true")
    parser.add_argument("--computers", type=int, default=0, choices=range(4))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--fail-rate", type=float, default=0.0)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between cards per table (0: at once)")
    parser.add_argument(
        "--split", action="store_true", help="the server and the people in another process (needs --pace)"
    )
    parser.add_argument("--cruise", type=float, help="the bot's RATE_CRUISE_SHARE (with --split)")
    parser.add_argument("--table", choices=("picture", "text"), default="picture", help="how the groups show it")
    parser.add_argument("--commit-delay", type=float, default=0.0, help="seconds each commit takes more (a slow disk)")
    args = parser.parse_args()
    if args.split:
        print(
            json.dumps(
                asyncio.run(
                    run_split(
                        args.games,
                        args.seconds,
                        args.limits,
                        fail_rate=args.fail_rate,
                        pace=args.pace,
                        cruise=args.cruise,
                        table=args.table,
                    )
                )
            )
        )
        return
    result = run(
        args.games, args.seconds, args.limits, args.computers, args.workers, fail_rate=args.fail_rate, pace=args.pace,
        table=args.table, commit_delay=args.commit_delay,
    )  # fmt: skip
    print(json.dumps(asyncio.run(result)))


if __name__ == "__main__":
    main()
