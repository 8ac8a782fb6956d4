"""Storage on real SQLite files in a temporary directory."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import Action, GameState, find_variant
from engine.registry import samples
from storage import (
    SCHEMA_VERSION,
    ChatSettings,
    CorruptDatabaseError,
    DuplicateActionError,
    GameRow,
    NewerSchemaError,
    NotADatabaseError,
    OpenGameExistsError,
    SeatTakenError,
    Storage,
    StorageUnavailable,
)
from storage.db import MIGRATIONS, split_sql
from tests.helpers import slow_commits

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await Storage.open(tmp_path / "kozel.db")
    yield store
    await store.close()


async def new_game(storage: Storage, chat_id: int = -100, variant: str = "four_card", **options: Any) -> GameRow:
    await storage.chats.ensure(chat_id, "Table", "supergroup")
    players = find_variant(variant).options(options).num_players
    game = await storage.games.create(chat_id, variant, options, seed=chat_id * -7 + 1, creator_id=None)
    for seat in range(players):
        user_id = abs(chat_id) * 10 + seat
        await storage.players.upsert(user_id, f"Player {seat}")
        await storage.games.take_seat(game.game_id, seat, user_id=user_id)
    await storage.games.set_status(game.game_id, "active")
    row = await storage.games.get(game.game_id)
    assert row is not None
    return row


async def play_out(storage: Storage, game: GameRow, seed: int, user_id: int) -> GameState:
    """Random play of a stored game to its end, each action recorded as the bot records it."""
    state = await storage.games.load_state(game)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
        await storage.games.record(game, state, user_id=user_id)
        game = game.model_copy(update={"action_count": len(state.history)})
    return state


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- set-up and migrations ----------------------------------------------------------------------------------


async def test_pragmas_are_set_once_on_open(storage: Storage) -> None:
    async def pragma(name: str) -> Any:
        row = await storage.db.fetchone(f"PRAGMA {name}")
        assert row is not None
        return row[0]

    assert await pragma("foreign_keys") == 1
    assert await pragma("journal_mode") == "wal"
    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("busy_timeout") == 5000


async def test_migrations_from_an_empty_database(storage: Storage) -> None:
    assert await storage.db.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    rows = await storage.db.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    assert [(r["version"], r["name"]) for r in rows] == [(m.version, m.name) for m in MIGRATIONS]


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
async def test_migrations_from_each_earlier_version_keep_the_data(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    for migration in MIGRATIONS[:version]:
        for statement in split_sql(migration.sql):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (migration.version, migration.name))
        conn.execute(f"PRAGMA user_version = {migration.version}")
    conn.execute("INSERT INTO chats (chat_id, title) VALUES (-5, 'Old')")
    conn.execute("INSERT INTO games (chat_id, variant, seed, status) VALUES (-5, 'czech', 3, 'active')")
    conn.close()
    store = await Storage.open(path)
    try:
        assert await store.db.schema_version() == SCHEMA_VERSION
        chat = await store.chats.get(-5)
        assert chat is not None and chat.title == "Old"
        game = await store.games.open_game(-5)
        assert game is not None and game.variant == "czech"
        assert await sqlites_own_clock(store) == []
        assert [tuple(r) for r in await store.db.fetchall("PRAGMA integrity_check")] == [("ok",)]
    finally:
        await store.close()


SQLITES_CLOCK = re.compile(r"'now'|current_timestamp|current_time|current_date|julianday|unixepoch", re.I)


async def sqlites_own_clock(store: Storage) -> list[str]:
    """The tables and indexes whose schema would read SQLite's clock rather than the bot's."""
    rows = await store.db.fetchall("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
    return [row["name"] for row in rows if SQLITES_CLOCK.search(row["sql"])]


async def test_no_column_defaults_to_sqlites_clock(storage: Storage) -> None:
    """Every time a row keeps is the bot's clock (the one Storage was opened with): a statement that forgot
    its time fails, instead of being stamped by another clock."""
    assert await sqlites_own_clock(storage) == []
    with pytest.raises(sqlite3.IntegrityError, match=r"NOT NULL constraint failed: chats\.created_at"):
        await storage.db.execute("INSERT INTO chats (chat_id) VALUES (-7)")


# --- bad files ------------------------------------------------------------------------------------------------


def test_a_missing_file_is_created(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "new.db"

    async def run() -> None:
        store = await Storage.open(path)
        await store.close()

    asyncio.run(run())
    assert path.exists()


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (b"", NotADatabaseError, "empty file"),
        (
            bytes(random.Random(1).getrandbits(8) for _ in range(5000)),
            NotADatabaseError,
            "not an SQLite database",
        ),
        (b"SQLite format 3\x00" + b"\x00" * 20, NotADatabaseError, "not an SQLite database"),
        (b"PK\x03\x04 a zip file, not a database" * 10, NotADatabaseError, "not an SQLite database"),
    ],
)
async def test_bad_files_give_a_clear_error_and_stay_unchanged(
    tmp_path: Path, content: bytes, error: type[Exception], message: str
) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(content)
    with pytest.raises(error, match=message):
        await Storage.open(path)
    assert path.read_bytes() == content
    assert not Path(str(path) + "-wal").exists()


async def filled_database(path: Path) -> None:
    store = await Storage.open(path)
    game = await new_game(store)
    state = await store.games.load_state(game)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
    await store.games.record(game, state)
    await store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await store.close()


async def test_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    await filled_database(path)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    before = sha(path)
    with pytest.raises(CorruptDatabaseError, match="damaged"):
        await Storage.open(path)
    assert sha(path) == before


async def test_newer_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    await filled_database(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = sha(path)
    with pytest.raises(NewerSchemaError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        await Storage.open(path)
    assert sha(path) == before


# --- repositories ---------------------------------------------------------------------------------------------


async def test_chat_round_trip_settings_and_migration(storage: Storage) -> None:
    chat = await storage.chats.ensure(-1, "Friends", "group")
    assert chat.settings == ChatSettings()
    settings = ChatSettings(
        language="ru", default_variant="classic", options={"classic": {"deck": 32}}, turn_timer=0, table="text"
    )
    await storage.chats.save_settings(-1, settings)
    saved = await storage.chats.get(-1)
    assert saved is not None and saved.settings == settings
    assert (await storage.chats.ensure(-1, "Friends!", "group")).title == "Friends!"
    game = await new_game(storage, chat_id=-1)
    await storage.chats.migrate(-1, -1001)
    assert await storage.chats.get(-1) is None
    moved = await storage.chats.get(-1001)
    assert moved is not None and moved.settings == settings
    open_game = await storage.games.open_game(-1001)
    assert open_game is not None and open_game.game_id == game.game_id
    assert await storage.chats.resolve(-1) == -1001


async def test_a_chat_known_by_its_id_alone_keeps_its_stored_title_and_kind(storage: Storage) -> None:
    """A use case that has only the chat's id (the settings menu, a language chosen) must not blank what an
    update stored: "⚙️ Settings for “”" came from an upsert with default values."""
    await storage.chats.ensure(-7, "Friends", "supergroup")
    known = await storage.chats.known(-7)
    assert (known.title, known.kind) == ("Friends", "supergroup")
    stored = await storage.chats.get(-7)
    assert stored is not None and (stored.title, stored.kind) == ("Friends", "supergroup")
    new = await storage.chats.known(-8)  # a chat never seen: added, with nothing made up about it
    assert (new.title, new.kind) == ("", "group")


async def test_chat_migration_when_the_new_chat_is_already_known(storage: Storage) -> None:
    await storage.chats.ensure(-2, "Old", "group")
    game = await new_game(storage, chat_id=-2)
    await storage.chats.ensure(-1002, "New", "supergroup")
    await storage.chats.migrate(-2, -1002)
    open_game = await storage.games.open_game(-1002)
    assert open_game is not None and open_game.game_id == game.game_id


async def test_player_round_trip(storage: Storage) -> None:
    player = await storage.players.upsert(7, "Ann", "ann", "ru")
    assert (player.name, player.username, player.language, player.can_message) == ("Ann", "ann", "ru", False)
    await storage.players.set_can_message(7, True)
    await storage.players.set_language(7, "en")
    player = await storage.players.upsert(7, "Anna", None, None)
    assert player.name == "Anna" and player.language == "ru" and player.chosen_language == "en"
    assert player.can_message and player.effective_language == "en"
    assert set(await storage.players.many([7, 8])) == {7}


async def test_X2_one_open_game_per_chat(storage: Storage) -> None:
    await new_game(storage)
    with pytest.raises(OpenGameExistsError):
        await storage.games.create(-100, "classic", {}, 1, None)


async def test_X2_a_finished_game_frees_the_chat(storage: Storage) -> None:
    first = await new_game(storage)
    await storage.games.set_status(first.game_id, "finished")
    second = await storage.games.create(-100, "classic", {}, 1, None)  # a new lobby in the same chat
    assert second.game_id != first.game_id
    with pytest.raises(OpenGameExistsError):  # and that lobby is again the only open game
        await storage.games.create(-100, "czech", {}, 2, None)


async def test_seats(storage: Storage) -> None:
    await storage.chats.ensure(-3, "Table", "group")
    for user in (1, 2, 3):
        await storage.players.upsert(user, f"U{user}")
    game = await storage.games.create(-3, "classic", {"deck": 32}, 9, 1)
    assert game.status == "lobby" and game.options == {"deck": 32}
    await storage.games.take_seat(game.game_id, 0, user_id=1)
    await storage.games.take_seat(game.game_id, 2, user_id=2)
    with pytest.raises(SeatTakenError):
        await storage.games.take_seat(game.game_id, 2, user_id=3)
    with pytest.raises(SeatTakenError):
        await storage.games.take_seat(game.game_id, 1, user_id=1)
    await storage.games.take_seat(game.game_id, 1, computer="strong")
    await storage.games.reseat(game.game_id, [2, 0, 1])
    seats = await storage.games.seats(game.game_id)
    assert [(s.seat, s.user_id, s.computer) for s in seats] == [
        (0, 2, None),
        (1, 1, None),
        (2, None, "strong"),
    ]
    await storage.games.set_hand_message(game.game_id, 1, 555, 0)
    await storage.games.set_lobby_message(game.game_id, 11)
    await storage.games.set_table_message(game.game_id, 12, 0, picture=True)
    await storage.games.set_announced_deals(game.game_id, 3)
    seats = await storage.games.seats(game.game_id)
    assert (seats[1].hand_message_id, seats[1].hand_deal_no) == (555, 0)
    row = await storage.games.get(game.game_id)
    assert row is not None
    assert (row.lobby_message_id, row.table_message_id, row.table_deal_no, row.announced_deals) == (11, 12, 0, 3)
    assert row.table_picture  # a restart edits the table as the picture it is
    await storage.games.set_table_message(game.game_id, 13, 1)
    assert (again := await storage.games.get(game.game_id)) is not None and not again.table_picture
    await storage.games.set_seat_holder(game.game_id, 2, user_id=3)
    assert (await storage.games.seats(game.game_id))[2].user_id == 3
    await storage.games.leave_seat(game.game_id, 0)
    assert len(await storage.games.seats(game.game_id)) == 2
    assert [g.game_id for g in await storage.games.games_of_player(1, "lobby")] == [game.game_id]


async def test_foreign_keys_are_enforced(storage: Storage) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await storage.games.create(-999, "czech", {}, 1, None)  # no such chat


async def test_transaction_rolls_back_on_error(storage: Storage) -> None:
    await storage.chats.ensure(-4, "Table", "group")
    with pytest.raises(RuntimeError):
        async with storage.db.transaction():
            await storage.chats.save_settings(-4, ChatSettings(language="en"))
            raise RuntimeError("boom")
    chat = await storage.chats.get(-4)
    assert chat is not None and chat.settings.language is None


async def test_updates_are_claimed_once(storage: Storage) -> None:
    assert await storage.updates.claim(42)
    assert not await storage.updates.claim(42)
    await storage.updates.prune()


@pytest.mark.parametrize(("variant", "options"), samples(every=True))
async def test_actions_deals_and_results_round_trip(storage: Storage, variant: str, options: dict[str, Any]) -> None:
    game = await new_game(storage, variant=variant, **options)
    state = await play_out(storage, game, seed=3, user_id=1)
    row = await storage.games.get(game.game_id)
    assert row is not None
    assert row.status == "finished" and row.action_count == len(state.history)
    assert row.totals == state.totals and row.deal_no == state.deal_no
    assert row.outcome is not None and tuple(row.outcome["winners"]) == state.outcome.winners  # type: ignore[union-attr]
    assert await storage.games.actions(game.game_id) == state.history
    assert await storage.games.deals(game.game_id) == state.deals
    results = await storage.results.of_game(game.game_id)
    assert {r.seat for r in results if r.won} == set(state.outcome.winners)  # type: ignore[union-attr]
    table = await storage.results.chat_table(-100, variant)
    assert sum(line.won for line in table) == len(state.outcome.winners)  # type: ignore[union-attr]
    totals = await storage.results.player_totals(results[0].user_id or 0)
    assert totals[variant]["played"] == 1
    assert await storage.games.load_state(row) == state


async def test_cancel_keeps_results_marked_cancelled(storage: Storage) -> None:
    game = await new_game(storage)
    state = await storage.games.load_state(game)
    state.apply(state.all_legal_actions()[0])
    await storage.games.record(game, state)
    game = game.model_copy(update={"action_count": 1})
    await storage.games.cancel(game)
    row = await storage.games.get(game.game_id)
    assert row is not None and row.status == "cancelled"
    results = await storage.results.of_game(game.game_id)
    assert len(results) == 4 and all(r.cancelled for r in results)
    assert await storage.results.chat_table(-100, "four_card") == []


# --- resume, concurrency, kill -------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), samples(every=True))
async def test_X3_resume_after_close_equals_an_uninterrupted_run(
    tmp_path: Path, variant: str, options: dict[str, Any]
) -> None:
    path = tmp_path / "resume.db"
    rng = random.Random(4)
    store = await Storage.open(path)
    game = await new_game(store, variant=variant, **options)
    state = await store.games.load_state(game)
    for _ in range(40):
        state.apply(rng.choice(state.all_legal_actions()))
        await store.games.record(game, state)
        game = game.model_copy(update={"action_count": len(state.history)})
    await store.close()

    store = await Storage.open(path)
    try:
        row = await store.games.get(game.game_id)
        assert row is not None
        resumed = await store.games.load_state(row)
        assert resumed == state
        while not state.is_over:  # both go on the same way to the end
            action = rng.choice(state.all_legal_actions())
            state.apply(action)
            resumed.apply(action)
            await store.games.record(row, resumed)
            row = row.model_copy(update={"action_count": len(resumed.history)})
        fresh = await store.games.get(game.game_id)
        assert fresh is not None
        assert await store.games.load_state(fresh) == state
        assert find_variant(variant).replay(game.seed, state.history, options) == state
    finally:
        await store.close()


async def test_two_concurrent_submissions_of_the_same_move_store_one(tmp_path: Path) -> None:
    path = tmp_path / "race.db"
    first = await Storage.open(path)
    second = await Storage.open(path)  # a second connection, as another process would have
    try:
        game = await new_game(first)
        state = await first.games.load_state(game)
        state.apply(state.all_legal_actions()[0])
        outcomes = await asyncio.gather(
            first.games.record(game, state),
            first.games.record(game, state),
            second.games.record(game, state),
            return_exceptions=True,
        )
        assert sum(o is None for o in outcomes) == 1
        assert all(isinstance(o, DuplicateActionError) for o in outcomes if o is not None)
        assert await first.games.actions(game.game_id) == state.history
        row = await first.games.get(game.game_id)
        assert row is not None and row.action_count == 1
    finally:
        await first.close()
        await second.close()


def test_kill_the_writer_at_random_moments(tmp_path: Path) -> None:
    """A separate process appends actions and is killed with SIGKILL 50 times; every time the stored log is a
    prefix of what it announced (at most the one in flight is missing), and the game resumes from it."""
    path = tmp_path / "kill.db"

    async def create() -> int:
        store = await Storage.open(path)
        game = await new_game(store, variant="czech", players=6)
        await store.close()
        return game.game_id

    game_id = asyncio.run(create())
    rng = random.Random(5)
    sent: list[str] = []
    kills = 0
    written = 0  # actions committed by the writers
    in_flight = 0  # kills that caught an announced action before its commit
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    while kills < 50:
        previous = len(sent)
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.kill_writer", str(path), str(game_id)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=env,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.005, 0.12))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        lines = [line for line in out.splitlines() if line]
        done = lines[-1:] == ["done"]
        sent += [line for line in lines if line != "done"]
        kills += 1
        conn = sqlite3.connect(path)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = [
                r[0] for r in conn.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
            ]
            count = conn.execute("SELECT action_count FROM games WHERE game_id = ?", (game_id,)).fetchone()[0]
        finally:
            conn.close()
        assert stored == sent[: len(stored)] and len(sent) - len(stored) <= 1, (len(sent), len(stored))
        assert count == len(stored)
        written += len(stored) - previous
        in_flight += len(sent) - len(stored)
        sent = stored  # what was announced but not committed will be played again, the same way
        if done:
            game_id = asyncio.run(create_next(path))
            sent = []
    assert written > 500 and in_flight > 0, (written, in_flight)
    print(f"kill test: {kills} kills, {written} actions committed, {in_flight} caught in flight")

    async def check() -> None:
        store = await Storage.open(path)
        row = await store.games.get(game_id)
        assert row is not None
        state = await store.games.load_state(row)
        assert [a.text() for a in state.history] == sent
        assert Action.parse(sent[0]) if sent else True
        await store.close()

    asyncio.run(check())


async def create_next(path: Path) -> int:
    store = await Storage.open(path)
    try:
        finished = await store.games.with_status("finished")
        game = await new_game(store, chat_id=-100 - len(finished), variant="czech", players=6)
        return game.game_id
    finally:
        await store.close()


async def test_stand_ins_missed_turns_votes_and_the_turn_clock(tmp_path: Path) -> None:
    """Migration 0004: a computer standing in for a person, his missed turns, cancel votes in order, and when
    the last action was stored (where a turn timer counts from after a restart), on the storage's clock."""
    clock = [1_796_000_000.25]  # a wall-clock time, to the millisecond
    storage = await Storage.open(tmp_path / "kozel.db", now=lambda: clock[0])
    try:
        await stand_ins_missed_turns_votes_and_the_turn_clock(storage, clock)
    finally:
        await storage.close()


