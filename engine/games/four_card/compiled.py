"""Four-card Kozel between the pure engine and the compiled core: a position as the core reads it, and the
core's actions as the engine's."""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from types import ModuleType
from typing import NamedTuple

from engine.actions import Action, Kind
from engine.cards import Card
from engine.compiled import SolverBench, cards_of, mask
from engine.games.four_card import _compiled
from engine.games.four_card.rules import FourCardState, card_points
from engine.state import GameState

KINDS = (Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.MOLODKA)  # the core's kind numbers, in order
KIND_NUMBERS = {kind: number for number, kind in enumerate(KINDS)}
WORDS = 49  # int64 values in a position (_compiled.c reads them in this order)


class Position(NamedTuple):
    """What the core knows of a deal in play, in the pure engine's terms (for comparing the two)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump: int
    to_move: int
    trick_leader: int
    lead_seat: int
    molodka: bool
    top: int
    answered: int
    trick: tuple[Action, ...]
    points: tuple[int, int]
    tricks: tuple[int, int]


def position(state: FourCardState) -> Position:
    """The pure engine's state as a ``Position``."""
    assert state.to_move is not None
    return Position(
        hands=tuple(tuple(sorted(h)) for h in state.hands),
        stock=tuple(state.stock),
        trump=int(state.trump),
        to_move=state.to_move,
        trick_leader=state.trick_leader,
        lead_seat=state.lead_seat,
        molodka=state.molodka,
        top=state.top,
        answered=state.answered,
        trick=tuple(Action(a.seat, a.kind, tuple(sorted(a.cards))) for a in state.trick),
        points=(card_points(state.piles[0]), card_points(state.piles[1])),
        tricks=(state.tricks_taken[0], state.tricks_taken[1]),
    )


def encode(p: Position) -> bytes:
    words = [mask(h) for h in p.hands]
    words += [len(p.stock), *p.stock, *[0] * (20 - len(p.stock))]
    words += [p.trump, p.to_move, p.trick_leader, p.lead_seat, int(p.molodka), p.top, p.answered, len(p.trick)]
    plays = [*p.trick, *[None] * (4 - len(p.trick))]
    words += [a.seat if a else 0 for a in plays]
    words += [KIND_NUMBERS[a.kind] if a else 0 for a in plays]
    words += [mask(a.cards) if a else 0 for a in plays]
    words += [*p.points, *p.tricks]
    assert len(words) == WORDS
    return array("q", words).tobytes()


def decode(data: bytes) -> Position:
    w = array("q")
    w.frombytes(data)
    plays = tuple(Action(w[33 + i], KINDS[w[37 + i]], cards_of(w[41 + i])) for i in range(w[32]))
    return Position(
        hands=tuple(cards_of(w[i]) for i in range(4)),
        stock=tuple(Card.from_code(c) for c in w[5 : 5 + w[4]]),
        trump=w[25],
        to_move=w[26],
        trick_leader=w[27],
        lead_seat=w[28],
        molodka=bool(w[29]),
        top=w[30],
        answered=w[31],
        trick=plays,
        points=(w[45], w[46]),
        tricks=(w[47], w[48]),
    )


def legal(data: bytes, lib: ModuleType | None = None) -> list[Action]:
    """Every seat's legal actions in the position, by the core (``lib``: another build of it)."""
    found = (lib or _compiled).legal(data)
    return [Action(seat, KINDS[kind], cards_of(bits)) for seat, kind, bits in found]


def step(data: bytes, action: Action, lib: ModuleType | None = None) -> tuple[bytes, bool]:
    """The position after ``action`` (which the core checks is legal), and whether the deal is over."""
    result: tuple[bytes, bool] = (lib or _compiled).step(
        data, action.seat, KIND_NUMBERS[action.kind], mask(action.cards)
    )
    return result


def heuristic(data: bytes, lib: ModuleType | None = None) -> Action:
    """The action the hand-written heuristics take for the seat to move, by the core."""
    seat, kind, bits = (lib or _compiled).heuristic(data)
    return Action(seat, KINDS[kind], cards_of(bits))


def playout(data: bytes, lib: ModuleType | None = None) -> int:
    """The deal's worth to team 0 (as ``solve`` counts it) when the heuristics play it to its end, by the core."""
    return int((lib or _compiled).playout(data))


def defeat_points(points: int, tricks: int, lib: ModuleType | None = None) -> int:
    """F14 by the core: the losing team's penalty points."""
    return int((lib or _compiled).defeat_points(points, tricks))


def random_deals(deals: int, seed: int) -> tuple[int, int, int]:
    """Random deals from random shuffles in the core: (actions played, card points of each team)."""
    result: tuple[int, int, int] = _compiled.random_deals(deals, seed)
    return result


def solve(data: bytes, lib: ModuleType | None = None, passed: int = 0, same_world: bool = False) -> tuple[int, int]:
    """The exact worth to team 0 of the position with every card known (the stock's order too), by the core's
    solver: (value, nodes searched).  The value counts as ``FourCardState.deal_value`` does for seat 0.
    ``passed``: a mask of the seats that let the next action happen without a molodka out of turn;
    ``same_world``: the position is of the same world (the stock's order) as the previous solve's, whose
    transposition table then still holds."""
    result: tuple[int, int] = (lib or _compiled).solve(data, passed, same_world)
    return result


def plays_random(options: Mapping[str, object]) -> bool:
    """bench.speed: the core's random deals are of this configuration (four-card Kozel has no options)."""
    return not options


def random_play(deals: int, seed: int, options: Mapping[str, object]) -> int:
    """bench.speed: random deals played by the core; the actions played."""
    return random_deals(deals, seed)[0]


# --- for the search over sampled worlds (engine.compiled.CompiledGame) and bench.solver -------------------


# bench.solver: solves from tricks 4 to 7 (earlier ones take seconds to minutes)
BENCH = SolverBench(tricks=(4, 5, 6, 7), fewer={})


def encode_state(state: GameState) -> bytes:
    assert isinstance(state, FourCardState)
    return encode(position(state))


def solvable(state: GameState, cards: int = 0) -> bool:
    """Once the stock is drawn (``cards``: the stock may still hold that many), a solve takes milliseconds;
    with cards still to draw it can take minutes."""
    assert isinstance(state, FourCardState)
    return len(state.stock) <= cards


def valued(state: GameState, thorough: bool = False) -> bool:
    """``worth`` values any position: by a solve once it is affordable, by the core's playout before."""
    return True


def worth(state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
    """The deal's worth to ``seat``: exact once the stock is drawn (a solve with every card known); before,
    while the cards still to draw would make a solve take seconds, the heuristics' playout in the core, so
    that a decision values many worlds rather than a few solved ones."""
    assert isinstance(state, FourCardState)
    data = encode(position(state))
    if state.stock:
        value = playout(data)
    else:
        value, _ = solve(data, passed=1 << seat if waiting else 0, same_world=same_world)
    return value if seat % 2 == 0 else -value


def thorough_worth(state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
    """The ceiling's valuation: the heuristics draw the stock out, then the rest is solved exactly."""
    assert isinstance(state, FourCardState)
    data = encode(position(state))
    if state.stock:
        data, over, value = _compiled.draw_out(data)
        if over:
            return value if seat % 2 == 0 else -value
        waiting = False  # the next action happened: waiting no longer means anything
    value, _ = solve(data, passed=1 << seat if waiting else 0, same_world=same_world)
    return value if seat % 2 == 0 else -value
