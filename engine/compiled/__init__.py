"""The compiled search core: each game's rules again, on bit masks in C, for the computer players' search.

The pure engine stays the rules; this is a second, compact form of them for search only, held to the pure
engine by each game's differential tests.  A game that has one keeps its C sources in its package
(``rules.c``, ``solve.c`` and ``_compiled.c``, the module that registers its methods for Python) with the
bridge that speaks the engine's terms to it (``compiled.py``, named by ``Variant.compiled``); the headers here
are what every game's module shares.  The modules are built with the C compiler when the package is
installed (setup.py); ``load`` says what to do when they were not.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import NamedTuple, Protocol

from engine.cards import Card
from engine.registry import Variant, find_variant, variant_names
from engine.state import GameState


class CoreMissingError(RuntimeError):
    """The compiled core was not built (the package was installed without a C compiler)."""


class NoSolverError(LookupError):
    """The game has no compiled core."""


class SolverBench(NamedTuple):
    """What ``bench.solver`` measures of a game's solver: solves from the start of these tricks (of the game's
    ``typical_deal``), with fewer positions where a solve is slow (trick → divisor)."""

    tricks: tuple[int, ...]
    fewer: Mapping[int, int]


class CompiledGame(Protocol):
    """A game's compiled core as the searches and benches reach it: the bridge module ``Variant.compiled``
    names, which each game's package holds to this protocol for the type checker."""

    BENCH: SolverBench

    def encode_state(self, state: GameState, /) -> bytes:
        """The state as the core's position."""
        ...

    def solvable(self, state: GameState, /, cards: int = ...) -> bool:
        """Whether an exact solve of the deal from here (``solve``) is affordable in a decision's time
        (``cards``: a bound of the game's own measure of what is left, for a bench that wants another)."""
        ...

    def valued(self, state: GameState, thorough: bool = False, /) -> bool:
        """Whether ``worth`` (``thorough``: ``thorough_worth``) values the deal from here; before, the
        heuristics play on."""
        ...

    def solve(self, data: bytes, /) -> tuple[int, int]:
        """The exact worth of a position to its first seat or team: (value, nodes searched)."""
        ...

    def worth(self, state: GameState, seat: int, waiting: bool, same_world: bool, /) -> float:
        """The exact worth of the deal in play to ``seat`` (as ``deal_value`` counts it), every card known;
        ``waiting``: the seat lets the next action happen without acting out of turn; ``same_world``: the
        state comes from the same world as the previous call's, whose transposition table still holds."""
        ...

    def thorough_worth(self, state: GameState, seat: int, waiting: bool, same_world: bool, /) -> float:
        """As ``worth``, with no cheaper stand-in for an exact solve where one is affordable at all: the
        valuation of a measurement's ceiling, which has no decision's time to keep to."""
        ...

    def plays_random(self, options: Mapping[str, object], /) -> bool:
        """Whether the core's random deals (``random_play``) are of a game with these options."""
        ...

    def random_play(self, deals: int, seed: int, options: Mapping[str, object], /) -> int:
        """Random deals from random shuffles played by the core: the actions played."""
        ...


def load(variant: Variant) -> CompiledGame | None:
    """The game's compiled core, or None for a game that has none; raises ``CoreMissingError`` with what to
    do when it was not built, never falls back to anything weaker."""
    if variant.compiled is None:
        return None
    try:
        module: CompiledGame = importlib.import_module(variant.compiled)
    except ImportError as exc:
        raise CoreMissingError(
            f"the compiled search core of {variant.title} ({variant.package.replace('.', '/')}) is not built: "
            "install a C compiler "
            "(Debian: apt install gcc python3-dev) and run the install again (make clean && make test)"
        ) from exc
    return module


def check_built() -> None:
    """Load every game's compiled core: ``CoreMissingError`` for the first that was not built."""
    for name in variant_names():
        load(find_variant(name))


def solver(variant_name: str) -> CompiledGame:
    """The game's compiled core; raises ``NoSolverError`` for a game that has none."""
    game = load(find_variant(variant_name))
    if game is None:
        raise NoSolverError(f"{variant_name} has no compiled search core")
    return game


def mask(cards: tuple[Card, ...] | list[Card]) -> int:
    """A set of cards as the core's 64-bit mask of card codes."""
    return sum(1 << card for card in cards)


def cards_of(bits: int) -> tuple[Card, ...]:
    """The cards of a mask, in code order."""
    return tuple(Card.from_code(code) for code in range(64) if bits >> code & 1)