async def stand_ins_missed_turns_votes_and_the_turn_clock(storage: Storage, clock: list[float]) -> None:
    game = await new_game(storage, variant="czech", players=3)
    started = clock[0]
    assert await storage.games.last_action_at(game.game_id) == started
    await storage.games.set_stand_in(game.game_id, 1, "strong", 2)
    seat = (await storage.games.seats(game.game_id))[1]
    assert (seat.stand_in, seat.timeouts, seat.player_level, seat.user_id) == ("strong", 2, "strong", 1000 + 1)
    await storage.games.set_cancel_votes(game.game_id, [1002, 1000, 1002])
    row = await storage.games.get(game.game_id)
    assert row is not None and row.cancel_votes == [1002, 1000]
    for message_id in (71, 72, 71):  # migration 0006: the vote messages, each once, in order
        await storage.games.add_vote_message(game.game_id, message_id)
    row = await storage.games.get(game.game_id)
    assert row is not None and row.vote_message_ids == [71, 72]

    # A move and what it did to its seat are committed together, or not at all.
    state = await storage.games.load_state(row)
    state.apply(state.legal_actions(state.to_move or 0)[0])
    back = seat.model_copy(update={"stand_in": None, "timeouts": 0})
    stale = row.model_copy(update={"action_count": 0})
    clock[0] += 12.5
    await storage.games.record(row, state, None, back)
    assert (await storage.games.seats(game.game_id))[1].stand_in is None
    again = back.model_copy(update={"stand_in": "basic", "timeouts": 2})
    with pytest.raises(DuplicateActionError):
        await storage.games.record(stale, state, None, again)
    assert (await storage.games.seats(game.game_id))[1].stand_in is None  # rolled back with the move
    assert await storage.games.last_action_at(game.game_id) == started + 12.5


