"""What every game's reference model shares: card strings, the action tuple, what a deal and a series are
expected to give."""

from __future__ import annotations

from dataclasses import dataclass, field

RefAction = tuple[int, str, frozenset[str]]


def rank(card: str) -> str:
    """``"10♥"`` -> ``"10"``."""
    return card[:-1]


def suit(card: str) -> str:
    """``"10♥"`` -> ``"♥"``."""
    return card[-1]


def act(seat: int, kind: str, cards: list[str] | tuple[str, ...] = ()) -> RefAction:
    return (seat, kind, frozenset(cards))


@dataclass
class DealRecord:
    """What the reference expects of one finished deal."""

    dealer: int
    leader: int
    points: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]
    tricks: tuple[int, ...]
    eggs: bool = False
    last_trick_winner: int | None = None
    notes: set[str] = field(default_factory=set)  # what rare paths the deal took, for coverage counts


@dataclass
class Ending:
    """How the reference expects a series or game to end."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    with_eggs: bool = False
    table_points: tuple[int, ...] = ()
    no_trick: bool = False

