"""One SQLite connection per process: checked, migrated and tuned once, with explicit transactions.

PRAGMAs:
- ``foreign_keys=ON``: seats, actions and results cannot point at games or chats that do not exist.
- ``journal_mode=WAL``: readers never block the writer.
- ``synchronous=FULL``: every commit is on disk before ``COMMIT`` returns.  With ``NORMAL`` a WAL commit
  can be lost on power failure, and the bot tells the players about a move right after committing it: a
  move they have seen must never disappear.  The cost (one fsync a commit) is measured in
  ``bench/storage.py``; at the speed people tap cards it does not matter.
- ``busy_timeout``: a second process (a maintenance script) waits instead of failing at once.

A write the file cannot take (the disk full, the database locked by another process for longer than
``busy_timeout``, the disk read-only or failing) raises ``StorageUnavailable`` with its reason, after the
transaction was rolled back whole.  The first such failure logs one warning and marks the database down: from
then on writes (a write transaction; ``execute``, ``insert`` make one) are refused at once, without waiting on the disk
or the lock, until ``probe_write`` finds that it takes writes again (one more warning says so).  Reads go on
meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import shutil
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from engine.clock import wall

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000


class StorageError(Exception):
    """Base class of storage errors."""


class NotADatabaseError(StorageError):
    """The file is not an SQLite database (empty, random bytes, another format)."""


class CorruptDatabaseError(StorageError):
    """The file is an SQLite database that fails its integrity check (truncated, damaged)."""


class NewerSchemaError(StorageError):
    """The database was written by a newer version of the bot."""


class StorageUnavailable(StorageError):
    """The database cannot take a write now; nothing of the transaction was stored.  ``reason``: ``full`` (the
    disk, or the database's page limit), ``locked`` (another process holds the write lock), ``read-only`` or
    ``disk`` (the disk fails)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the database takes no writes: {REASONS.get(reason, reason)}")
        self.reason = reason


REASONS = {
    "full": "the disk is full",
    "locked": "another process holds its lock",
    "read-only": "the file or its disk is read-only",
    "disk": "the disk fails to write",
}
# SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode`` & 0xFF) of a write the file cannot take now
_UNAVAILABLE = {13: "full", 5: "locked", 6: "locked", 8: "read-only", 10: "disk"}
# What ``probe_write`` needs free before it says the database takes writes again: on the file's disk, and in
# the database itself (a row this long, written and rolled back), comfortably more than a deal's end writes.
ROOM_ON_DISK = 1 << 20
ROOM_IN_FILE = 64 << 10


def unavailable_reason(exc: BaseException) -> str | None:
    """Why SQLite refused a write, if it is one of a moment rather than a bug of the statement."""
    if isinstance(exc, StorageUnavailable):
        return exc.reason
    if isinstance(exc, sqlite3.OperationalError):
        return _UNAVAILABLE.get(getattr(exc, "sqlite_errorcode", 0) & 0xFF)
    return None


class DuplicateActionError(StorageError):
    """An action with this sequence number is already stored: a double tap or a redelivered update."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations() -> list[Migration]:
    """The numbered ``migrations/NNNN_name.sql`` files shipped with this package, in order."""
    found = []
    for entry in resources.files("storage").joinpath("migrations").iterdir():
        if entry.name.endswith(".sql"):
            number, _, rest = entry.name.partition("_")
            found.append(Migration(int(number), rest.removesuffix(".sql"), entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations are not numbered 1..n: {[m.version for m in found]}")
    return found


MIGRATIONS = load_migrations()
SCHEMA_VERSION = MIGRATIONS[-1].version
# The time of the statement running, from the bot's one clock (``Database.now``), as the rows store times: never
# SQLite's own, so that what the bot stores and reads back (a turn's timer, /stats' chart) keeps one clock.
NOW = "kozel_now()"


def to_json(value: Any) -> str:
    """A value as a JSON column stores it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def check_file(path: Path) -> int:
    """Check an existing database file without changing it; return its schema version (0: no schema)."""
    with path.open("rb") as fh:
        header = fh.read(100)
    if not header:
        raise NotADatabaseError(f"{path} is an empty file, not a database of this bot; move it away or delete it")
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise NotADatabaseError(f"{path} is not an SQLite database (its first bytes are {header[:16]!r})")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(f"{path} is a damaged SQLite database: {exc}") from None
    if problems != ["ok"]:
        raise CorruptDatabaseError(f"{path} is a damaged SQLite database: {'; '.join(problems[:3])}")
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"{path} has schema version {version}, newer than this bot's {SCHEMA_VERSION}; "
            "run a newer version of the bot on it, or use another DATABASE_PATH"
        )
    return version


