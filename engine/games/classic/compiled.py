"""Classic Kozel between the pure engine and the compiled core: a position in card play as the core reads it.

The core plays the cards (C8-C13); the announcements before the first lead (C6 redeal, C7 going out of trumps
and the card given back) are the pure engine's, and a search applies them there before it asks the core.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from types import ModuleType
from typing import NamedTuple

from engine.cards import Card
from engine.compiled import SolverBench, cards_of, mask
from engine.games.classic import _compiled
from engine.games.classic.rules import ClassicState, card_points
from engine.state import GameState

WORDS = 25  # int64 values in a position (_compiled.c reads them in this order)


class Position(NamedTuple):
    """What the core knows of a deal in card play, in the pure engine's terms (for comparing the two)."""

    hands: tuple[tuple[Card, ...], ...]
    to_move: int
    trick: tuple[tuple[int, Card], ...]  # (seat, card) in order
    banned: tuple[int, ...]  # C9
    ace_lead: bool  # C8
    points: tuple[int, int]
    tricks: tuple[int, int]
    eggs_pending: int
    lose_series: bool
    over: bool = False
    score: tuple[int, int] = (0, 0)


def in_card_play(state: ClassicState) -> bool:
    """Whether the core can take the deal from here: cards are being played, nothing is owed back (C7)."""
    return state.to_move is not None and state.giving_back < 0 and state.outcome is None


def position(state: ClassicState) -> Position:
    """The pure engine's state as a ``Position`` (in card play: ``in_card_play``)."""
    assert state.to_move is not None and in_card_play(state)
    return Position(
        hands=tuple(tuple(sorted(h)) for h in state.hands),
        to_move=state.to_move,
        trick=tuple((a.seat, a.cards[0]) for a in state.trick),
        banned=tuple(sorted(state.banned)),
        ace_lead=state.deal_no == 0 and not state.tricks_done and not state.trick,
        points=(card_points(state.piles[0]), card_points(state.piles[1])),
        tricks=(state.tricks_taken[0], state.tricks_taken[1]),
        eggs_pending=state.eggs_pending,
        lose_series=state.options.all_tricks == "lose_series",
    )


def encode(p: Position) -> bytes:
    plays = [*p.trick, *[(0, 0)] * (4 - len(p.trick))]
    words = [mask(h) for h in p.hands]
    words += [p.to_move, len(p.trick), *[seat for seat, _ in plays], *[card for _, card in plays]]
    words += [sum(1 << seat for seat in p.banned), int(p.ace_lead), *p.points, *p.tricks]
    words += [p.eggs_pending, int(p.lose_series), int(p.over), *p.score]
    assert len(words) == WORDS
    return array("q", words).tobytes()


def decode(data: bytes) -> Position:
    w = array("q")
    w.frombytes(data)
    return Position(
        hands=tuple(cards_of(w[i]) for i in range(4)),
        to_move=w[4],
        trick=tuple((w[6 + i], Card.from_code(w[10 + i])) for i in range(w[5])),
        banned=tuple(seat for seat in range(4) if w[14] >> seat & 1),
        ace_lead=bool(w[15]),
        points=(w[16], w[17]),
        tricks=(w[18], w[19]),
        eggs_pending=w[20],
        lose_series=bool(w[21]),
        over=bool(w[22]),
        score=(w[23], w[24]),
    )


def legal(data: bytes, lib: ModuleType | None = None) -> list[Card]:
    """The cards the seat to move may play, by the core (``lib``: another build of it)."""
    return [Card.from_code(code) for code in (lib or _compiled).legal(data)]


def step(data: bytes, card: Card, lib: ModuleType | None = None) -> tuple[bytes, bool]:
    """The position after the seat to move plays ``card`` (which the core checks is legal), and whether the
    deal is over."""
    result: tuple[bytes, bool] = (lib or _compiled).step(data, int(card))
    return result


def random_deals(deals: int, seed: int) -> tuple[int, int, int]:
    """Random deals from random shuffles in the core: (cards played, card points of each team)."""
    result: tuple[int, int, int] = _compiled.random_deals(deals, seed)
    return result


def solve(
    data: bytes, lib: ModuleType | None = None, same_world: bool = False, cards: int = 36
) -> tuple[int, int]:
    """The exact worth to team 0 of the position with every card known, by the core's solver: (value, nodes
    searched).  The value counts as ``ClassicState.deal_value`` does for seat 0.  ``cards``: the heuristics
    (``heuristic``) play on until at most that many cards are left in the hands, and the solve starts there."""
    result: tuple[int, int] = (lib or _compiled).solve(data, same_world, cards)
    return result


def heuristic(data: bytes, lib: ModuleType | None = None) -> Card:
    """The card the hand-written heuristics (heuristics.py) play for the seat to move, by the core."""
    return Card.from_code((lib or _compiled).heuristic(data))


def plays_random(options: Mapping[str, object]) -> bool:
    """bench.speed: the core's random deals are of the default options (36 cards; the redeal and going out of
    trumps are not the core's)."""
    return not options


def random_play(deals: int, seed: int, options: Mapping[str, object]) -> int:
    """bench.speed: random deals played by the core; the cards played."""
    return random_deals(deals, seed)[0]


# --- for the search over sampled worlds (engine.compiled.CompiledGame) and bench.solver -------------------


SOLVE_CARDS = 20  # cards left in the hands from which a solve takes milliseconds (bench.solver)
# ... and from which it takes a tenth of a second or so: the ceiling's, which has no decision's time to keep to
THOROUGH_CARDS = 32
# bench.solver: a solve from trick 1 takes seconds, so a tenth of the positions there
BENCH = SolverBench(tricks=(1, 3, 5), fewer={1: 10})


def encode_state(state: GameState) -> bytes:
    assert isinstance(state, ClassicState)
    return encode(position(state))


def solvable(state: GameState, cards: int = SOLVE_CARDS) -> bool:
    """In card play with at most ``cards`` cards left in the hands (the announcements not yet made count as
    not made)."""
    assert isinstance(state, ClassicState)
    return in_card_play(state) and sum(map(len, state.hands)) <= cards


def valued(state: GameState, thorough: bool = False) -> bool:
    """``worth`` and ``thorough_worth`` value any position of card play: the announcements before it are the
    pure engine's to play on."""
    assert isinstance(state, ClassicState)
    return in_card_play(state)


def worth(state: GameState, seat: int, waiting: bool, same_world: bool, cards: int = SOLVE_CARDS) -> float:
    """The deal's worth to ``seat``: the heuristics play on in the core until a solve is affordable in a
    decision's time, then the rest is solved exactly (``cards``: the solve starts at that many instead)."""
    assert isinstance(state, ClassicState)
    value, _ = solve(encode(position(state)), same_world=same_world, cards=cards)
    return value if seat % 2 == 0 else -value


def thorough_worth(state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
    """The ceiling's valuation: the expert's, solved from deeper in the deal."""
    return worth(state, seat, waiting, same_world, THOROUGH_CARDS)
