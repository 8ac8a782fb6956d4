"""Running it for real: webhook mode, the health endpoint, SIGTERM under play, and the container's pieces
(the entry command, the health check, nothing written outside the data folder)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import bot.__main__ as entry
from engine import GameState, find_variant, variant_names
from playground.botapi import BotApiServer, Limits
from storage import GameRow, Storage
from storage.maintenance import backup, check
from tests.e2e import (
    GROUP,
    REAL_TIME_SCALE,
    WEBHOOK_SECRET,
    BotRunner,
    finished,
    free_port,
    open_game,
    play_moves,
    play_until,
    replay,
    running_world,
)

ROOT = Path(__file__).resolve().parent.parent


async def post_update(port: int, update: dict[str, Any], secret: str | None) -> int:
    headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"http://127.0.0.1:{port}/kozel/hook", json=update, headers=headers) as response,
    ):
        return response.status


@pytest.mark.real_time
async def test_webhook_mode_plays_and_refuses_requests_without_the_secret(tmp_path: Path) -> None:
    async with running_world(tmp_path, webhook=True, lobby_ttl_seconds=600) as world:
        server, runner = world.server, world.runner
        assert server.webhook is not None
        assert server.webhook["url"].endswith("/kozel/hook") and server.webhook["secret_token"] == WEBHOOK_SECRET
        people, game = await open_game(world, "/newgame czech", 3)
        await play_moves(people, 6, random.Random(2))
        row_before, state_before = await replay(world, game.game_id)
        calls_before = len(server.calls)
        # A forged update, as anyone on the network could post it: /cancel by the game's creator.
        forged = {
            "update_id": 10_000,
            "message": {
                "message_id": 9_999,
                "date": int(world.server.clock.now()),
                "chat": {"id": GROUP, "type": "supergroup", "title": "Friends"},
                "from": {"id": 1, "is_bot": False, "first_name": "P1"},
                "text": "/cancel",
                "entities": [{"type": "bot_command", "offset": 0, "length": 7}],
            },
        }
        assert await post_update(runner.webhook_port, forged, None) == 403
        assert await post_update(runner.webhook_port, forged, "wrong-secret") == 403
        await runner.settle()
        row_after, state_after = await replay(world, game.game_id)
        assert row_after.status == "active" and state_after == state_before and row_after == row_before
        assert len(server.calls) == calls_before  # the bot said nothing
        # The same update with the secret is taken (so the refusals above were about the secret alone).
        assert await post_update(runner.webhook_port, forged, WEBHOOK_SECRET) == 200
        await runner.settle()
        row_after, _ = await replay(world, game.game_id)
        assert row_after.status == "cancelled"
        assert server.violations == [] and server.webhook_refused == []


@pytest.mark.real_time
async def test_health_endpoint_in_both_modes(tmp_path: Path) -> None:
    for webhook in (False, True):
        port = free_port()
        async with running_world(tmp_path / str(webhook), webhook=webhook, http=True, health_port=port,
                                 metrics=webhook) as world:  # fmt: skip
            await world.runner.settle()
            await wait_healthy(port)  # as the container's check does, it may ask again while the bot starts
            async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as page:
                # Prometheus' text on the health endpoint when METRICS is on, and nothing there otherwise
                assert page.status == (200 if webhook else 404)
                if webhook:
                    assert page.content_type == "text/plain" and "kozel_updates_total" in await page.text()
            ok, said = await asyncio.to_thread(health_check, port)
            body = json.loads(said)
            assert ok, body
            assert body["mode"] == ("webhook" if webhook else "polling")
            assert body["receiving"] is True and body["database"] == "writable"
            await world.person(1, "Ann").say(GROUP, "/help")
            body = json.loads((await asyncio.to_thread(health_check, port))[1])
            assert body["last_update_seconds"] is not None
            # The database stops taking writes: the bot is unhealthy, and says why.
            await world.runner.storage.db.conn.execute("PRAGMA query_only = ON")
            ok, said = await asyncio.to_thread(health_check, port)
            assert not ok and "not writable" in json.loads(said)["database"]
            await world.runner.storage.db.conn.execute("PRAGMA query_only = OFF")


def health_check(port: int) -> tuple[bool, str]:
    """``python -m bot.health`` as the container runs it: its exit status and what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.health"],
        env={**os.environ, "HEALTH_PORT": str(port), "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if done.returncode not in (0, 1) or done.stderr:
        print(f"python -m bot.health exited {done.returncode}: {done.stderr}")  # shown when a test fails
    return done.returncode == 0, done.stdout


async def test_a_backup_taken_during_play_restores_into_a_new_bot_that_resumes_the_game(tmp_path: Path) -> None:
    async with running_world(tmp_path, lobby_ttl_seconds=600) as world:
        people, game = await open_game(world, "/newgame czech", 3)
        rng = random.Random(5)
        copy = tmp_path / "backup.db"
        # The backup runs in another thread while the people go on playing.
        taking = asyncio.create_task(asyncio.to_thread(backup, world.runner.db_path, copy))
        await play_moves(people, 8, rng)
        await taking
        assert (await check(copy)).ok
        _, at_backup = await copy_state(copy, game.game_id)
        _, now = await replay(world, game.game_id)
        assert now.history[: len(at_backup.history)] == at_backup.history  # a snapshot of the same game
        await world.runner.stop()
        # Restore: a new bot on the copy, with the same Telegram.  The game goes on from the backup's move.
        world.runner = BotRunner(world.server, copy, lobby_ttl_seconds=600)
        for person in people:
            person.runner = world.runner
        await world.runner.start()
        try:
            await world.runner.settle()
            row, resumed = await replay(world, game.game_id)
            assert resumed.history == at_backup.history and row.status == "active"
            await play_until(people, lambda: finished(world, game.game_id), rng)
            row, state = await replay(world, game.game_id)
            assert row.status == "finished" and state.history[: len(at_backup.history)] == at_backup.history
            assert world.server.violations == []
        finally:
            await world.runner.stop()


async def copy_state(path: Path, game_id: int) -> tuple[GameRow, GameState]:
    store = await Storage.open(path)
    try:
        row = await store.games.get(game_id)
        assert row is not None
        return row, await store.games.load_state(row)
    finally:
        await store.close()


def test_health_check_without_a_bot_says_so() -> None:
    healthy, said = health_check(free_port())
    assert not healthy and "no answer" in said


def test_no_playground_without_a_token_exits_with_the_hint(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--no-playground"],
        env={**os.environ, "BOT_TOKEN": "", "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "BOT_TOKEN is not set" in done.stderr and "@BotFather" in done.stderr
    assert list(tmp_path.iterdir()) == []  # and wrote nothing


@asynccontextmanager
async def bot_process(server: BotApiServer, workdir: Path, **env: str) -> AsyncIterator[subprocess.Popen[str]]:
    """``python -m bot --no-playground`` as the container runs it, in ``workdir``, against ``server``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--no-playground"],
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "PYTHONDONTWRITEBYTECODE": "1",
            "HOME": str(workdir),
            "BOT_TOKEN": server.token,
            "TELEGRAM_BASE_URL": server.base_url,
            "POLL_TIMEOUT_SECONDS": "1",
            "COMPUTER_WORKERS": "0",
            "RATE_OVERALL_PER_SECOND": "0",
            **env,
        },
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30)


async def wait_for(check: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.real_time
async def test_sigterm_under_play_in_webhook_mode_and_the_container_pieces(tmp_path: Path) -> None:
    """The bot as the container runs it: from an empty working folder, database under ``data/``, webhook mode
    and the health endpoint on.  Players play; SIGTERM mid-game stops it cleanly (exit 0) with every move
    committed; a new process resumes the game; and nothing was written outside ``data/``."""
    server = BotApiServer(limits=Limits().scaled(REAL_TIME_SCALE))  # Telegram's flood control, its clock faster
    await server.start()
    work = tmp_path / "app"
    work.mkdir()
    hook_port, health_port = free_port(), free_port()
    env = {
        "DATABASE_PATH": str(work / "data" / "kozel.db"),
        "WEBHOOK_URL": f"http://127.0.0.1:{hook_port}/kozel/hook",
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(hook_port),
        "HEALTH_PORT": str(health_port),
        "COMPUTER_PAUSE_SECONDS": "0.01",
        "COMPUTER_BUDGET_SECONDS": "0.01",
        "GROUP_PERIOD_SECONDS": str(60 * REAL_TIME_SCALE),
        "RATE_PRIVATE_PER_SECOND": str(1 / REAL_TIME_SCALE),
    }
    server.add_group(GROUP, "Friends", admins={1})
    ann = server.add_user(1, "Ann")
    # Telegram's bad moment as the process starts: the start's own call is tried again, the optional menus later.
    server.fail_next("getMe", 1, "500")
    server.fail_next("setMyCommands", 1, "network")
    try:
        async with bot_process(server, work, **env) as bot:
            await wait_for(lambda: server.webhook is not None, "the bot to set its webhook")
            await wait_healthy(health_port)
            # Ann opens a Czech game and fills it with two computer players, who play against her.
            await server.send_text(ann.user_id, GROUP, "/newgame czech")
            await wait_for(lambda: bool(server.bot_messages(GROUP)), "the lobby")
            lobby = server.bot_messages(GROUP)[-1]
            url = next(b["url"] for b in lobby.buttons() if "url" in b)
            await server.send_text(ann.user_id, ann.user_id, f"/start {url.split('?start=')[1]}")
            for _ in range(2):
                await server.settled()
                lobby = server.messages[(GROUP, lobby.message_id)]
                add = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":bot"))
                await server.answer_of(await server.press(ann.user_id, lobby, add))
            await server.settled()
            lobby = server.messages[(GROUP, lobby.message_id)]
            start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
            await server.answer_of(await server.press(ann.user_id, lobby, start))
            await wait_for(lambda: hand_buttons(server, ann.user_id), "Ann's hand")
            for _ in range(3):  # Ann plays whenever it is her turn; the computers answer
                await play_a_card(server, ann.user_id, work / "data" / "kozel.db")
            bot.send_signal(signal.SIGTERM)
            out, _ = bot.communicate(timeout=60)
            assert bot.returncode == 0, out
        stored = actions_in(work / "data" / "kozel.db")
        assert len(stored) >= 3
        async with bot_process(server, work, **env) as bot:  # a new process resumes the game
            await wait_healthy(health_port)
            await play_a_card(server, ann.user_id, work / "data" / "kozel.db")
            assert actions_in(work / "data" / "kozel.db")[: len(stored)] == stored  # nothing lost or rewritten
            bot.send_signal(signal.SIGTERM)
            out, _ = bot.communicate(timeout=60)
            assert bot.returncode == 0, out
        written = sorted(str(p.relative_to(work)) for p in work.rglob("*"))
        assert all(name == "data" or name.startswith("data/") for name in written), written
        assert server.violations == [] and server.webhook_refused == [] and server.limited == []
        assert server.failed == ["getMe: 500", "setMyCommands: network"]
        assert len(server.commands) == 6  # the menus were set after all
    finally:
        await server.stop()


async def wait_healthy(port: int, timeout: float = 60.0) -> None:
    """Run the container's health check (off the event loop, which serves the Bot API) until it passes."""
    deadline = time.monotonic() + timeout
    while not (await asyncio.to_thread(health_check, port))[0]:
        assert time.monotonic() < deadline, "the health check never passed"
        await asyncio.sleep(0.2)


def hand_buttons(server: BotApiServer, user_id: int) -> list[tuple[Any, str]]:
    for message in reversed(server.bot_messages(user_id)):
        found = [b["callback_data"] for b in message.buttons() if ":a" in b.get("callback_data", "")]
        if found:
            return [(message, data) for data in found]
    return []


def my_turn(server: BotApiServer, user_id: int) -> list[tuple[Any, str]]:
    found = hand_buttons(server, user_id)
    return found if found and "👉" in found[0][0].text else []


async def play_a_card(server: BotApiServer, user_id: int, database: Path) -> None:
    """Wait for the seat's turn and play its first playable card, until the move is stored (a press on a
    hand that was about to change is refused as stale, as in Telegram, and made again)."""
    conn = sqlite3.connect(database)
    try:
        (seat,) = conn.execute("SELECT seat FROM seats WHERE user_id = ?", (user_id,)).fetchone()
    finally:
        conn.close()
    mine = sum(1 for a in actions_in(database) if a.startswith(f"{seat} "))
    deadline = time.monotonic() + 30
    while sum(1 for a in actions_in(database) if a.startswith(f"{seat} ")) == mine:
        assert time.monotonic() < deadline, "the move was never stored"
        turn = my_turn(server, user_id)
        if turn:
            message, data = turn[0]
            await server.answer_of(await server.press(user_id, message, data))
        await asyncio.sleep(0.1)


def actions_in(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT action FROM actions ORDER BY game_id, seq")]
    finally:
        conn.close()


def test_a_setting_that_does_not_exist_stops_the_start_and_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelled key in .env did nothing at all (two tests set RATE_GROUP_PER_MINUTE, which no setting is):
    now the start stops, naming it and the nearest real setting."""
    (tmp_path / ".env").write_text("BOT_TOKEN=123:x\nGROUP_MESAGES_PER_MINUTE=10\n")
    monkeypatch.chdir(tmp_path)
    assert entry.main([]) == 2
    said = capsys.readouterr().err
    assert "GROUP_MESAGES_PER_MINUTE is not a setting; did you mean GROUP_MESSAGES_PER_MINUTE?" in said


def test_a_missing_compiled_core_stops_the_start_and_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32: the package installed without a C compiler has no compiled core; the bot does not start
    with weaker computer players, it stops and says how to build it."""
    (tmp_path / ".env").write_text("BOT_TOKEN=123:x\n")
    monkeypatch.chdir(tmp_path)
    game = next(v for v in map(find_variant, variant_names()) if v.compiled is not None)
    monkeypatch.setitem(sys.modules, f"{game.package}._compiled", None)  # its import fails, as when it was not built
    monkeypatch.delattr(sys.modules[game.package], "_compiled", raising=False)
    monkeypatch.delitem(sys.modules, str(game.compiled), raising=False)  # and its bridge is imported again

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the bot started without its compiled core")

    monkeypatch.setattr(entry, "build_application", started)
    assert entry.main([]) == 2
    said = capsys.readouterr().err
    assert f"cannot start: the compiled search core of {game.title} (engine/games/" in said and "is not built" in said
    assert "install a C compiler" in said
