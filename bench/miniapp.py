"""The Mini App's figures: how fast a tap shows in the pages, what a page costs to load, and what many open
pages cost the bot.

    python -m bench.miniapp [--tables 20] [--taps 400] [--pages 200] [--browser]

The real bot runs in this process (its Bot API calls handed to the embedded server in process), its Mini App
served over real HTTP on this machine, every person of ``--tables`` four-person tables with the page of his
table open (its event stream connected).  Printed, one JSON object:

- ``tap``: a tap in a page that plays a card → the tapper's answer (the POST's own page) and → the last of the
  table's three other pages showing the new state (its event stream), p50/p99 in ms, with the tables open;
- ``first_load_bytes``: what a page transfers before it shows a table: the page, its script and style, and
  the first state (the stream's first event);
- ``hands``: the bot's own measure of its chats: a press of a private hand's button → that hand edited at the
  server, p50/p99 in ms, first with the tables' pages only, then with ``--pages`` pages more connected
  (spectators of the same tables, read by another process); and this process's resident memory before the
  pages, with them, and after the presses with them, and what each page costs the bot;
- ``first_paint_ms`` (``--browser``, with Chromium): from navigation to the first paint and to the table drawn,
  the median of five loads of a seated person's page.

The tables are all people (no computer thinks meanwhile); the pages and the bot share this process, so the
figures are this machine's, not Telegram's network.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

from bench.bot_load import open_game, pct, rss_mib
from bot.clock import Clock
from bot.miniapp.auth import ticket
from engine import clock
from playground.botapi import BotApiServer as FakeTelegram
from tests.e2e import BotRunner, Person, free_port, play_turn
from tests.test_playground import CHROMIUM_ARGS

REAL_TIME = Clock()
FIRST_PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: null}).startTime"


@dataclass
class Page:
    """One open page: its person's signed initData, and the newest state its stream brought."""

    user_id: int
    game: str  # the table's ticket
    init_data: str
    state: dict[str, Any] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    bytes_first: int = 0

    async def listen(self, session: aiohttp.ClientSession, base: str) -> None:
        params = {"game": self.game, "initData": self.init_data}
        async with session.get(base + "api/events", params=params, timeout=aiohttp.ClientTimeout(total=None)) as stream:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    self.bytes_first = self.bytes_first or len(line)
                    self.state = json.loads(line[6:])
                    self.arrived.set()

    async def version_at_least(self, version: int) -> None:
        while self.state.get("version", -1) < version:
            self.arrived.clear()
            await self.arrived.wait()


def watch(base: str, pages: list[tuple[str, str]], ready: Connection) -> None:
    """Keep ``pages`` (ticket, initData) open, their streams read, until terminated; says when all are open."""

    async def run() -> None:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            opened = [Page(0, game, init_data) for game, init_data in pages]
            tasks = [asyncio.ensure_future(p.listen(session, base)) for p in opened]
            await asyncio.gather(*(p.arrived.wait() for p in opened))
            ready.send(True)
            await asyncio.gather(*tasks)

    asyncio.run(run())


def app_choice(page: dict[str, Any], rng: random.Random) -> str | None:
    """What a person taps: a card played at once or a move, else he chooses a card (or takes one back)."""
    hand = page.get("hand") or {"cards": [], "moves": []}
    now = [c["data"] for c in hand["cards"] if c["state"] in ("at_once", "discard_at_once")]
    now += [m["data"] for m in hand["moves"] if ":a" in m["data"]]
    if now:
        return str(rng.choice(now))
    chosen = [c["data"] for c in hand["cards"] if c["state"] == "chosen"]
    fresh = [c["data"] for c in hand["cards"] if c["state"] == "playable"]
    pool = fresh if fresh and (not chosen or rng.random() < 0.5) else chosen
    return str(rng.choice(pool)) if pool else None


async def taps(
    session: aiohttp.ClientSession, base: str, tables: list[list[Page]], runner: BotRunner, *, count: int
) -> dict[str, Any]:
    """``count`` plays tapped in pages, one after another at tables drawn at random."""
    rng = random.Random(47)
    own: list[float] = []
    others: list[float] = []
    refused = 0
    while len(own) < count:
        table = rng.choice(tables)
        live = runner.uses.games.get(table[0].state.get("game", -1))
        if live is None or live.state.to_move is None:
            continue
        seat = live.state.to_move
        page = next((p for p in table if p.state.get("you") == seat), None)
        if page is None:
            continue
        data = app_choice(page.state, rng)
        if data is None:
            continue
        version = live.version
        started = clock.perf()
        headers = {"X-Telegram-Init-Data": page.init_data}
        async with session.post(base + "api/press", json={"game": page.game, "data": data}, headers=headers) as answer:
            body = await answer.json()
        if body.get("refused"):
            refused += 1
            continue
        page.state = body["state"]
        if body["state"]["version"] == version:
            continue  # a card chosen, not yet played: only the tapper's page changes
        own.append(clock.perf() - started)
        await asyncio.gather(*(p.version_at_least(version + 1) for p in table if p is not page))
        others.append(clock.perf() - started)
    return {"plays": len(own), "refused": refused, "own_page_ms": [pct(own, 0.5), pct(own, 0.99)],
            "other_pages_ms": [pct(others, 0.5), pct(others, 0.99)]}  # fmt: skip


