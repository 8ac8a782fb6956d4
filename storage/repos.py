"""Repositories: the only SQL of the project, parameterised, with explicit column lists.

Each repository receives the ``Database``; ``Storage`` bundles them for the bot.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from engine import Action, DealResult, GameState, Kind, find_variant
from storage import rating
from storage.db import Database, DuplicateActionError, StorageError
from storage.models import (
    CHAT_COLUMNS,
    DEAL_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    SEAT_COLUMNS,
    ChatRow,
    ChatSettings,
    DealRow,
    GameRow,
    PersonRating,
    PlayerRow,
    PlayerStats,
    RatedPlayer,
    RatingChange,
    RatingPoint,
    ResultRow,
    SeatRow,
    TableLine,
)
from storage.shown import ShownRepo

NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
RATINGS_VERSION = 7  # the migration that brought ratings (0007_ratings.sql)


class OpenGameExistsError(StorageError):
    """The chat already has a lobby or a running game (rules X2)."""


class SeatTakenError(StorageError):
    """The seat is taken, or the player already sits in this game."""


class ReplayMismatchError(StorageError):
    """The stored action log does not rebuild the recorded state."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class ChatRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def ensure(self, chat_id: int, title: str, kind: str) -> ChatRow:
        """The chat, its title and kind as an update just showed them (only an update knows them)."""
        await self.db.execute(
            f"INSERT INTO chats (chat_id, title, kind) VALUES (?, ?, ?) "
            f"ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title, kind = excluded.kind, updated_at = {NOW} "
            "WHERE chats.title <> excluded.title OR chats.kind <> excluded.kind",
            (chat_id, title, kind),
        )
        row = await self.get(chat_id)
        assert row is not None
        return row

    async def known(self, chat_id: int) -> ChatRow:
        """The chat, added with no title if it is new; a stored title and kind are never touched."""
        await self.db.execute(
            "INSERT INTO chats (chat_id, title, kind) VALUES (?, '', 'group') ON CONFLICT (chat_id) DO NOTHING",
            (chat_id,),
        )
        row = await self.get(chat_id)
        assert row is not None
        return row

    async def get(self, chat_id: int) -> ChatRow | None:
        row = await self.db.fetchone(f"SELECT {CHAT_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,))
        return ChatRow.from_row(row) if row else None

    async def save_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self.db.execute(
            f"UPDATE chats SET settings = ?, updated_at = {NOW} WHERE chat_id = ?",
            (settings.model_dump_json(), chat_id),
        )

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its lobby, game, series and results follow the new id."""
        async with self.db.transaction():
            if await self.get(old_chat_id) is None:
                return
            if await self.get(new_chat_id) is None:
                await self.db.execute("UPDATE chats SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            else:
                for table in ("games", "results", "chat_id_history"):
                    await self.db.execute(
                        f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
                    )
                await self.db.execute(  # (one who asked in both keeps one row; the other goes with the old chat)
                    "UPDATE OR IGNORE notify_me SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
                )
                await self.db.execute(
                    "UPDATE chats SET settings = (SELECT settings FROM chats WHERE chat_id = ?) WHERE chat_id = ?",
                    (old_chat_id, new_chat_id),
                )
                await self.db.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
            await self.db.execute(
                "INSERT OR REPLACE INTO chat_id_history (old_chat_id, chat_id) VALUES (?, ?)",
                (old_chat_id, new_chat_id),
            )

    async def resolve(self, chat_id: int) -> int:
        """The current id of a chat that may have migrated."""
        row = await self.db.fetchone("SELECT chat_id FROM chat_id_history WHERE old_chat_id = ?", (chat_id,))
        return int(row["chat_id"]) if row else chat_id


class PlayerRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(
        self, user_id: int, name: str, username: str | None = None, language: str | None = None
    ) -> PlayerRow:
        await self.db.execute(
            "INSERT INTO players (user_id, name, username, language) VALUES (?, ?, ?, ?) "
            f"ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, username = excluded.username, "
            f"language = coalesce(excluded.language, players.language), updated_at = {NOW}",
            (user_id, name, username, language),
        )
        row = await self.get(user_id)
        assert row is not None
        return row

    async def get(self, user_id: int) -> PlayerRow | None:
        row = await self.db.fetchone(f"SELECT {PLAYER_COLUMNS} FROM players WHERE user_id = ?", (user_id,))
        return PlayerRow.from_row(row) if row else None

    async def many(self, user_ids: Sequence[int]) -> dict[int, PlayerRow]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE user_id IN ({marks})", list(user_ids)
        )
        return {r["user_id"]: PlayerRow.from_row(r) for r in rows}

    async def set_can_message(self, user_id: int, value: bool) -> None:
        await self.db.execute(
            f"UPDATE players SET can_message = ?, updated_at = {NOW} WHERE user_id = ?", (int(value), user_id)
        )

    async def set_language(self, user_id: int, language: str | None) -> None:
        await self.db.execute(
            f"UPDATE players SET chosen_language = ?, updated_at = {NOW} WHERE user_id = ?",
            (language, user_id),
        )


class GameRepo:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.ratings = RatingRepo(db)

    # --- lobby ----------------------------------------------------------------------------------------

    async def create(
        self, chat_id: int, variant: str, options: dict[str, Any], seed: int, creator_id: int | None
    ) -> GameRow:
        try:
            game_id = await self.db.insert(
                "INSERT INTO games (chat_id, variant, options, seed, creator_id) VALUES (?, ?, ?, ?, ?)",
                (chat_id, variant, _json(options), seed, creator_id),
            )
        except sqlite3.IntegrityError as exc:
            if "games.chat_id" in str(exc) or "UNIQUE" in str(exc):
                raise OpenGameExistsError(f"chat {chat_id} already has an open game") from None
            raise
        row = await self.get(game_id)
        assert row is not None
        return row

    async def get(self, game_id: int) -> GameRow | None:
        row = await self.db.fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,))
        return GameRow.from_row(row) if row else None

    async def open_game(self, chat_id: int) -> GameRow | None:
        """The chat's lobby or running game, if any."""
        row = await self.db.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE chat_id = ? AND status IN ('lobby', 'active')",
            (chat_id,),
        )
        return GameRow.from_row(row) if row else None

    async def last_ended(self, chat_id: int) -> GameRow | None:
        """The chat's most recent game that is over (finished or cancelled), if any."""
        row = await self.db.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE chat_id = ? AND status IN ('finished', 'cancelled') "
            "ORDER BY game_id DESC LIMIT 1",
            (chat_id,),
        )
        return GameRow.from_row(row) if row else None

    async def with_status(self, *statuses: str) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY game_id", statuses
        )
        return [GameRow.from_row(r) for r in rows]

    async def games_of_player(self, user_id: int, *statuses: str) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self.db.fetchall(
            f"SELECT {columns} FROM games g JOIN seats s ON s.game_id = g.game_id "
            f"WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.game_id",
            (user_id, *statuses),
        )
        return [GameRow.from_row(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.fetchall(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow.from_row(r) for r in rows]

    async def take_seat(self, game_id: int, seat: int, user_id: int | None = None, computer: str | None = None) -> None:
        try:
            await self.db.execute(
                "INSERT INTO seats (game_id, seat, user_id, computer) VALUES (?, ?, ?, ?)",
                (game_id, seat, user_id, computer),
            )
        except sqlite3.IntegrityError:
            raise SeatTakenError(f"seat {seat} of game {game_id} is taken or user {user_id} is seated") from None

    async def leave_seat(self, game_id: int, seat: int) -> None:
        await self.db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def set_seat_holder(
        self, game_id: int, seat: int, user_id: int | None = None, computer: str | None = None
    ) -> None:
        """Hand a seat to a person or a computer player (kick, absence, return)."""
        await self.db.execute(
            "UPDATE seats SET user_id = ?, computer = ? WHERE game_id = ? AND seat = ?",
            (user_id, computer, game_id, seat),
        )

    async def set_stand_in(self, game_id: int, seat: int, level: str | None, timeouts: int = 0) -> None:
        """A computer player of ``level`` plays for the seat's absent person (None: he is back)."""
        await self.db.execute(
            "UPDATE seats SET stand_in = ?, timeouts = ? WHERE game_id = ? AND seat = ?",
            (level, timeouts, game_id, seat),
        )

    async def set_cancel_votes(self, game_id: int, votes: Sequence[int]) -> None:
        await self.db.execute(
            "UPDATE games SET cancel_votes = ? WHERE game_id = ?", (_json(list(dict.fromkeys(votes))), game_id)
        )

    async def add_vote_message(self, game_id: int, message_id: int) -> None:
        """A vote to cancel the game was posted as ``message_id`` in its group."""
        await self.db.execute(
            "UPDATE games SET vote_message_ids = json_insert(vote_message_ids, '$[#]', ?) WHERE game_id = ? "
            "AND NOT EXISTS (SELECT 1 FROM json_each(vote_message_ids) WHERE value = ?)",
            (message_id, game_id, message_id),
        )

    async def last_action_at(self, game_id: int) -> float | None:
        """When the game's last action was committed (or it started), as a Unix time: where a turn's
        timer counts from after a restart."""
        row = await self.db.fetchone(
            "SELECT coalesce((SELECT max(created_at) FROM actions WHERE game_id = ?), started_at) AS at "
            "FROM games WHERE game_id = ?",
            (game_id, game_id),
        )
        if row is None or row["at"] is None:
            return None
        return datetime.fromisoformat(str(row["at"]).replace("Z", "+00:00")).timestamp()

    async def reseat(self, game_id: int, order: Sequence[int]) -> None:
        """Renumber the seats: the seat now at ``order[i]`` becomes seat ``i``."""
        async with self.db.transaction():
            by_seat = {s.seat: s for s in await self.seats(game_id)}
            await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self.db.executemany(
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, new, s.user_id, s.computer, s.hand_message_id, s.hand_deal_no, s.stand_in, s.timeouts)
                    for new, s in enumerate(by_seat[old] for old in order)
                ],
            )

    async def set_status(self, game_id: int, status: str) -> None:
        stamp = {"active": ", started_at = ?", "finished": ", finished_at = ?"}.get(status, "")
        at = (self.db.stamp(),) if stamp else ()
        await self.db.execute(
            f"UPDATE games SET status = ?, updated_at = {NOW}{stamp} WHERE game_id = ?", (status, *at, game_id)
        )

    async def set_options(self, game_id: int, variant: str, options: dict[str, Any]) -> None:
        await self.db.execute(
            f"UPDATE games SET variant = ?, options = ?, updated_at = {NOW} WHERE game_id = ? AND status = 'lobby'",
            (variant, _json(options), game_id),
        )

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        await self.db.execute("UPDATE games SET lobby_message_id = ? WHERE game_id = ?", (message_id, game_id))

    async def set_table_message(
        self, game_id: int, message_id: int | None, deal_no: int | None, *, picture: bool = False
    ) -> None:
        await self.db.execute(
            "UPDATE games SET table_message_id = ?, table_deal_no = ?, table_picture = ? WHERE game_id = ?",
            (message_id, deal_no, picture, game_id),
        )

    async def set_announced_deals(self, game_id: int, count: int) -> None:
        """How many deal results (and, for a finished game, whether its end) the group has been sent."""
        await self.db.execute("UPDATE games SET announced_deals = ? WHERE game_id = ?", (count, game_id))

    async def touch(self, game_id: int) -> None:
        await self.db.execute(f"UPDATE games SET updated_at = {NOW} WHERE game_id = ?", (game_id,))

    async def unannounced(self) -> list[GameRow]:
        """Running games, and finished ones whose results the group has not all been sent."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games g WHERE status = 'active' OR (status = 'finished' "
            "AND announced_deals < (SELECT count(*) FROM deals d WHERE d.game_id = g.game_id) + 1) "
            "ORDER BY game_id"
        )
        return [GameRow.from_row(r) for r in rows]

    async def set_hand_message(self, game_id: int, seat: int, message_id: int | None, deal_no: int | None) -> None:
        await self.db.execute(
            "UPDATE seats SET hand_message_id = ?, hand_deal_no = ? WHERE game_id = ? AND seat = ?",
            (message_id, deal_no, game_id, seat),
        )

    # --- the action log -------------------------------------------------------------------------------

    async def record(
        self, game: GameRow, state: GameState, user_id: int | None = None, seat: SeatRow | None = None
    ) -> None:
        """Commit the actions of ``state`` beyond the stored count, with new deals and a finished series,
        and ``seat``'s stand-in and missed turns when given (what the move did to its seat), in one
        transaction.  Raises ``DuplicateActionError`` when another submission got there first."""
        new_actions = state.history[game.action_count :]
        if not new_actions:
            return
        at = self.db.stamp()
        async with self.db.transaction():
            if seat is not None:
                await self.set_stand_in(game.game_id, seat.seat, seat.stand_in, seat.timeouts)
            try:
                await self.db.executemany(
                    "INSERT INTO actions (game_id, seq, action, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    [
                        (game.game_id, game.action_count + i, a.text(), user_id, at)
                        for i, a in enumerate(new_actions)
                    ],
                )
            except sqlite3.IntegrityError:
                raise DuplicateActionError(
                    f"game {game.game_id}: an action with seq {game.action_count} is already stored"
                ) from None
            changed = await self.db.execute(
                f"UPDATE games SET action_count = ?, deal_no = ?, totals = ?, updated_at = {NOW} "
                "WHERE game_id = ? AND action_count = ? AND status = 'active'",
                (len(state.history), state.deal_no, _json(state.totals), game.game_id, game.action_count),
            )
            if changed != 1:
                raise DuplicateActionError(f"game {game.game_id} moved on past seq {game.action_count}")
            stored = await self.db.fetchone("SELECT count(*) AS n FROM deals WHERE game_id = ?", (game.game_id,))
            for result in state.deals[stored["n"] if stored else 0 :]:
                await self.db.execute(
                    "INSERT INTO deals (game_id, deal_no, result) VALUES (?, ?, ?)",
                    (game.game_id, result.deal_no, _json(dataclasses.asdict(result))),
                )
            if state.outcome is not None:
                await self._finish(game, state, cancelled=False)

    async def _finish(self, game: GameRow, state: GameState, cancelled: bool) -> None:
        """The series' end: its status and outcome, each seat's result and, when it is rated, the ratings
        (docs/ratings.md: a series counts once its first deal has ended, however it ends)."""
        outcome = state.outcome
        await self.db.execute(
            f"UPDATE games SET status = ?, outcome = ?, finished_at = {NOW}, updated_at = {NOW} WHERE game_id = ?",
            (
                "cancelled" if cancelled else "finished",
                _json(dataclasses.asdict(outcome)) if outcome else None,
                game.game_id,
            ),
        )
        seats = await self.seats(game.game_id)
        places = state.standing() if state.deals else None
        rows = []
        seated: list[tuple[rating.Entrant, int | None]] = []
        for seat in seats:
            unit = seat.seat if not state.TEAMS else seat.seat % 2
            if places is not None:
                entrant = rating.Entrant(seat.seat, _subject(seat.user_id, seat.computer), unit, places[seat.seat])
                seated.append((entrant, seat.user_id))
            rows.append(
                (
                    game.game_id,
                    seat.seat,
                    game.chat_id,
                    seat.user_id,
                    game.variant,
                    int(bool(outcome and seat.seat in outcome.winners)),
                    int(bool(outcome and seat.seat in outcome.losers)),
                    state.totals[unit] if state.totals else 0,
                    outcome.table_points[seat.seat] if outcome and outcome.table_points else 0,
                    int(bool(outcome and outcome.with_eggs)),
                    int(cancelled),
                    seat.computer,
                    places[seat.seat] if places else None,
                    sum(state.deal_won(d, seat.seat) for d in state.deals),
                )
            )
        await self.db.executemany(
            f"INSERT OR REPLACE INTO results ({RESULT_COLUMNS}, computer, place, deals_won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        if places is not None:
            await self.ratings.rate(game.game_id, game.variant, seated)

    async def cancel(self, game: GameRow) -> None:
        """End a lobby or a running game; a running game's results are kept, marked cancelled."""
        async with self.db.transaction():
            if game.status == "active":
                state = await self.load_state(game)
                await self._finish(game, state, cancelled=True)
            else:
                await self.set_status(game.game_id, "cancelled")

    async def actions(self, game_id: int) -> list[Action]:
        rows = await self.db.fetchall("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [Action.parse(r["action"]) for r in rows]

    async def deals(self, game_id: int) -> list[DealResult]:
        rows = await self.db.fetchall(
            f"SELECT {DEAL_COLUMNS} FROM deals WHERE game_id = ? ORDER BY deal_no", (game_id,)
        )
        return [deal_result(DealRow.from_row(r).result) for r in rows]

    async def load_state(self, game: GameRow) -> GameState:
        """Rebuild the exact engine state by replaying the stored actions from the seed."""
        actions = await self.actions(game.game_id)
        if len(actions) != game.action_count:
            raise ReplayMismatchError(
                f"game {game.game_id}: {len(actions)} actions stored, {game.action_count} recorded"
            )
        state = find_variant(game.variant).new_game(game.seed, game.options)
        for action in actions:
            state.apply(action)
        return state


_DEAL_RESULT = TypeAdapter(DealResult)


def deal_result(data: dict[str, Any]) -> DealResult:
    return _DEAL_RESULT.validate_python(data)


class ResultRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def of_game(self, game_id: int) -> list[ResultRow]:
        rows = await self.db.fetchall(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [ResultRow.from_row(r) for r in rows]

    async def chat_table(self, chat_id: int, variant: str) -> list[TableLine]:
        """The chat's all-time table for one game, best first (cancelled games do not count)."""
        rows = await self.db.fetchall(
            "SELECT r.user_id, p.name, count(*) AS played, sum(r.won) AS won, sum(r.lost) AS lost, "
            "sum(r.table_points) AS table_points "
            "FROM results r JOIN players p ON p.user_id = r.user_id "
            "WHERE r.chat_id = ? AND r.variant = ? AND r.cancelled = 0 AND r.user_id IS NOT NULL "
            "GROUP BY r.user_id ORDER BY table_points DESC, won DESC, lost ASC, p.name",
            (chat_id, variant),
        )
        return [TableLine.model_validate(dict(r)) for r in rows]

    async def player_stats(self, user_id: int, kozel_points: Mapping[str, int]) -> list[PlayerStats]:
        """A person's finished series per game, in one query: played, won and lost (from each outcome),
        deals with eggs, molodkas he played, and deals in which his penalty points reached
        ``kozel_points[variant]`` (games without one count none)."""
        rows = await self.db.fetchall(
            "WITH mine AS (SELECT g.game_id, g.variant, g.outcome, s.seat FROM games g "
            "  JOIN seats s ON s.game_id = g.game_id WHERE s.user_id = ? AND g.status = 'finished') "
            "SELECT m.variant, count(*) AS played, "
            "  sum(EXISTS (SELECT 1 FROM json_each(m.outcome, '$.winners') w WHERE w.value = m.seat)) AS won, "
            "  sum(EXISTS (SELECT 1 FROM json_each(m.outcome, '$.losers') l WHERE l.value = m.seat)) AS lost, "
            "  sum((SELECT count(*) FROM deals d WHERE d.game_id = m.game_id "
            "    AND json_extract(d.result, '$.eggs'))) AS eggs, "
            "  sum((SELECT count(*) FROM actions a WHERE a.game_id = m.game_id "
            "    AND a.action LIKE m.seat || ' ' || ? || '%')) AS molodkas, "
            "  sum((SELECT count(*) FROM deals d WHERE d.game_id = m.game_id "
            "    AND json_extract(d.result, '$.points[' || m.seat || ']') >= json_extract(?, '$.' || m.variant))) "
            "  AS kozels "
            "FROM mine m GROUP BY m.variant",
            (user_id, Kind.MOLODKA.value, _json(dict(kozel_points))),
        )
        return [
            PlayerStats.model_validate({k: r[k] if k == "variant" else int(r[k] or 0) for k in r.keys()})  # noqa: SIM118
            for r in rows
        ]

    async def player_totals(self, user_id: int) -> dict[str, dict[str, int]]:
        rows = await self.db.fetchall(
            "SELECT variant, count(*) AS played, sum(won) AS won, sum(lost) AS lost, "
            "sum(with_eggs * lost) AS eggs, sum(table_points) AS table_points "
            "FROM results WHERE user_id = ? AND cancelled = 0 GROUP BY variant ORDER BY variant",
            (user_id,),
        )
        return {r["variant"]: {k: int(r[k] or 0) for k in r.keys() if k != "variant"} for r in rows}  # noqa: SIM118


def _subject(user_id: int | None, level: str | None) -> str:
    if user_id is not None:
        return rating.person(user_id)
    assert level is not None, "a seat is held by a person or a computer"
    return rating.computer(level)


def _skill(row: sqlite3.Row) -> rating.Skill:
    return rating.Skill(mu=row["mu"], sigma=row["sigma"], series=row["series"])


class RatingRepo:
    """Ratings per player and game (storage/rating.py): updated in the transaction that ends a series, read
    for the leaderboards, and recomputed from the stored series on request."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def _entrant(row: sqlite3.Row, teams: bool) -> tuple[rating.Entrant, int | None]:
        seat = row["seat"]
        subject = _subject(row["user_id"], row["computer"])
        return rating.Entrant(seat, subject, seat % 2 if teams else seat, row["place"]), row["user_id"]

    async def rate(self, game_id: int, variant: str, seated: Sequence[tuple[rating.Entrant, int | None]]) -> None:
        """Rate the series (within the transaction that stored its results): ``seated``, each seat's entrant
        and person, as its result rows say.  A series is rated once only."""
        async with self.db.transaction():
            row = await self.db.fetchone(
                "INSERT INTO rated_series (game_id, variant) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING "
                "RETURNING seq",
                (game_id, variant),
            )
            if row is None:
                return
            seq = int(row["seq"])
            entrants = [e for e, _ in seated]
            subjects = sorted({e.subject for e in entrants})
            marks = ",".join("?" * len(subjects))
            stored = {
                r["subject"]: r
                for r in await self.db.fetchall(
                    f"SELECT subject, mu, sigma, series, best FROM ratings WHERE variant = ? AND subject IN ({marks})",
                    (variant, *subjects),
                )
            }
            after = rating.rate(entrants, {subject: _skill(row) for subject, row in stored.items()})
            users = {e.subject: user for e, user in seated}
            await self.db.executemany(
                "INSERT INTO ratings (variant, subject, user_id, mu, sigma, series, best) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (variant, subject) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "series = excluded.series, "
                "best = coalesce(max(ratings.best, excluded.best), ratings.best, excluded.best)",
                [
                    (variant, subject, users[subject], skill.mu, skill.sigma, skill.series,
                     None if skill.provisional else skill.rating)
                    for subject, skill in after.items()
                ],
            )  # fmt: skip
            await self.db.executemany(
                "INSERT INTO rating_history (seq, seat, subject, variant, mu, sigma, series) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (seq, e.seat, e.subject, variant, after[e.subject].mu, after[e.subject].sigma,
                     after[e.subject].series)
                    for e in entrants
                ],
            )  # fmt: skip

    async def rated_count(self) -> int:
        row = await self.db.fetchone("SELECT count(*) AS n FROM rated_series")
        return int(row["n"]) if row else 0

    async def changes(self, game_id: int) -> list[RatingChange]:
        """What the series did to each seat's rating, in seat order (empty: it was not rated)."""
        rows = await self.db.fetchall(
            "SELECT h.seat, h.mu, h.sigma, h.series, r.user_id, r.computer, "
            "  p.mu AS before_mu, p.sigma AS before_sigma, p.series AS before_series "
            "FROM rated_series s JOIN rating_history h ON h.seq = s.seq "
            "JOIN results r ON r.game_id = s.game_id AND r.seat = h.seat "
            "LEFT JOIN rating_history p ON p.subject = h.subject AND p.variant = h.variant AND p.seq = "
            "  (SELECT max(p2.seq) FROM rating_history p2 "
            "   WHERE p2.subject = h.subject AND p2.variant = h.variant AND p2.seq < h.seq) "
            "WHERE s.game_id = ? GROUP BY h.seat ORDER BY h.seat",
            (game_id,),
        )
        changes = []
        for r in rows:
            before = None
            if r["before_mu"] is not None:
                before = rating.Skill(mu=r["before_mu"], sigma=r["before_sigma"], series=r["before_series"])
            changes.append(
                RatingChange(seat=r["seat"], user_id=r["user_id"], level=r["computer"], before=before, after=_skill(r))
            )
        return changes

    async def leaderboard(self, chat_id: int, variant: str) -> list[RatedPlayer]:
        """Everyone who played a rated series of ``variant`` in the chat, computer levels too, with his rating
        (in no particular order: the caller ranks)."""
        rows = await self.db.fetchall(
            "WITH here AS (SELECT DISTINCT user_id, computer FROM results "
            "  WHERE chat_id = ? AND variant = ? AND place IS NOT NULL) "
            "SELECT h.user_id, coalesce(p.name, '') AS name, h.computer, k.mu, k.sigma, k.series, k.best "
            "FROM here h JOIN ratings k ON k.variant = ? AND k.subject = "
            "  CASE WHEN h.user_id IS NULL THEN 'c:' || h.computer ELSE 'p' || h.user_id END "
            "LEFT JOIN players p ON p.user_id = h.user_id",
            (chat_id, variant, variant),
        )
        return [
            RatedPlayer(user_id=r["user_id"], name=r["name"], level=r["computer"], skill=_skill(r), best=r["best"])
            for r in rows
        ]

    async def of_person(self, user_id: int) -> list[PersonRating]:
        """A person's rating in each game he has been rated in, with the chats where he played it."""
        rows = await self.db.fetchall(
            "SELECT k.variant, k.mu, k.sigma, k.series, k.best, "
            "  (SELECT count(*) FROM results r WHERE r.user_id = k.user_id AND r.variant = k.variant "
            "   AND r.place IS NOT NULL AND r.won) AS series_won, "
            "  (SELECT coalesce(sum(r.deals_won), 0) FROM results r WHERE r.user_id = k.user_id "
            "   AND r.variant = k.variant AND r.place IS NOT NULL) AS deals_won "
            "FROM ratings k WHERE k.user_id = ?",
            (user_id,),
        )
        found = []
        for r in rows:
            chats = await self.db.fetchall(
                "SELECT DISTINCT r.chat_id, c.title FROM results r JOIN chats c ON c.chat_id = r.chat_id "
                "WHERE r.user_id = ? AND r.variant = ? AND r.place IS NOT NULL ORDER BY r.chat_id",
                (user_id, r["variant"]),
            )
            places = []
            for chat in chats:
                board = rank(await self.leaderboard(chat["chat_id"], r["variant"]))
                place = next((i for i, p in enumerate(board, 1) if p.user_id == user_id), None)
                if place is not None:
                    places.append((str(chat["title"]), place, len(board)))
            found.append(
                PersonRating(
                    variant=r["variant"], skill=_skill(r), best=r["best"], series_won=r["series_won"],
                    deals_won=r["deals_won"], places=places,
                )
            )  # fmt: skip
        return found

    async def history(self, user_id: int) -> dict[str, list[RatingPoint]]:
        """A person's rating after each of his rated series, per game, oldest first."""
        rows = await self.db.fetchall(
            "SELECT s.variant, h.mu, h.sigma, h.series, g.finished_at FROM rating_history h "
            "JOIN rated_series s ON s.seq = h.seq JOIN games g ON g.game_id = s.game_id "
            "WHERE h.subject = ? ORDER BY h.seq",
            (rating.person(user_id),),
        )
        found: dict[str, list[RatingPoint]] = {}
        for r in rows:
            skill = _skill(r)
            point = RatingPoint(series=skill.series, rating=skill.rating, provisional=skill.provisional,
                                at=str(r["finished_at"] or ""))  # fmt: skip
            found.setdefault(r["variant"], []).append(point)
        return found

    async def recompute(self, write: bool = False) -> list[str]:
        """Rate every stored rated series again, in the order they were rated, and compare with the stored
        ratings and their history: the differences, one line each (none expected).  ``write``: replace the
        stored ratings by the recomputed ones (after a change of the model), in one transaction with the
        reading, so that no series ending meanwhile is lost."""
        if write:
            async with self.db.transaction():
                return await self._recompute(write)
        return await self._recompute(write)

    async def _recompute(self, write: bool) -> list[str]:
        rows = await self.db.fetchall(
            "SELECT s.seq, s.variant, r.seat, r.user_id, r.computer, r.place FROM rated_series s "
            "JOIN results r ON r.game_id = s.game_id AND r.place IS NOT NULL ORDER BY s.seq, r.seat"
        )
        skills: dict[tuple[str, str], rating.Skill] = {}
        best: dict[tuple[str, str], int] = {}
        users: dict[tuple[str, str], int | None] = {}
        history: list[tuple[int, int, str, str, float, float, int]] = []
        teams = {name: find_variant(name).teams for name in {r["variant"] for r in rows}}
        for seq, group in itertools.groupby(rows, key=lambda r: int(r["seq"])):
            found = list(group)
            variant = found[0]["variant"]
            seated = [self._entrant(r, teams[variant]) for r in found]
            before = {e.subject: skills[variant, e.subject] for e, _ in seated if (variant, e.subject) in skills}
            after = rating.rate([e for e, _ in seated], before)
            for subject, skill in after.items():
                skills[variant, subject] = skill
                if not skill.provisional:
                    best[variant, subject] = max(best.get((variant, subject), skill.rating), skill.rating)
            for e, user in seated:
                users[variant, e.subject] = user
                skill = after[e.subject]
                history.append((seq, e.seat, e.subject, variant, skill.mu, skill.sigma, skill.series))
        stored = {
            (r["variant"], r["subject"]): r
            for r in await self.db.fetchall("SELECT variant, subject, mu, sigma, series, best FROM ratings")
        }
        differences = []
        for key in sorted(set(stored) | set(skills)):
            row, again = stored.get(key), skills.get(key)
            if row is None or again is None:
                differences.append(f"{key[0]} {key[1]}: stored {_shown(row)}, recomputed {_shown(again)}")
            elif _skill(row) != again or row["best"] != best.get(key):
                differences.append(
                    f"{key[0]} {key[1]}: stored {_shown(row)} best {row['best']}, "
                    f"recomputed {_shown(again)} best {best.get(key)}"
                )
        stored_history = await self.db.fetchall(
            "SELECT seq, seat, subject, variant, mu, sigma, series FROM rating_history ORDER BY seq, seat"
        )
        if [tuple(r) for r in stored_history] != history:
            differences.append(
                f"rating history: {len(stored_history)} stored rows differ from the {len(history)} recomputed"
            )
        if write and differences:
            await self.db.execute("DELETE FROM rating_history")
            await self.db.execute("DELETE FROM ratings")
            await self.db.executemany(
                "INSERT INTO ratings (variant, subject, user_id, mu, sigma, series, best) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(v, subj, users[v, subj], k.mu, k.sigma, k.series, best.get((v, subj)))
                 for (v, subj), k in skills.items()],
            )  # fmt: skip
            await self.db.executemany(
                "INSERT INTO rating_history (seq, seat, subject, variant, mu, sigma, series) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                history,
            )
        return differences

    async def catch_up(self) -> int:
        """After the ratings' migration: the deals won of the series stored before it, and the ratings of the
        series it marked as rated.  Returns how many series were rated (0 on every later start)."""
        pending = await self.db.fetchall(
            "SELECT DISTINCT game_id, variant FROM results WHERE deals_won IS NULL ORDER BY game_id"
        )
        async with self.db.transaction():  # one commit, however many old series there are
            for game in pending:
                deals = await self.db.fetchall(
                    "SELECT result FROM deals WHERE game_id = ? ORDER BY deal_no", (game[0],)
                )
                results = [deal_result(json.loads(d["result"])) for d in deals]
                state_class = find_variant(game["variant"]).state_class
                seats = await self.db.fetchall("SELECT seat FROM results WHERE game_id = ?", (game[0],))
                await self.db.executemany(
                    "UPDATE results SET deals_won = ? WHERE game_id = ? AND seat = ?",
                    [(sum(state_class.deal_won(d, s["seat"]) for d in results), game[0], s["seat"])
                     for s in seats],
                )  # fmt: skip
        unrated = await self.db.fetchone(
            "SELECT count(*) AS n FROM rated_series s WHERE NOT EXISTS "
            "(SELECT 1 FROM rating_history h WHERE h.seq = s.seq)"
        )
        count = int(unrated["n"]) if unrated else 0
        if count:
            await self.recompute(write=True)
        return count


def _shown(skill: sqlite3.Row | rating.Skill | None) -> str:
    if skill is None:
        return "nothing"
    if isinstance(skill, sqlite3.Row):
        skill = _skill(skill)
    return f"mu {skill.mu:.6f} sigma {skill.sigma:.6f} after {skill.series} series"


def rank(players: Sequence[RatedPlayer]) -> list[RatedPlayer]:
    """The people of a leaderboard in order: settled ratings first, then provisional ones, each by rating
    (computer levels are left out: they hold no place)."""
    people = [p for p in players if p.user_id is not None]
    return sorted(people, key=lambda p: (p.skill.provisional, -p.skill.rating, -p.skill.mu, p.name, p.user_id))


class NoticeRepo:
    """Who wants to hear, in private, that a game opens in a chat (/notify_me)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def toggle(self, chat_id: int, user_id: int) -> bool:
        """Turn the person's notices of the chat on, or off if they were on; returns whether they are on."""
        async with self.db.transaction():
            if await self.db.execute("DELETE FROM notify_me WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)):
                return False
            await self.db.execute("INSERT INTO notify_me (chat_id, user_id) VALUES (?, ?)", (chat_id, user_id))
            return True

    async def subscribers(self, chat_id: int) -> list[PlayerRow]:
        """The people to tell of a game opening in the chat (those the bot can write to)."""
        columns = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = await self.db.fetchall(
            f"SELECT {columns} FROM notify_me n JOIN players p ON p.user_id = n.user_id "
            "WHERE n.chat_id = ? AND p.can_message ORDER BY n.since, p.user_id",
            (chat_id,),
        )
        return [PlayerRow.from_row(r) for r in rows]

    async def drop(self, user_id: int, chat_id: int | None = None) -> None:
        """No more notices for the person: of one chat (he left it), or of every chat (he blocked the bot)."""
        if chat_id is None:
            await self.db.execute("DELETE FROM notify_me WHERE user_id = ?", (user_id,))
        else:
            await self.db.execute("DELETE FROM notify_me WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))


class UpdateRepo:
    """Updates already handled, so one redelivered after a crash is not applied twice."""

    KEEP = 50_000

    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is seen (within the current transaction, if any)."""
        changed = await self.db.execute("INSERT OR IGNORE INTO processed_updates (update_id) VALUES (?)", (update_id,))
        return changed == 1

    async def prune(self) -> None:
        await self.db.execute(
            "DELETE FROM processed_updates WHERE update_id < (SELECT max(update_id) FROM processed_updates) - ?",
            (self.KEEP,),
        )


class Storage:
    """The database and its repositories, opened once per process."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.chats = ChatRepo(db)
        self.players = PlayerRepo(db)
        self.games = GameRepo(db)
        self.results = ResultRepo(db)
        self.ratings = self.games.ratings
        self.notices = NoticeRepo(db)
        self.updates = UpdateRepo(db)
        self.shown = ShownRepo(db)

    @classmethod
    async def open(cls, path: str | Path, now: Callable[[], float] = time.time, catch_up: bool = True) -> Storage:
        """``now``: the wall clock of the times that the bot reads back (a move's, a game's start);
        ``catch_up``: rate the series of a database just migrated to ratings (RatingRepo.catch_up)."""
        storage = cls(await Database.open(path, now))
        if catch_up:
            await storage.ratings.catch_up()
        return storage

    async def close(self) -> None:
        await self.db.close()
