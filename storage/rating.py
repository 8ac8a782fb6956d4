"""The players' ratings: the Weng–Lin method (openskill's Plackett–Luce model) over the places of each rated
series, and the one number people read.  Pure: ``storage.ratings.RatingRepo`` reads and writes them.

A rating is a belief about a player's strength in one game: ``mu`` its mean, ``sigma`` its uncertainty.  The
number shown is the ordinal ``mu - 3 sigma`` (a strength the player is very likely to have), scaled to the
range people know from chess: a newcomer starts at 1300, a player of average strength settles around 1500
to 1700 as his ``sigma`` shrinks, and one place of a series moves a settled rating by tens of points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
# A rating is provisional (shown with "?", listed after the settled ones) for a player's first few series,
# and while its uncertainty is still close to a newcomer's (about 8 series of a team game, 5 of Czech Kozel).
PROVISIONAL_SERIES = 5
PROVISIONAL_SIGMA = 7.5
SCALE = 20.0  # rating points per unit of the ordinal
CENTRE = 10.0  # the ordinal shown as 1500


@dataclass(frozen=True)
class Skill:
    """One player's rating in one game after ``series`` rated series."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    series: int = 0

    @property
    def rating(self) -> int:
        """The number people read."""
        return round(1500 + SCALE * (self.mu - 3 * self.sigma - CENTRE))

    @property
    def provisional(self) -> bool:
        return self.series < PROVISIONAL_SERIES or self.sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class Entrant:
    """One seat of a rated series: who plays it (``subject``), his side (``unit``: his team, or himself in
    Czech Kozel) and his side's place (0 first; equal places tie)."""

    seat: int
    subject: str
    unit: int
    place: int


def rate(entrants: Sequence[Entrant], before: dict[str, Skill]) -> dict[str, Skill]:
    """Every subject's rating after the series (``before``: the ratings of those who have one).

    The sides are rated as teams by their places.  A computer level that held several seats is one player:
    each of its seats is rated as a copy of it, and its new rating is the copies' mean (two copies on
    opposite sides leave it where it was)."""
    units = sorted({e.unit for e in entrants})
    places = {e.unit: e.place for e in entrants}
    if any(places[e.unit] != e.place for e in entrants):
        raise ValueError("the seats of one side must share its place")
    teams = [
        [MODEL.rating(mu=skill.mu, sigma=skill.sigma) for e in entrants if e.unit == unit
         for skill in (before.get(e.subject, Skill()),)]
        for unit in units
    ]  # fmt: skip
    rated = MODEL.rate(teams, ranks=[places[unit] for unit in units])
    copies: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for unit, team in zip(units, rated, strict=True):
        for entrant, new in zip([e for e in entrants if e.unit == unit], team, strict=True):
            copies[entrant.subject].append((new.mu, new.sigma))
    return {
        subject: Skill(
            mu=sum(mu for mu, _ in found) / len(found),
            sigma=sum(sigma for _, sigma in found) / len(found),
            series=before.get(subject, Skill()).series + 1,
        )
        for subject, found in copies.items()
    }


def person(user_id: int) -> str:
    """The subject of a person's ratings."""
    return f"p{user_id}"


def computer(level: str) -> str:
    """The subject of a computer level's ratings (each level is one player per game)."""
    return f"c:{level}"
