"""End to end, bad days on the bot's own machine (issue 48): the disk full, the database locked by another
process.  A press that cannot be stored is refused with a clear alert and changes nothing, one warning says the
database takes no writes and one that it does again, health says why meanwhile, and play goes on by itself
once it can, with nothing lost."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.health import Liveness, report
from storage.maintenance import backup, check
from tests.e2e import (
    GROUP,
    Person,
    World,
    configure,
    eventually,
    loop_time,
    open_game,
    replay,
    running_world,
    with_computers,
)

REFUSED = "I can't save anything right now, so nothing was changed. Please try again in a minute."


def fill_to_the_last_page(path: Path) -> int:
    """Another process takes every page the file has free (a filler table of its own), and the file may grow
    no more: the pages it has, which the bot's connection is then held to, as a full disk would hold it."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")
        pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
        conn.execute(f"PRAGMA max_page_count = {pages}")
        try:
            while True:
                conn.execute("INSERT INTO filler VALUES (zeroblob(200))")
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc), exc
        return int(conn.execute("PRAGMA page_count").fetchone()[0])
    finally:
        conn.close()


async def health(world: World) -> tuple[bool, str]:
    liveness = world.runner.app.bot_data["liveness"] if world.runner.app else None
    assert isinstance(liveness, Liveness)
    healthy, body = await report(liveness, world.runner.storage, False, 1e9)
    return healthy, str(body["database"])


async def press_a_card(world: World, people: list[Person], rng: random.Random) -> tuple[Person, str | None]:
    """The person to move taps a card he may play: who, and the alert it was answered with (None: taken)."""
    await world.runner.settle()
    mover = next(p for p in people if p.my_turn())
    hand, actions, _ = mover.options()
    assert hand is not None and actions, hand
    answer = await mover.press(hand, rng.choice(actions))
    return mover, str(answer["text"]) if answer.get("show_alert") else None


async def a_press_is_taken_soon(world: World, people: list[Person], rng: random.Random, what: str) -> None:
    """Once the database can take writes again, the next press is taken within 5 s (it is probed each second)."""
    since = loop_time()

    async def taken() -> bool:
        return (await press_a_card(world, people, rng))[1] is None

    await eventually(world, taken, timeout=60, what=what)
    assert loop_time() - since <= 5.0


def said_twice(caplog: pytest.LogCaptureFixture, why: str) -> None:
    """The two warnings, one when the database went down (``why``) and one when it came back, and no traceback."""
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2 and why in warned[0] and "takes writes again" in warned[1], warned
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def stored_moves(world: World, game_id: int) -> int:
    _, state = await replay(world, game_id)
    return len(state.history)


