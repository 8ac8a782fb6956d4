"""Load benchmark: many concurrent games played by simulated people through the real bot and the fake Bot
API server of the tests, all on this machine.

    python -m bench.bot_load [--games 200] [--seconds 60] [--limits] [--computers K [--workers W]] [--fail-rate F]

Prints one JSON object: card plays processed per second, press-to-table-edit latency (p50/p99), Bot API calls
per card played, and memory per active game (allocations made by engine/, storage/ and bot/ code, traced).
Without ``--limits`` the rate limiter and the group pacing are off (the bot's own capacity); with it they are
Telegram's (30 requests a second overall, 20 a minute per group), which caps what any bot can do, and the
fake server enforces Telegram's flood control too: ``flood_429`` counts the requests it refused with 429.
``--fail-rate F`` answers that share of sends, edits and deletes with 502 (``retries`` counts what the
publisher tried again).
The fake server runs in the same process and on the same core, so its work is counted against the bot.
With ``--computers K`` every table seats K strong computer players (default budget and pause) beside 4 − K
people, who think in W worker processes (0: threads of the bot's process): the latency of the people's
presses shows whether the thinking stays off the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any, cast

from playground.botapi import EXEMPT, Limits
from playground.botapi import BotApiServer as FakeTelegram
from tests.e2e import BotRunner, Person, play_turn

VARIANTS = ["/newgame 4", "/newgame classic", "/newgame czech"]


async def open_game(
    server: FakeTelegram, runner: BotRunner, index: int, computers: int = 0
) -> tuple[int, list[Person]]:
    chat_id = -10_000 - index
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
        await asyncio.sleep(0.005)
    lobby = server.bot_messages(chat_id)[-1]
    for person in people:
        url = next(b["url"] for b in lobby.buttons() if "url" in b)
        await server.send_text(person.user_id, person.user_id, "/start " + url.split("?start=")[1])
    while sum(1 for p in people if server.bot_messages(p.user_id)) < len(people):
        await asyncio.sleep(0.005)
    await server.settled(timeout=120)
    for _ in range(computers):
        lobby = server.messages[(chat_id, lobby.message_id)]
        add = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":bot"))
        await server.answer_of(await server.press(people[0].user_id, lobby, add), timeout=120)
        await runner.publisher.flush()
    lobby = server.messages[(chat_id, lobby.message_id)]
    start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
    await server.answer_of(await server.press(people[0].user_id, lobby, start), timeout=120)
    return chat_id, people


async def run(
    games: int,
    seconds: float,
    limits: bool,
    computers: int = 0,
    workers: int = 1,
    *,
    fail_rate: float = 0.0,
    pace: float = 0.0,
) -> dict[str, Any]:
    server = FakeTelegram(limits=Limits() if limits else None)
    server.fail_rate = fail_rate
    await server.start()
    with tempfile.TemporaryDirectory() as tmp:
        settings: dict[str, Any] = {"concurrent_updates": 256, "computer_workers": workers}
        if limits:
            settings.update(rate_overall_per_second=30, rate_group_per_minute=20)
        else:
            settings.update(group_messages_per_minute=0)
        runner = BotRunner(server, Path(tmp) / "load.db", **settings)
        await runner.start()
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        opened = [await open_game(server, runner, i, computers) for i in range(games)]
        await runner.publisher.flush()
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(True, f"*/{pkg}/*") for pkg in ("engine", "storage", "bot")]
        )
        bot_bytes = sum(stat.size for stat in snapshot.statistics("filename"))
        tracemalloc.stop()

        first_call = len(server.calls)
        first_limited = len(server.limited)
        presses: list[tuple[int, float]] = []
        watch = Watch(opened)
        server.listeners.append(watch.heard)
        for _, people in opened:
            for person in people:
                cast(LoadPerson, person).watch = watch
        rng = random.Random(1)
        cpu = time.process_time()
        deadline = time.monotonic() + seconds
        played = 0

        async def play(chat_id: int, people: list[Person]) -> None:
            nonlocal played
            while time.monotonic() < deadline:
                movers = [p for p in people if p.my_turn()]
                if not movers:
                    await asyncio.sleep(0.05)  # his hand is on its way (or the series is over)
                    continue
                if pace:  # a person thinks before his card: one every ``pace`` seconds per table, on average
                    await asyncio.sleep(rng.uniform(0.25 * pace, 1.75 * pace))
                    movers = [p for p in people if p.my_turn()]
                    if not movers:
                        continue
                started = time.time()
                if await play_turn(rng.choice(movers), rng):
                    presses.append((chat_id, started))
                    played += 1

        started = time.monotonic()
        await asyncio.gather(*(play(chat_id, people) for chat_id, people in opened))
        elapsed = time.monotonic() - started
        await runner.publisher.flush()
        cpu = time.process_time() - cpu
        by_method = Counter(c.method for c in server.calls[first_call:] if c.method != "getUpdates")
        limited = Counter(m for m in by_method.elements() if m not in EXEMPT)
        calls = sum(by_method.values())

        edits: dict[int, list[float]] = {}
        for call in server.calls:
            if call.method == "editMessageText" and str(call.params.get("chat_id", "")).startswith("-"):
                edits.setdefault(int(call.params["chat_id"]), []).append(call.at)
        latencies = []
        for chat_id, at in presses:
            later = [e for e in edits.get(chat_id, []) if e >= at]
            if later:
                latencies.append(min(later) - at)
        latencies.sort()
        retries = dict(runner.publisher.retries)
        await runner.stop()
    await server.stop()
    return {
        "games": games,
        "limits": limits,
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
        "own_hand_p99_worst_table_ms": max((pct(v, 0.99) or 0.0) for v in watch.own_by_table.values())
        if watch.own_by_table
        else None,
        "rate_limited_calls_per_card": round(sum(limited.values()) / played, 2) if played else None,
        "cpu_ms_per_card": round(1000 * cpu / played, 2) if played else None,
        "bot_api_calls_per_card": round(calls / played, 2) if played else None,
        "bot_api_calls_per_card_by_method": {m: round(n / played, 3) for m, n in sorted(by_method.items())}
        if played
        else None,
        "memory_per_active_game_kib": round((bot_bytes - before) / games / 1024, 1),
        "spec_violations": len(server.violations),
        "flood_429": len(server.limited) - first_limited,
        "failed_on_purpose": len(server.failed),
        "retries": retries,
    }


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
        self.own: list[float] = []
        self.own_by_table: dict[int, list[float]] = {}
        self.turn: list[float] = []

    def tapped(self, user_id: int) -> None:
        now = time.time()
        self.taps.setdefault(user_id, []).append(now)
        self.last_tap[self.table_of[user_id]] = now

    def heard(self, kind: str, subject: Any) -> None:
        if kind not in ("new", "edit") or subject.chat_id not in self.table_of:
            return
        now = time.time()
        user = subject.chat_id
        for tap in self.taps.pop(user, []):
            self.own.append(now - tap)
            self.own_by_table.setdefault(self.table_of[user], []).append(now - tap)
        turn = "👉" in subject.text
        if turn and not self.turn_shown.get(user):
            tap = self.last_tap.get(self.table_of[user])
            if tap is not None and user not in self.taps:
                self.turn.append(now - tap)
        self.turn_shown[user] = turn


class LoadPerson(Person):
    """Waits for the answer and for his own table's messages only, not for the other games'."""

    chats: tuple[int, ...] = ()

    watch: Watch | None = None

    async def press(self, message: Any, data: str) -> dict[str, Any]:
        if self.watch is not None:
            self.watch.tapped(self.user_id)
        answer = await self.server.answer_of(await self.server.press(self.user_id, message, data), timeout=120)
        await self.runner.publisher.flush((self.user_id,))  # he looks at his own hand
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
    args = parser.parse_args()
    result = run(
        args.games, args.seconds, args.limits, args.computers, args.workers, fail_rate=args.fail_rate, pace=args.pace
    )
    print(json.dumps(asyncio.run(result)))


if __name__ == "__main__":
    main()
