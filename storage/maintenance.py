"""Maintenance of a live database file: online backups and a full check.

``backup`` copies a database with SQLite's online backup API: it reads one consistent snapshot, so it is safe
while the bot is running and writing (WAL readers never block the writer, and the writer never blocks them).
The copy is written beside its target under a temporary name, checked, and only then renamed into place, so a
half-written backup never carries the target's name.

``check`` verifies a file without changing it: SQLite's full integrity check, the schema version, that every
game replays from its stored actions to the stored counters and deal results, and that the stored ratings are
what the stored series rate to.  It works on a private snapshot
(taken with the same backup API, migrated there if the file is older than this code), never on the file itself.
"""

from __future__ import annotations

import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from storage.db import SCHEMA_VERSION, CorruptDatabaseError, StorageError, check_file
from storage.repos import RATINGS_VERSION, Storage


def _snapshot(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` (which must not exist) as one consistent snapshot."""
    check_file(source)
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # all pages in one step: one read transaction, one snapshot
        finally:
            dst.close()
    finally:
        src.close()


def backup(source: Path, target: Path) -> int:
    """Copy the database ``source`` to ``target`` while it may be in use; return the schema version copied.

    Refuses to overwrite an existing ``target``."""
    if target.exists():
        raise StorageError(f"{target} exists already; choose a new name for the backup")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        _snapshot(source, partial)
        version = check_file(partial)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    return version


@dataclass
class CheckReport:
    path: Path
    schema_version: int = 0
    games: int = 0
    actions: int = 0
    rated: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = (
            f"{self.path}: schema version {self.schema_version} (this code: {SCHEMA_VERSION}), "
            f"{self.games} games, {self.actions} actions replayed, {self.rated} rated series rated again"
        )
        return [head, *(f"problem: {p}" for p in self.problems), "ok" if self.ok else "NOT OK"]


def _integrity(path: Path) -> list[str]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found = [str(row[0]) for row in conn.execute("PRAGMA integrity_check").fetchall()]
        found += [f"foreign key: {tuple(row)}" for row in conn.execute("PRAGMA foreign_key_check").fetchall()]
    finally:
        conn.close()
    return [] if found == ["ok"] else [p for p in found if p != "ok"]


async def check(path: Path) -> CheckReport:
    """Check the database at ``path`` without changing it (see the module's docstring)."""
    report = CheckReport(path)
    try:
        report.schema_version = check_file(path)
    except StorageError as exc:
        report.problems.append(str(exc))
        return report
    with tempfile.TemporaryDirectory(prefix="kozel-check-") as folder:
        copy = Path(folder) / "snapshot.db"
        _snapshot(path, copy)
        try:
            report.problems += _integrity(copy)
        except sqlite3.DatabaseError as exc:
            report.problems.append(str(CorruptDatabaseError(f"{path}: {exc}")))
            return report
        # a file from before the ratings is rated in the snapshot as the bot would rate it at its next start
        store = await Storage.open(copy, catch_up=report.schema_version < RATINGS_VERSION)
        try:
            await _replay_all(store, report)
            report.rated = await store.ratings.rated_count()
            report.problems += [f"rating: {d}" for d in await store.ratings.recompute()]
        finally:
            await store.close()
    return report


async def _replay_all(store: Storage, report: CheckReport) -> None:
    for game in await store.games.with_status("lobby", "active", "finished", "cancelled"):
        report.games += 1
        try:
            state = await store.games.load_state(game)
        except (ValueError, StorageError) as exc:  # an action the engine refuses, or counts that disagree
            report.problems.append(f"game {game.game_id}: does not replay: {exc}")
            continue
        report.actions += len(state.history)
        stored = await store.games.deals(game.game_id)
        if stored != list(state.deals):
            report.problems.append(
                f"game {game.game_id}: its {len(stored)} stored deal results differ from the "
                f"{len(state.deals)} its actions replay to"
            )
        counters = (state.deal_no, list(state.totals)) != (game.deal_no, list(game.totals))
        if game.action_count and counters:  # (a game's counters are first written with its first action)
            report.problems.append(f"game {game.game_id}: its stored deal number or totals differ from the replay")