async def test_a_full_disk_refuses_moves_with_one_warning_and_play_goes_on_when_space_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The disk fills up mid-series for ten minutes: every press meanwhile is refused with the alert and changes
    nothing, health says 503 because the disk is full, a backup taken meanwhile is whole, two warnings in all;
    once space is back the next press is taken within seconds and the series plays on, no move lost."""
    async with running_world(tmp_path, turn_ping_seconds=1e6, turn_ping_watching_seconds=1e6) as world:
        await configure(world, turn_timer=0)
        people, game = await open_game(world, "/newgame czech", 3)
        rng = random.Random(48)
        for _ in range(5):
            assert (await press_a_card(world, people, rng))[1] is None
        caplog.set_level(logging.DEBUG)
        caplog.clear()
        db = world.runner.storage.db
        pages = fill_to_the_last_page(world.runner.db_path)
        await db.fetchone(f"PRAGMA max_page_count = {pages}")

        accepted = await stored_moves(world, game.game_id)
        for _ in range(400):  # the moves fill what room the file's pages had left, until one finds none
            mover, alert = await press_a_card(world, people, rng)
            if alert is not None:
                break
            accepted += 1
        assert alert == REFUSED, f"{accepted} moves stored and none refused"
        assert await stored_moves(world, game.game_id) == accepted
        hand = mover.hand()
        assert hand is not None and mover.my_turn(), "the refused press changed his hand"
        assert (await health(world))[0] is False

        for _ in range(10):  # ten minutes of a full disk, a press a minute
            await asyncio.sleep(60)
            assert await press_a_card(world, people, rng) == (mover, REFUSED)
        healthy, database = await health(world)
        assert not healthy and database == "not writable: the disk is full", database
        await people[0].say(GROUP, "/score")  # what only reads still answers
        assert "game in progress" in world.group_messages()[-1].text, world.group_messages()[-1].text
        copy = tmp_path / "meanwhile.db"
        backup(world.runner.db_path, copy)
        assert (await check(copy)).ok
        assert await stored_moves(world, game.game_id) == accepted

        await db.fetchone(f"PRAGMA max_page_count = {pages + 100_000}")  # space is back
        await a_press_is_taken_soon(world, people, rng, "a press taken once space is back")
        for _ in range(30):
            assert (await press_a_card(world, people, rng))[1] is None
        assert await stored_moves(world, game.game_id) == accepted + 31
        assert (await health(world))[0] is True

        said_twice(caplog, "takes no writes (the disk is full)")
        live = world.runner.uses.games.get(game.game_id)
        _, stored = await replay(world, game.game_id)
        assert live is not None and live.state.history == stored.history
        with sqlite3.connect(world.runner.db_path) as conn:
            conn.execute("DROP TABLE filler")
        assert (await check(world.runner.db_path)).ok
        assert world.runner.storage.db.unavailable is None
        assert GROUP in {m.chat_id for m in world.group_messages()}


async def test_a_database_locked_by_another_process_refuses_moves_and_play_goes_on_once_it_is_released(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process (a maintenance script, a backup tool) holds the database's write lock longer than the
    bot waits for it: the same refusal, health saying why, no traceback a press, and play goes on by itself once
    the lock is released."""
    async with running_world(tmp_path, turn_ping_seconds=1e6, turn_ping_watching_seconds=1e6) as world:
        await configure(world, turn_timer=0)
        people, game = await open_game(world, "/newgame 4", 4)
        rng = random.Random(480)
        for _ in range(3):
            assert (await press_a_card(world, people, rng))[1] is None
        db = world.runner.storage.db
        await db.execute("PRAGMA busy_timeout = 100")  # how long the bot waits for a lock (5 s by default)
        caplog.set_level(logging.DEBUG)
        caplog.clear()
        accepted = await stored_moves(world, game.game_id)
        other = sqlite3.connect(world.runner.db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # the other process's long transaction
            for _ in range(5):
                _, alert = await press_a_card(world, people, rng)
                assert alert == REFUSED
                await asyncio.sleep(30)
            assert await health(world) == (False, "not writable: another process holds its lock")
            assert await stored_moves(world, game.game_id) == accepted
        finally:
            other.execute("ROLLBACK")
            other.close()
        await a_press_is_taken_soon(world, people, rng, "a press taken once the lock is released")
        for _ in range(5):
            assert (await press_a_card(world, people, rng))[1] is None
        assert await stored_moves(world, game.game_id) == accepted + 6
        said_twice(caplog, "another process holds its lock")
        assert await health(world) == (True, "writable")
        assert (await check(world.runner.db_path)).ok


async def test_a_refusal_speaks_the_language_the_chat_and_the_person_chose(tmp_path: Path) -> None:
    """The refusal of a command the database cannot store comes in the language the group chose with
    /language (and in a private chat, the person's), not in the language of the person's Telegram app."""
    async with running_world(tmp_path) as world:
        ann = world.person(1, "Ann", "en")
        await ann.say(GROUP, "/language ru")
        await ann.say(1, "/language cs")
        await world.runner.storage.db.execute("PRAGMA busy_timeout = 100")
        other = sqlite3.connect(world.runner.db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            await ann.say(GROUP, "/newgame")
            await ann.say(1, "/language en")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert world.group_messages()[-1].text.startswith("Сейчас я не могу ничего сохранить")
        assert world.group_messages(1)[-1].text.startswith("Teď nemůžu nic uložit"), world.group_messages(1)[-1].text


async def test_computer_players_wait_for_the_database_and_play_on_once_it_takes_writes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer's move that cannot be stored is not lost nor logged as a failure: the computer waits for the
    database, and moves once it takes writes again (its pause, then its move: within seconds)."""
    async with running_world(tmp_path, computer_workers=0, computer_budget_seconds=0.02,
                             computer_pause_seconds=5.0) as world:  # fmt: skip
        await configure(world, turn_timer=0, computer_level="basic")
        people, game = await with_computers(world, "/newgame czech", 2)
        db = world.runner.storage.db
        await db.execute("PRAGMA busy_timeout = 100")
        rng = random.Random(4800)

        async def my_turn() -> bool:
            return people[0].my_turn()

        await eventually(world, my_turn, what="Ann's turn")
        caplog.set_level(logging.DEBUG)
        caplog.clear()
        assert (await press_a_card(world, people, rng))[1] is None  # a computer moves next, after its pause
        moved = await stored_moves(world, game.game_id)
        other = sqlite3.connect(world.runner.db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            await asyncio.sleep(60)
            assert db.unavailable == "locked"
            assert await stored_moves(world, game.game_id) == moved
        finally:
            other.execute("ROLLBACK")
            other.close()
        released = loop_time()

        async def computer_moved() -> bool:
            return await stored_moves(world, game.game_id) > moved

        await eventually(world, computer_moved, timeout=60, what="the computer's move once the lock is released")
        assert loop_time() - released <= 7.0
        assert world.runner.fallbacks == 0
        said_twice(caplog, "another process holds its lock")
