"""Czech Kozel between the pure engine and the compiled core: a position in card play as the core reads it.

The core plays the cards (K4-K7); the double (K6), made before the first card, is the pure engine's.  Its
solver values a position for one seat against all the others together (paranoid): every other player is
taken to play to hurt him, which a deal of each for himself makes a cautious estimate.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from types import ModuleType
from typing import NamedTuple

from engine.cards import Card
from engine.compiled import SolverBench, cards_of, mask
from engine.games.czech import _compiled
from engine.games.czech.rules import CzechState, penalty_points
from engine.state import GameState

WORDS = 42  # int64 values in a position (_compiled.c reads them in this order)
SEATS = 6  # K1: at most


class Position(NamedTuple):
    """What the core knows of a deal in card play, in the pure engine's terms (for comparing the two)."""

    players: int
    hands: tuple[tuple[Card, ...], ...]
    to_move: int
    trick: tuple[tuple[int, Card], ...]  # (seat, card) in order
    penalties: tuple[int, ...]  # K5: the penalty points in each player's tricks so far
    tricks: tuple[int, ...]
    tricks_done: int
    doubled: bool  # K6
    over: bool = False
    score: tuple[int, ...] = ()


def position(state: CzechState) -> Position:
    """The pure engine's state as a ``Position`` (a deal in play)."""
    assert state.to_move is not None and state.outcome is None
    n = state.num_players
    return Position(
        players=n,
        hands=tuple(tuple(sorted(h)) for h in state.hands),
        to_move=state.to_move,
        trick=tuple((a.seat, a.cards[0]) for a in state.trick),
        penalties=tuple(penalty_points(p) for p in state.piles),
        tricks=tuple(state.tricks_taken),
        tricks_done=len(state.tricks_done),
        doubled=state.doubled,
        score=(0,) * n,
    )


def _seats(values: tuple[int, ...] | list[int], n: int) -> list[int]:
    return [*values, *[0] * (SEATS - n)]


def encode(p: Position) -> bytes:
    n = p.players
    plays = [*p.trick, *[(0, 0)] * (SEATS - len(p.trick))]
    words = [n, *_seats([mask(h) for h in p.hands], n), p.to_move, len(p.trick)]
    words += [seat for seat, _ in plays] + [int(card) for _, card in plays]
    words += _seats(p.penalties, n) + _seats(p.tricks, n)
    words += [p.tricks_done, int(p.doubled), int(p.over), *_seats(p.score, n)]
    assert len(words) == WORDS
    return array("q", words).tobytes()


def decode(data: bytes) -> Position:
    w = array("q")
    w.frombytes(data)
    n = w[0]
    return Position(
        players=n,
        hands=tuple(cards_of(w[1 + i]) for i in range(n)),
        to_move=w[7],
        trick=tuple((w[9 + i], Card.from_code(w[15 + i])) for i in range(w[8])),
        penalties=tuple(w[21 : 21 + n]),
        tricks=tuple(w[27 : 27 + n]),
        tricks_done=w[33],
        doubled=bool(w[34]),
        over=bool(w[35]),
        score=tuple(w[36 : 36 + n]),
    )


def legal(data: bytes, lib: ModuleType | None = None) -> list[Card]:
    """The cards the seat to move may play, by the core (``lib``: another build of it)."""
    return [Card.from_code(code) for code in (lib or _compiled).legal(data)]


def step(data: bytes, card: Card, lib: ModuleType | None = None) -> tuple[bytes, bool]:
    """The position after the seat to move plays ``card`` (which the core checks is legal), and whether the
    deal is over."""
    result: tuple[bytes, bool] = (lib or _compiled).step(data, int(card))
    return result


def random_deals(deals: int, players: int, seed: int) -> tuple[int, int]:
    """Random deals from random shuffles in the core: (cards played, penalty points of all players)."""
    result: tuple[int, int] = _compiled.random_deals(deals, players, seed)
    return result


def solve(data: bytes, seat: int = 0, lib: ModuleType | None = None, same_world: bool = False) -> tuple[int, int]:
    """The exact worth to ``seat`` of the position with every card known, the others playing together against
    him, by the core's solver: (value, nodes searched).  The value is ``CzechState.deal_value`` times the
    number of players less one (whole numbers)."""
    result: tuple[int, int] = (lib or _compiled).solve(data, seat, same_world)
    return result


def plays_random(options: Mapping[str, object]) -> bool:
    """bench.speed: the core plays random deals of any number of players."""
    return set(options) <= {"players"}


def random_play(deals: int, seed: int, options: Mapping[str, object]) -> int:
    """bench.speed: random deals played by the core; the cards played."""
    players = options.get("players", 4)
    assert isinstance(players, int)
    return random_deals(deals, players, seed)[0]


# --- for the search over sampled worlds (engine.compiled.CompiledGame) and bench.solver -------------------

# A world is valued by two figures, both affordable from the deal's first card:
# the heuristics' playout and the best response to the others' heuristics (respond.c).  The second breaks a tie
# between candidates, weighed too little to outweigh any difference of the first.
TIE = 1e-6
SOLVE_CARDS = 20  # cards left in the hands from which a paranoid solve (solve.c) takes milliseconds
# bench.solver times the paranoid solver: a solve from trick 1 takes longest, so a tenth of the positions there
BENCH = SolverBench(tricks=(1, 3, 5), fewer={1: 10})


def encode_state(state: GameState) -> bytes:
    assert isinstance(state, CzechState)
    return encode(position(state))


def solvable(state: GameState, cards: int = SOLVE_CARDS) -> bool:
    """A deal in play with at most ``cards`` cards left in the hands (a double not yet made counts as not
    made)."""
    assert isinstance(state, CzechState)
    return state.to_move is not None and state.outcome is None and sum(map(len, state.hands)) <= cards


def valued(state: GameState, thorough: bool = False) -> bool:
    """The best response and the playout are affordable from the deal's first card."""
    return solvable(state, 99)


def heuristic(data: bytes, lib: ModuleType | None = None) -> Card:
    """The card the hand-written heuristics play in the position, by the core."""
    return Card.from_code((lib or _compiled).heuristic(data))


def best_response(data: bytes, seat: int, lib: ModuleType | None = None, same_world: bool = False) -> tuple[int, int]:
    """The worth to ``seat`` of the position when it plays its best against the others' heuristics, every card
    known: (value, nodes searched); the value counts as ``solve``'s."""
    result: tuple[int, int] = (lib or _compiled).best_response(data, seat, same_world)
    return result


def worth(state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
    """The expert's valuation: the heuristics' own playout of the world, its best response to the others'
    heuristics breaking ties (a best response alone fits itself to how the heuristics play, which stronger
    players do not)."""
    assert isinstance(state, CzechState)
    data = encode(position(state))
    value, _ = best_response(data, seat, same_world=same_world)
    return (_compiled.playout(data, seat) + TIE * value) / (state.num_players - 1)


def thorough_worth(state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
    """The ceiling's valuation: the clairvoyant best response to the others' heuristics, its own cards searched
    exactly, the playout breaking ties."""
    assert isinstance(state, CzechState)
    data = encode(position(state))
    value, _ = best_response(data, seat, same_world=same_world)
    return (value + TIE * _compiled.playout(data, seat)) / (state.num_players - 1)
