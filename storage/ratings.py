"""The ratings' repository: each player's rating per game (``storage.rating``), updated in the transaction
that ends a series, read for the leaderboards, and recomputed from the stored series on request."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Sequence

from engine import find_variant
from storage import rating
from storage.db import Database
from storage.models import (
    PersonRating,
    RatedPlayer,
    RatingChange,
    RatingPoint,
    deal_result,
)


def rated_subject(user_id: int | None, level: str | None) -> str:
    """Whose rating a seat moves: a person's, or a computer level's."""
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
        whose = rated_subject(row["user_id"], row["computer"])
        return rating.Entrant(seat, whose, seat % 2 if teams else seat, row["place"]), row["user_id"]

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
