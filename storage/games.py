"""The games' repository: each game, its seats and its append-only action log, and the results of its
series; a game is stored as its seed and its actions, so it can always be replayed."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engine import Action, DealResult, GameState, Kind, find_variant
from storage import rating
from storage.db import NOW, Database, DuplicateActionError, StorageError, to_json
from storage.models import (
    DEAL_COLUMNS,
    GAME_COLUMNS,
    RESULT_COLUMNS,
    SEAT_COLUMNS,
    DealRow,
    GameRow,
    PlayerStats,
    ResultRow,
    SeatRow,
    TableLine,
    deal_result,
)
from storage.ratings import RatingRepo, rated_subject


class OpenGameExistsError(StorageError):
    """The chat already has a lobby or a running game (rules X2)."""


class SeatTakenError(StorageError):
    """The seat is taken, or the player already sits in this game."""


class ReplayMismatchError(StorageError):
    """The stored action log does not rebuild the recorded state."""


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
                "INSERT INTO games (chat_id, variant, options, seed, creator_id, created_at, updated_at) "
                f"VALUES (?, ?, ?, ?, ?, {NOW}, {NOW})",
                (chat_id, variant, to_json(options), seed, creator_id),
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
            "UPDATE games SET cancel_votes = ? WHERE game_id = ?", (to_json(list(dict.fromkeys(votes))), game_id)
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
            (variant, to_json(options), game_id),
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
                (len(state.history), state.deal_no, to_json(state.totals), game.game_id, game.action_count),
            )
            if changed != 1:
                raise DuplicateActionError(f"game {game.game_id} moved on past seq {game.action_count}")
            stored = await self.db.fetchone("SELECT count(*) AS n FROM deals WHERE game_id = ?", (game.game_id,))
            for result in state.deals[stored["n"] if stored else 0 :]:
                await self.db.execute(
                    "INSERT INTO deals (game_id, deal_no, result) VALUES (?, ?, ?)",
                    (game.game_id, result.deal_no, to_json(dataclasses.asdict(result))),
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
                to_json(dataclasses.asdict(outcome)) if outcome else None,
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
                entrant = rating.Entrant(seat.seat, rated_subject(seat.user_id, seat.computer), unit, places[seat.seat])
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
            f"INSERT OR REPLACE INTO results ({RESULT_COLUMNS}, computer, place, deals_won, finished_at) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {NOW})",
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
            (user_id, Kind.MOLODKA.value, to_json(dict(kozel_points))),
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
