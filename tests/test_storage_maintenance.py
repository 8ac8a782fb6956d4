"""``python -m storage backup`` and ``check`` on real files, while another process writes."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import samples
from storage import Storage, StorageError
from storage.maintenance import backup, check
from tests.test_storage import ROOT, new_game, sha


def run_storage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "storage", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def played(path: Path, games: int = 3, moves: int = 60) -> list[int]:
    """A database with ``games`` games of each kind, ``moves`` random legal moves into each."""
    store = await Storage.open(path)
    rng = random.Random(3)
    ids = []
    try:
        for i, (variant, options) in enumerate(samples()[:games]):
            game = await new_game(store, chat_id=-200 - i, variant=variant, **options)
            state = await store.games.load_state(game)
            for _ in range(moves):
                if state.is_over:
                    break
                state.apply(rng.choice(state.all_legal_actions()))
                await store.games.record(game, state)
                game = game.model_copy(update={"action_count": len(state.history)})
            ids.append(game.game_id)
    finally:
        await store.close()
    return ids


def counts(path: Path) -> dict[int, int]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT game_id, count(*) FROM actions GROUP BY game_id").fetchall())
    finally:
        conn.close()


async def test_backup_while_another_process_writes_gives_a_checked_consistent_copy(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    store = await Storage.open(path)
    game_id = (await new_game(store, variant="czech", players=3)).game_id  # a long game: hundreds of moves
    await store.close()
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.kill_writer", str(path), str(game_id)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    copies = []
    try:
        for i in range(5):
            target = tmp_path / f"backup-{i}.db"
            await asyncio.to_thread(backup, path, target)
            copies.append(target)
            await asyncio.sleep(0.02)
    finally:
        writer.terminate()
        writer.communicate(timeout=30)
    seen = [counts(copy).get(game_id, 0) for copy in copies]
    assert seen == sorted(seen) and seen[-1] > seen[0], seen  # snapshots taken while the writer went on
    for copy in copies:
        report = await check(copy)
        assert report.ok, report.lines()
        assert report.games == 1 and report.actions == counts(copy).get(game_id, 0)
        store = await Storage.open(copy)  # a backup opens as the bot's database and the game resumes
        try:
            row = await store.games.get(game_id)
            assert row is not None
            state = await store.games.load_state(row)
            if not state.is_over:
                state.apply(state.all_legal_actions()[0])
                await store.games.record(row, state)
        finally:
            await store.close()


async def test_check_replays_every_game_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    await played(path)
    before = sha(path)
    done = run_storage("check", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 games" in done.stdout and done.stdout.strip().endswith("ok")
    assert sha(path) == before


async def test_check_finds_a_log_that_does_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    ids = await played(path)
    conn = sqlite3.connect(path)
    with conn:  # a stored action replaced by another one: the log no longer replays to what was recorded
        conn.execute("DELETE FROM actions WHERE game_id = ? AND seq = 3", (ids[1],))
    conn.close()
    report = await check(path)
    assert not report.ok
    assert any(f"game {ids[1]}" in p for p in report.problems), report.problems
    done = run_storage("check", str(path))
    assert done.returncode == 1 and "NOT OK" in done.stdout


async def test_check_finds_deal_results_that_differ_from_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    ids = await played(path, games=1, moves=200)
    conn = sqlite3.connect(path)
    with conn:
        changed = conn.execute(
            "UPDATE deals SET result = json_set(result, '$.points[0]', 7) WHERE game_id = ? AND deal_no = 0", (ids[0],)
        ).rowcount
    conn.close()
    assert changed == 1
    report = await check(path)
    assert any("deal results differ" in p for p in report.problems), report.problems


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 10])
def test_check_and_backup_refuse_a_file_that_is_not_a_database(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.db"
    path.write_bytes(content)
    done = run_storage("check", str(path))
    assert done.returncode == 1 and "NOT OK" in done.stdout
    done = run_storage("--database", str(path), "backup", str(tmp_path / "copy.db"))
    assert done.returncode == 1 and "backup failed" in done.stderr
    assert not (tmp_path / "copy.db").exists()
    assert path.read_bytes() == content


async def test_backup_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    await played(path, games=1, moves=3)
    target = tmp_path / "copy.db"
    target.write_bytes(b"keep me")
    with pytest.raises(StorageError, match="exists already"):
        backup(path, target)
    assert target.read_bytes() == b"keep me"
    done = run_storage("--database", str(path), "backup", str(tmp_path / "fresh.db"))
    assert done.returncode == 0 and "backed up" in done.stdout, done.stderr
    assert (await check(tmp_path / "fresh.db")).ok


def test_usage_errors_exit_2() -> None:
    assert run_storage().returncode == 2
    assert run_storage("restore", "x").returncode == 2
