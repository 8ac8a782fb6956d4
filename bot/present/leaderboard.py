"""Ratings as people read them: the changes at a series' end, a chat's leaderboard (/top), a person's ratings
and the picture of them over time (/stats)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from bot.i18n import ordinal, t, tn
from bot.present import GAMES, game_title, presenter
from bot.present.charts import Line, rating_chart
from engine import Outcome
from storage.models import PersonRating, RatedPlayer, RatingChange, RatingPoint
from storage.rating import Skill
from storage.ratings import rank

TOP = 10  # the places /top lists


def shown(skill: Skill) -> str:
    """A rating as people read it: "1532", or "1412?" while it is provisional."""
    return f"{skill.rating}?" if skill.provisional else str(skill.rating)


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


def render_changes(
    changes: Sequence[RatingChange], names: Mapping[int, str], lang: str, *, seats: Sequence[str] = (), note: str = ""
) -> str:
    """The series' end: each seat's player with his new rating and its change ("Anna: 1532 (+18)"; ``names``:
    the people's names by user id); a computer level once however many seats it held, with the names of its
    seats (``seats``: the table's names by seat), and when it held several, that its one change is their mean
    (docs/ratings.md).  ``note`` stands under the heading; a provisional rating's "?" is explained once."""
    if not changes:
        return ""
    lines = [t(lang, "rating.changes"), *([note] if note else [])]
    held: dict[str, list[int]] = {}
    for change in changes:
        if change.user_id is None and change.level is not None:
            held.setdefault(change.level, []).append(change.seat)
    seen: set[int | str | None] = set()
    for change in changes:
        who = change.user_id if change.user_id is not None else change.level
        if who in seen:
            continue
        seen.add(who)
        before = change.before or Skill()
        rating, delta = shown(change.after), signed(change.after.rating - before.rating)
        if change.user_id is not None:
            name = escape(names.get(change.user_id, "?"))
            lines.append(t(lang, "rating.change_line", name=name, rating=rating, change=delta))
            continue
        own = held.get(change.level or "", [change.seat])
        named = ", ".join(escape(seats[s]) for s in own if s < len(seats))
        level = level_name(change.level, lang)
        if not named:
            lines.append(t(lang, "rating.change_line", name=level, rating=rating, change=delta))
            continue
        key = "rating.level_seats_line" if len(own) > 1 else "rating.level_line"
        lines.append(t(lang, key, name=level, seats=named, rating=rating, change=delta))
    if any(change.after.provisional for change in changes):
        lines.append(t(lang, "rating.provisional"))
    return "\n".join(lines)


def render_own_end(
    outcome: Outcome, variant: str, seat: int, *, change: RatingChange | None, chat: str, lang: str
) -> str:
    """The series' end in a seated person's private chat: how it went for him, his rating's change (None: not
    rated) and what to do for another game."""
    lines = [t(lang, "ended.header", game=game_title(variant, lang), chat=escape(chat)),
             presenter(variant).own_outcome(outcome, seat, lang)]  # fmt: skip
    if change is not None:
        before = change.before or Skill()
        delta = signed(change.after.rating - before.rating)
        lines.append(t(lang, "ended.rating", rating=shown(change.after), change=delta))
        if change.after.provisional:
            lines.append(t(lang, "rating.provisional"))
    lines.append(t(lang, "ended.next", chat=escape(chat)))
    return "\n".join(lines)


def level_name(level: str | None, lang: str) -> str:
    """A computer level as a player of the ratings ("🤖 computer, strong")."""
    return t(lang, "top.level", level=t(lang, f"level.{level}") if level else "?")


def render_top(players: Sequence[RatedPlayer], variant: str, asker: int, lang: str, others: Sequence[str]) -> str:
    """/top: the chat's people by rating, settled ones first, the first ``TOP`` places and the asker's own
    below them; the computer levels that played here stand between them as yardsticks, with no place.
    ``others``: the other games with a leaderboard here."""
    title = game_title(variant, lang)
    if not players:
        return t(lang, "top.none", game=title)
    people = rank(players)
    levels = sorted((p for p in players if p.user_id is None), key=lambda p: -p.skill.rating)
    lines = [t(lang, "top.title", game=title)]

    def person_line(place: int, player: RatedPlayer) -> str:
        key = "top.line_you" if player.user_id == asker else "top.line"
        return t(lang, key, place=place, name=escape(player.name), rating=shown(player.skill),
                 series=tn(lang, "top.series", player.skill.series))  # fmt: skip

    def level_line(player: RatedPlayer) -> str:
        return t(lang, "top.level_line", name=level_name(player.level, lang), rating=shown(player.skill))

    pending = list(levels)
    for place, player in enumerate(people[:TOP], 1):
        while pending and not player.skill.provisional and pending[0].skill.rating > player.skill.rating:
            lines.append(level_line(pending.pop(0)))
        lines.append(person_line(place, player))
    lines += [level_line(p) for p in pending]
    mine = next((i for i, p in enumerate(people, 1) if p.user_id == asker), None)
    if mine is not None and mine > TOP:
        lines += ["…", person_line(mine, people[mine - 1])]
    if any(p.skill.provisional for p in people):
        lines += ["", t(lang, "top.provisional")]
    if others:
        lines += ["", t(lang, "top.others", games=", ".join(others))]
    return "\n".join(lines)


def render_ratings(found: Sequence[PersonRating], lang: str) -> list[str]:
    """/stats: a person's rating in each game, its best, his rated series, series and deals won, and his place
    in each chat."""
    lines: list[str] = []
    by_game = {r.variant: r for r in found}
    for variant in GAMES:
        r = by_game.get(variant)
        if r is None:
            continue
        best = str(r.best) if r.best is not None else t(lang, "stats.best_none")
        lines.append(t(lang, "stats.rating", game=game_title(variant, lang), rating=shown(r.skill), best=best))
        lines.append(
            "   " + t(lang, "stats.rated", series=tn(lang, "stats.rated_series", r.skill.series),
                      won=r.series_won, deals=tn(lang, "stats.deals_won", r.deals_won))
        )  # fmt: skip
        for chat, place, count in r.places:
            place_line = t(lang, "stats.place", chat=escape(chat) or "—", place=ordinal(lang, place), count=count)
            lines.append("   " + place_line)
    return lines


def rating_picture(history: dict[str, list[RatingPoint]], name: str, lang: str) -> bytes | None:
    """The person's rating over time in each game he has been rated in, from a newcomer's rating before his
    first series, as one PNG (None: none yet)."""
    start = (0, Skill().rating, True)
    lines = [
        Line(game_title(variant, lang), [start, *((p.series, p.rating, p.provisional) for p in history[variant])])
        for variant in GAMES
        if history.get(variant)
    ]
    if not lines:
        return None
    notes = {"settled": t(lang, "chart.settled"), "provisional": t(lang, "chart.provisional")}
    return rating_chart(lines, t(lang, "chart.title", name=name), t(lang, "chart.series"), notes)