async def hand_presses(server: FakeTelegram, runner: BotRunner, people: list[Person], count: int) -> list[float]:
    """``count`` presses of private hands' buttons → each pressed hand edited at the server (seconds)."""
    rng = random.Random(5)
    waits: list[float] = []
    edited: dict[int, asyncio.Event] = {}
    at: dict[int, float] = {}

    def heard(kind: str, subject: Any) -> None:
        chat = getattr(subject, "chat_id", 0)
        if kind in ("edit", "new") and chat in edited and not edited[chat].is_set():
            at[chat] = clock.perf()
            edited[chat].set()

    server.listeners.append(heard)
    try:
        while len(waits) < count:
            movers = [p for p in people if p.my_turn()]
            if not movers:
                await REAL_TIME.sleep(0.01)
                continue
            mover = rng.choice(movers)
            edited[mover.user_id] = asyncio.Event()
            started = clock.perf()
            if not await play_turn(mover, rng):
                continue
            await REAL_TIME.wait_for(edited[mover.user_id].wait(), 30)
            waits.append(at.pop(mover.user_id) - started)
            del edited[mover.user_id]
    finally:
        server.listeners.remove(heard)
    return waits


async def first_paint(base: str, launch: str) -> dict[str, Any] | None:
    """The median of five loads of a page in Chromium: first paint, and the table drawn (ms)."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        return None
    from playwright.async_api import async_playwright  # noqa: PLC0415 (a dev dependency, only with --browser)

    paints, drawn = [], []
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        for _ in range(5):
            page = await browser.new_page(viewport={"width": 360, "height": 720})
            await page.goto(launch)
            await page.wait_for_selector("#seats .seat")
            drawn.append(await page.evaluate("performance.now()"))
            paints.append(await page.evaluate(FIRST_PAINT))
            await page.close()
        await browser.close()
    return {"first_contentful_paint_ms": sorted(paints)[2], "table_drawn_ms": round(sorted(drawn)[2], 1)}


async def run(tables: int, count: int, extra_pages: int, browser: bool) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    with tempfile.TemporaryDirectory() as folder:
        server = FakeTelegram(limits=None, clock=Clock())
        runner = BotRunner(server, Path(folder) / "bench.db", miniapp_url="https://bench.invalid/app/",
                           miniapp_listen="127.0.0.1", miniapp_port=port, rate_overall_per_second=0,
                           group_period_seconds=1.0)  # fmt: skip
        await runner.start()
        try:
            opened = [await open_game(server, runner, index) for index in range(tables)]
            await runner.settle()
            token = server.token
            seated: list[list[Page]] = []
            everyone: list[Person] = []
            for chat_id, people in opened:
                game = await runner.storage.games.open_game(chat_id)
                assert game is not None
                everyone += people
                named = ticket(game.game_id, token)
                seated.append([Page(p.user_id, named, server.init_data(p.user_id)) for p in people])
            # every page holds a connection of its own for its stream: no pool limit
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                sizes = {}
                for name in ("", "app.js", "app.css"):
                    async with session.get(base + name) as response:
                        sizes[name or "index.html"] = len(await response.read())
                listening = [asyncio.ensure_future(p.listen(session, base)) for table in seated for p in table]
                await asyncio.gather(*(p.arrived.wait() for table in seated for p in table))
                sizes["first state"] = seated[0][0].bytes_first
                tapped = await taps(session, base, seated, runner, count=count)
                await runner.settle()
                alone = await hand_presses(server, runner, everyone, count // 2)
                before = rss_mib()
                watchers = []
                for index in range(extra_pages):
                    user_id = 900_000 + index
                    server.add_user(user_id, f"Watcher {index}")
                    watchers.append((seated[index % len(seated)][0].game, server.init_data(user_id)))
                ours, theirs = multiprocessing.get_context("spawn").Pipe()
                elsewhere = multiprocessing.get_context("spawn").Process(target=watch, args=(base, watchers, theirs))
                elsewhere.start()  # their browsers are not the bot's: they read in a process of their own
                await asyncio.get_running_loop().run_in_executor(None, ours.recv)
                connected = rss_mib()
                with_pages = await hand_presses(server, runner, everyone, count // 2)
                after = rss_mib()
                elsewhere.terminate()
                painted = None
                if browser:
                    user_id = seated[0][0].user_id
                    painted = await first_paint(base, server.launch(user_id, f"{base}?game={seated[0][0].game}"))
                for task in listening:
                    task.cancel()
                await asyncio.gather(*listening, return_exceptions=True)
        finally:
            await runner.stop()
    return {
        "tables": tables,
        "pages_open": 4 * tables,
        "tap": tapped,
        "first_load_bytes": {**sizes, "total": sum(sizes.values())},
        "hands": {
            "press_to_own_hand_ms": {
                "tables' pages only": [pct(alone, 0.5), pct(alone, 0.99)],
                f"{extra_pages} pages more": [pct(with_pages, 0.5), pct(with_pages, 0.99)],
            },
            "rss_mib": {"before the pages": before, "with them": connected, "after their presses": after},
            "kib_per_extra_page": round((connected - before) * 1024 / max(extra_pages, 1), 1),
        },
        "first_paint_ms": painted,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--taps", type=int, default=400)
    parser.add_argument("--pages", type=int, default=200, help="pages connected besides the tables' own")
    parser.add_argument("--browser", action="store_true", help="time the first paint in Chromium too")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.tables, args.taps, args.pages, args.browser)), ensure_ascii=False))


if __name__ == "__main__":
    main()