_current_tx: contextvars.ContextVar[Database | None] = contextvars.ContextVar("storage_tx", default=None)
_probing: contextvars.ContextVar[bool] = contextvars.ContextVar("storage_probing", default=False)


def size_on_disk(path: Path) -> int:
    """The bytes of the database at ``path`` on disk, its write-ahead log included (0 for a file not there)."""
    total = 0
    for part in (path, path.with_name(path.name + "-wal")):
        with contextlib.suppress(OSError):
            total += part.stat().st_size
    return total


class _OnTheThread:
    """How many calls of this process are with SQLite's thread now.  A test whose event loop runs on virtual
    time (``playground.virtual_time``) lets no time pass while one is: the thread works at the machine's
    speed, and the loop's time must not run on meanwhile."""

    count = 0

    def __enter__(self) -> None:
        _OnTheThread.count += 1

    def __exit__(self, *exc: object) -> None:
        _OnTheThread.count -= 1


_on_the_thread = _OnTheThread()


def working() -> bool:
    """Whether a statement (or opening or closing a database) is with SQLite's thread."""
    return _OnTheThread.count > 0


class Database:
    """The process's connection.  Every statement runs under one lock, so a transaction of one coroutine
    never interleaves with statements of another; nested ``transaction()`` blocks join the outer one."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, now: Callable[[], float] = wall) -> None:
        self.conn = conn
        self.path = path
        self.now = now
        self._statement_time = self.stamp()  # what ``NOW`` gives the statement running
        self._lock = asyncio.Lock()
        self._commit_clock: Callable[[], float] | None = None
        self._on_commit: Callable[[float], None] | None = None
        self.unavailable: str | None = None  # why writes are refused, while the database is down
        self.on_down: Callable[[str], None] | None = None  # told when it goes down, to start probing it
        self._back = asyncio.Event()
        self._back.set()
        self._group: list[asyncio.Future[None]] = []  # transactions that wait for the next COMMIT
        self._queued = 0  # transactions waiting for the connection (the last of them commits the group)

    def time_commits(self, monotonic: Callable[[], float], observe: Callable[[float], None]) -> None:
        """Tell ``observe`` how many seconds each transaction's COMMIT took, on ``monotonic``'s clock."""
        self._commit_clock, self._on_commit = monotonic, observe

    def size(self) -> int:
        """The database's bytes on disk, its write-ahead log included."""
        return size_on_disk(self.path)

    def stamp(self) -> str:
        """``now`` as the database writes its times: ISO 8601 in UTC, to the millisecond."""
        return datetime.fromtimestamp(self.now(), UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    @classmethod
    async def open(cls, path: str | Path, now: Callable[[], float] = wall) -> Database:
        path = Path(path)
        version = check_file(path) if path.exists() else 0
        path.parent.mkdir(parents=True, exist_ok=True)
        with _on_the_thread:
            conn = await aiosqlite.connect(path, isolation_level=None)
            db = cls(conn, path, now)
            try:
                await conn.create_function("kozel_now", 0, lambda: db._statement_time)
                await conn.execute("PRAGMA foreign_keys = ON")
                await conn.execute("PRAGMA journal_mode = WAL")
                await conn.execute("PRAGMA synchronous = FULL")
                await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                await db._migrate(version)
            except BaseException:
                await conn.close()
                raise
        return db

    async def close(self) -> None:
        with _on_the_thread:
            await self.conn.close()

    async def _migrate(self, version: int) -> None:
        for migration in MIGRATIONS:
            if migration.version <= version:
                continue
            self._statement_time = self.stamp()
            log.info("applying migration %04d_%s", migration.version, migration.name)
            async with self.transaction():
                for statement in split_sql(migration.sql):
                    await self.conn.execute(statement)
                if "writable_schema" in migration.sql:  # the schema's text was edited: make SQLite read it again
                    async with self.conn.execute("PRAGMA schema_version") as cursor:
                        (cookie,) = await cursor.fetchone() or (0,)
                    await self.conn.execute(f"PRAGMA schema_version = {int(cookie) + 1}")
                await self.conn.execute(
                    f"INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, {NOW})",
                    (migration.version, migration.name),
                )
                await self.conn.execute(f"PRAGMA user_version = {migration.version}")

    async def probe_write(self) -> None:
        """Prove that the file takes writes, with room to spare (the health check's proof, and the way back
        after the database went down): free space on its disk, a long row written and rolled back (it needs
        new pages, which a full database has none of), and one row committed.  Raises
        ``StorageUnavailable`` if it cannot; brings the database back up if it can."""
        free = disk_free(self.path)
        if free is not None and free < ROOM_ON_DISK:
            raise StorageUnavailable("full")
        upsert = "INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at"
        token = _probing.set(True)
        try:
            async with self.transaction():
                await self.execute("SAVEPOINT room")
                await self.execute(upsert, ("x" * ROOM_IN_FILE,))
                await self.execute("ROLLBACK TO room")
                await self.execute("RELEASE room")
                await self.execute(upsert.replace("?", NOW))
        finally:
            _probing.reset(token)
        self._up()

    async def available(self) -> None:
        """Return once the database takes writes (at once unless it is down)."""
        await self._back.wait()

    def _down(self, reason: str) -> None:
        if self.unavailable is None:
            log.warning("the database takes no writes (%s): moves are refused until it does", REASONS[reason])
            self.unavailable = reason
            self._back.clear()
            if self.on_down is not None:  # outside this transaction's context: a task it starts is in none
                contextvars.Context().run(self.on_down, reason)
        else:
            self.unavailable = reason

    def _up(self) -> None:
        if self.unavailable is not None:
            log.warning("the database takes writes again (it was down: %s)", REASONS[self.unavailable])
            self.unavailable = None
            self._back.set()

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    # --- transactions and statements ------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, *, reading: bool = False) -> AsyncIterator[Database]:
        """A transaction: its statements, then its ``COMMIT`` before the block is left; on any error in the
        block, nothing of it stays (``reading``: a snapshot to read in, which writes nothing, so it is not
        refused while the database takes no writes).

        Group commit: a transaction that ends while others wait for the connection leaves its ``COMMIT`` to
        the last of them, so that all of theirs are stored by one; each block is left only once the commit
        that stores it returned, and raises if it failed.  On a disk whose commits are slow the bot then stores
        as many moves a commit as are waiting, instead of one.  Each transaction runs in a savepoint of its
        own, so an error in one undoes only its own statements.  The connection is never left with a
        transaction open while nobody waits for it."""
        if _current_tx.get() is self:
            yield self
            return
        if self.unavailable is not None and not _probing.get() and not reading:
            raise StorageUnavailable(self.unavailable)
        stored: asyncio.Future[None] | None = None
        await self._acquire()
        token = _current_tx.set(self)
        try:
            with self._unavailable_raised():
                if not self.conn.in_transaction:
                    await self._run("BEGIN" if reading else "BEGIN IMMEDIATE")
                await self._run("SAVEPOINT tx")
                try:
                    yield self
                except BaseException as exc:
                    if self.conn.in_transaction:
                        await self._run("ROLLBACK TO tx")
                        await self._run("RELEASE tx")
                    else:  # SQLite rolled the whole transaction back (a full disk, an I/O error): the group's too
                        self._tell_group(exc)
                    raise
                await self._run("RELEASE tx")
                if not reading:
                    stored = self._join_group()
        finally:
            try:
                if self._queued == 0:  # nobody waits to add his work: commit what the group did
                    await self._commit()
            finally:
                _current_tx.reset(token)
                self._lock.release()
        if stored is not None:
            await stored

    async def _acquire(self) -> None:
        """Take the connection, counted among those waiting for it while waiting (the last of them commits)."""
        self._queued += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._queued -= 1
            if self._queued == 0 and self._group:  # it was to commit the others' work: a task does instead
                contextvars.Context().run(asyncio.ensure_future, self._commit_alone())
            raise
        self._queued -= 1

    @asynccontextmanager
    async def _alone(self) -> AsyncIterator[None]:
        """The connection with no transaction open, for a statement that cannot run inside one (a PRAGMA such
        as a checkpoint): the group's work is committed first."""
        await self._acquire()
        try:
            if self.conn.in_transaction:
                await self._commit()
            self._statement_time = self.stamp()
            with self._unavailable_raised(), _on_the_thread:
                yield
        finally:
            self._lock.release()

    async def _run(self, sql: str) -> None:
        with _on_the_thread:
            await self.conn.execute(sql)

    def _join_group(self) -> asyncio.Future[None]:
        """A future that the ``COMMIT`` storing this transaction resolves."""
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._group.append(stored)
        return stored

    async def _commit(self) -> None:
        """End the open transaction (under the lock): commit the group's work, or roll back if there is none;
        tell each transaction of the group how its commit went."""
        if not self.conn.in_transaction:
            self._tell_group(StorageError("the transaction was rolled back"))
            return
        if not self._group:
            await self._roll_back()  # a snapshot read, or a transaction that failed: nothing to keep
            return
        started = self._commit_clock() if self._commit_clock is not None else 0.0
        try:
            with self._unavailable_raised():
                try:
                    await self._run("COMMIT")
                except BaseException:
                    await self._roll_back()  # a failed COMMIT may leave the transaction open
                    raise
        except BaseException as exc:
            self._tell_group(exc)
            if not isinstance(exc, Exception):
                raise
            return
        self._tell_group(None)
        if self._commit_clock is not None and self._on_commit is not None:
            self._on_commit(self._commit_clock() - started)

    def _tell_group(self, failed: BaseException | None) -> None:
        """Tell each transaction waiting for the commit that it is stored (``failed`` None), or why not."""
        group, self._group = self._group, []
        for stored in group:
            if stored.done():
                continue
            if failed is None:
                stored.set_result(None)
            elif (reason := unavailable_reason(failed)) is not None:
                stored.set_exception(StorageUnavailable(reason))
            else:
                stored.set_exception(StorageError(f"the commit failed: {failed!r}"))

    async def _commit_alone(self) -> None:
        """The one who was to commit the group gave up waiting (cancelled): commit it in his stead."""
        async with self._lock:
            if self._queued == 0:
                await self._commit()

    async def _roll_back(self) -> None:
        if self.conn.in_transaction:
            await self._run("ROLLBACK")

    @contextlib.contextmanager
    def _unavailable_raised(self) -> Iterator[None]:
        """A write the file cannot take now becomes ``StorageUnavailable`` (the probe's own failures do not
        take the database down: a health check is no write of the bot's)."""
        try:
            yield
        except Exception as exc:
            reason = unavailable_reason(exc)
            if reason is None:
                raise
            if not _probing.get():
                self._down(reason)
            if isinstance(exc, StorageUnavailable):
                raise
            raise StorageUnavailable(reason) from exc

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[None]:
        if _current_tx.get() is self:
            self._statement_time = self.stamp()
            with _on_the_thread:
                yield
        else:
            async with self._lock:
                self._statement_time = self.stamp()
                with self._unavailable_raised(), _on_the_thread:
                    yield

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed (outside a transaction, in one of its own:
        stored before it returns)."""
        outside = _current_tx.get() is not self
        pragma = sql.lstrip()[:6].upper() == "PRAGMA"
        if outside and not pragma:
            async with self.transaction():
                return await self.execute(sql, params)
        async with self._alone() if outside else self._statement():
            cursor = await self.conn.execute(sql, params)
            count = cursor.rowcount
            await cursor.close()
            return count

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT; return the new row id."""
        if _current_tx.get() is not self:
            async with self.transaction():
                return await self.insert(sql, params)
        async with self._statement():
            cursor = await self.conn.execute(sql, params)
            rowid = cursor.lastrowid
            await cursor.close()
            assert rowid is not None
            return rowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if _current_tx.get() is not self:
            async with self.transaction():
                return await self.executemany(sql, rows)
        async with self._statement():
            await self.conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._statement():
            cursor = await self.conn.execute(sql, params)
            cursor.row_factory = sqlite3.Row
            row = await cursor.fetchone()
            await cursor.close()
            return row

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._statement():
            cursor = await self.conn.execute(sql, params)
            cursor.row_factory = sqlite3.Row
            rows = await cursor.fetchall()
            await cursor.close()
            return list(rows)


def disk_free(path: Path) -> int | None:
    """The bytes free on the disk of ``path`` (None where the system does not say)."""
    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return None


def split_sql(script: str) -> list[str]:
    """Split a migration script into statements (our migrations have no semicolons inside literals or
    triggers; ``sqlite3.complete_statement`` guards the split)."""
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise StorageError(f"incomplete SQL statement in a migration: {buffer.strip()[:80]!r}")
    return statements