async def test_what_the_messages_showed_at_a_clean_stop_is_read_once(tmp_path: Path) -> None:
    """Migration 0009: the record a clean stop keeps replaces the one before, and a start takes it away as it
    reads it (after a crash that follows, it would be untrue)."""
    storage = await Storage.open(tmp_path / "shown.db")
    try:
        await storage.shown.keep([(-1, 5, b"old", ""), (7, 9, b"x", "")])
        await storage.shown.keep([(-1, 5, b"\x00" * 16, "table:abc"), (8, 3, b"\x01" * 16, "")])
    finally:
        await storage.close()
    storage = await Storage.open(tmp_path / "shown.db")
    try:
        assert sorted(await storage.shown.take()) == [(-1, 5, b"\x00" * 16, "table:abc"), (8, 3, b"\x01" * 16, "")]
        assert await storage.shown.take() == []
    finally:
        await storage.close()


async def test_every_time_stored_is_the_bots_clocks_never_sqlites(tmp_path: Path) -> None:
    """The bot's one clock stamps every row (its rows are read back by a turn's timer and /stats' chart): on a
    clock set to 2001, a whole series, a chat's migration, settings, notices, updates and the health probe
    store no time but 2001's, though the tables' defaults would take SQLite's own."""
    storage = await Storage.open(tmp_path / "clock.db", now=lambda: 978_307_200.0)
    try:
        game = await new_game(storage, chat_id=-3, variant="czech", players=3)
        await storage.chats.known(-4)
        await storage.chats.save_settings(-3, ChatSettings(language="cs"))
        await storage.players.set_can_message(30, False)
        await storage.players.set_language(31, "ru")
        await storage.notices.toggle(-3, 31)
        await storage.updates.claim(7)
        await storage.db.probe_write()
        await play_out(storage, game, seed=5, user_id=30)
        await storage.chats.migrate(-4, -5)
        stamps: Counter[str] = Counter()
        for (table,) in await storage.db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"):
            for row in await storage.db.fetchall(f"SELECT * FROM {table}"):
                stamps.update(v for v in tuple(row) if isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT.*Z", v))
        assert set(stamps) == {"2001-01-01T00:00:00.000Z"}, stamps
        assert stamps["2001-01-01T00:00:00.000Z"] > 20  # the check saw the rows
    finally:
        await storage.close()


def stored_chats(path: Path) -> set[int]:
    """The chats committed to the file, as another process reads it."""
    with contextlib.closing(sqlite3.connect(path)) as other:
        return {row[0] for row in other.execute("SELECT chat_id FROM chats")}


@pytest.mark.real_time  # (a slow disk: its commits wait on the loop, which virtual time would not let them)
async def test_transactions_that_wait_while_one_commits_are_stored_by_one_commit_each_after_it(
    storage: Storage,
) -> None:
    """Group commit: with each commit taking 200 ms, ten writes made at once are stored by one commit, not ten
    (each waited for the connection while another wrote); and each returns only once its row is on disk for
    another process to read."""
    log = slow_commits(storage.db, 0.2, asyncio.sleep)

    async def write(chat_id: int) -> None:
        await storage.chats.ensure(chat_id, f"chat {chat_id}", "group")
        assert chat_id in stored_chats(storage.db.path), "a write returned before its commit"

    await asyncio.gather(*(write(-100 - i) for i in range(10)))
    assert len(log) == 1
    await write(-99)  # alone: its own commit
    assert len(log) == 2


@pytest.mark.real_time
async def test_a_failed_group_commit_fails_every_transaction_of_the_group_and_stores_none(storage: Storage) -> None:
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13
    slow_commits(storage.db, 0.2, asyncio.sleep, fail=full)
    results = await asyncio.gather(
        *(storage.chats.ensure(-200 - i, "c", "group") for i in range(5)), return_exceptions=True
    )
    assert [type(r) for r in results] == [StorageUnavailable] * 5
    assert not {-200 - i for i in range(5)} & stored_chats(storage.db.path)
    assert storage.db.unavailable == "full"
