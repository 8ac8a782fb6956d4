"""The compiled search core: each game's rules again, on bit masks in C, for the computer players' search.

The pure engine stays the rules; this is a second, compact form of them for search only, held to the pure
engine by the differential tests (tests/test_compiled.py).  It is built with the C compiler when the package
is installed (setup.py); ``core()`` names what to do when it was not.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Protocol, cast

from engine.core import GameState
from engine.registry import Variant, find_variant


class CoreMissingError(RuntimeError):
    """The compiled core was not built (the package was installed without a C compiler)."""


def core() -> ModuleType:
    """The compiled module; raises ``CoreMissingError`` with what to do, never falls back to anything weaker."""
    try:
        return importlib.import_module("engine.compiled._core")
    except ImportError as exc:
        raise CoreMissingError(
            "the compiled search core (engine/compiled) is not built: install a C compiler "
            "(Debian: apt install gcc python3-dev) and run the install again (make clean && make test)"
        ) from exc


class Solver(Protocol):
    """What a game's module of the core gives the search over sampled worlds (``engine.players.expert``)."""

    def solvable(self, state: GameState) -> bool:
        """Whether an exact solve of the deal from here is affordable in a decision's time."""
        ...

    def encode_state(self, state: GameState) -> bytes:
        """The state as the core's position."""
        ...

    def worth(self, state: GameState, seat: int, waiting: bool, same_world: bool) -> float:
        """The exact worth of the deal in play to ``seat`` (as ``deal_value`` counts it), every card known;
        ``waiting``: the seat lets the next action happen without acting out of turn; ``same_world``: the
        state comes from the same world as the previous call's, whose transposition table still holds."""
        ...


class NoSolverError(LookupError):
    """The game has no compiled core yet."""


def of(variant: Variant) -> ModuleType | None:
    """The game's module of the compiled core (``Variant.core``), or None for a game that has none yet."""
    return importlib.import_module(variant.core) if variant.core else None


def solver(variant_name: str) -> Solver:
    """The game's solver; raises ``NoSolverError`` for a game whose core is still to come."""
    module = of(find_variant(variant_name))
    if module is None:
        raise NoSolverError(f"{variant_name} has no compiled search core yet")
    return cast(Solver, module)
