"""Computer players: pure functions of one seat's view (RULES X1) and a random source.

>>> from engine.players import find_player
>>> player = find_player("strong")
>>> action = player.choose(state.view(seat), random.Random(1))   # an action, or None to wait

Five levels:

* ``random`` — any legal action of the seat to move (for tests and as a baseline);
* ``basic`` — hand-written heuristics, each game's own (its package's ``heuristics``);
* ``strong`` — information-set Monte Carlo tree search with heuristic playouts (``engine.players.search``)
  in a game whose tuning asks for it (``SearchTuning.tree``); elsewhere, where the tree search measured
  weaker, a flat search like ``strong1``'s with worlds weighted by the others' play and racing candidates
  where the game's tuning asks for them (``engine.players.flat``).  Both decide the announcements before the
  first lead (a redeal, going out of trumps) by simulation too;
* ``strong1`` — the earlier strong player, kept as the baseline: determinized Monte Carlo search; it samples
  the hidden cards many times consistently with everything the seat has seen (``engine.players.worlds``),
  plays each candidate on to the end of the deal in every sample with the basic heuristics for all four
  hands, and picks the best average.  It stops on its time budget (or after a fixed number of samples, for
  reproducible tests and arenas); the redeal and going out of trumps are left to the heuristics;
* ``expert`` — sampled worlds like ``strong``'s, each candidate valued by the exact solver of the compiled
  core after heuristic play where a solve would be too dear (``engine.players.expert``).

A player never sees a state, only a view: two deals that look the same from the seat give the same choice for
the same random seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from engine.actions import Action
from engine.clock import perf
from engine.players.contract import Situation, heuristic, tuning
from engine.players.expert import ExpertPlayer
from engine.players.flat import FlatSearch
from engine.players.search import EXTRAS, SearchPlayer, candidates, finish, record
from engine.players.worlds import Knowledge, SamplingError
from engine.state import GameState, View

__all__ = [
    "LEVELS",
    "BasicPlayer",
    "ExpertPlayer",
    "Player",
    "RandomPlayer",
    "SamplingError",
    "SearchPlayer",
    "Strong1Player",
    "StrongPlayer",
    "decide",
    "find_player",
]

DEFAULT_BUDGET = 0.5  # seconds per decision
_EXTRAS = EXTRAS  # strong1 leaves them to the heuristics: their value lies beyond this deal's cards


class Player(Protocol):
    name: ClassVar[str]

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """One of ``view.legal``, or None when it is not the seat's turn and it prefers to wait."""
        ...


@dataclass(frozen=True)
class RandomPlayer:
    name: ClassVar[str] = "random"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if view.to_move != view.seat or not view.legal:
            return None
        return rng.choice(view.legal)


@dataclass(frozen=True)
class BasicPlayer:
    name: ClassVar[str] = "basic"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        return heuristic(view.variant)(Situation.of_view(view), False)


def playout(state: GameState, seat: int, deal: int) -> float:
    """Play deal number ``deal`` (an index into ``state.deals``) to its end with the heuristics for every
    seat; its value for ``seat``.  The deal may already be over: a candidate move can end it (C12)."""
    return finish(state, deal)[seat]


@dataclass(frozen=True)
class Strong1Player:
    """Determinized Monte Carlo: the same sampled worlds for every candidate, so they compare fairly (the
    ``strong1`` level)."""

    name: ClassVar[str] = "strong1"
    budget: float | None = DEFAULT_BUDGET
    max_worlds: int | None = None
    clock: Callable[[], float] = perf  # the budget's clock: the caller's, or the process's
    label: str = "strong1"  # the level its playouts are counted under

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        assert view.seat is not None
        hint = heuristic(view.variant)(Situation.of_view(view), False)
        if hint is not None and hint.kind in _EXTRAS:
            return hint
        options = candidates(view, [a for a in view.legal if a.kind not in _EXTRAS])
        if len(options) == 1:
            return options[0]
        return self._search(view, options, rng)

    def _search(self, view: View, options: list[Action | None], rng: random.Random) -> Action | None:
        assert view.seat is not None
        started = self.clock()
        knowledge = Knowledge(view)
        sums = [0.0] * len(options)
        worlds = 0
        while True:
            world = knowledge.world(rng)
            deal = len(world.deals)  # counted before a candidate that ends the deal is applied
            for i, option in enumerate(options):
                state = world.fork() if i < len(options) - 1 else world
                if option is not None:
                    state.apply(option)
                sums[i] += playout(state, view.seat, deal)
            worlds += 1
            if self.max_worlds is not None and worlds >= self.max_worlds:
                break
            if self.budget is not None:
                now = self.clock()
                if now + (now - started) / worlds > started + self.budget:
                    break  # the next world would not finish in time
        record(self.label, worlds * len(options))
        best = max(range(len(options)), key=lambda i: sums[i])
        return options[best]




@dataclass(frozen=True)
class StrongPlayer:
    """The ``strong`` level: the tree search where the game's tuning asks for it, else the flat search."""

    name: ClassVar[str] = "strong"
    tree: SearchPlayer = field(default_factory=SearchPlayer)
    flat: FlatSearch = field(default_factory=FlatSearch)

    def choose(self, view: View, rng: random.Random) -> Action | None:
        player: Player = self.tree if tuning(view.variant).tree else self.flat
        return player.choose(view, rng)


LEVELS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
    "strong": StrongPlayer,
    "strong1": Strong1Player,
    "expert": ExpertPlayer,
}
PLAYOUTS_PER_WORLD = 4  # ``max_worlds`` for the tree search: about the playouts one world costs ``strong1``


def find_player(
    level: str,
    budget: float | None = DEFAULT_BUDGET,
    max_worlds: int | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = perf,
) -> Player:
    """The computer player of a level; raises ``ValueError`` for an unknown level.  Without a budget, the
    search stops after ``max_worlds`` sampled worlds (``strong1``, and the flat search of ``strong``: the
    playouts of that many worlds for every candidate) or ``iterations`` tree walks (``strong``, by default
    ``PLAYOUTS_PER_WORLD`` per world).  ``clock`` measures the budget."""
    if level == "strong":
        walks = iterations if iterations is not None or max_worlds is None else max_worlds * PLAYOUTS_PER_WORLD
        worlds = (
            max_worlds if max_worlds is not None or iterations is None else max(iterations // PLAYOUTS_PER_WORLD, 1)
        )
        return StrongPlayer(
            SearchPlayer(budget=budget, iterations=walks, clock=clock),
            FlatSearch(budget=budget, worlds=worlds, clock=clock),
        )
    if level == "strong1":
        return Strong1Player(budget=budget, max_worlds=max_worlds, clock=clock)
    if level == "expert":
        return ExpertPlayer(budget=budget, worlds=max_worlds, clock=clock)
    if level in LEVELS:
        return LEVELS[level]()
    raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")


def decide(
    level: str, view: View, seed: int, budget: float | None = DEFAULT_BUDGET, clock: Callable[[], float] = perf
) -> Action | None:
    """One decision, as a plain function of picklable values (``clock`` too: a module's function): what the
    bot runs in a worker process."""
    return find_player(level, budget=budget, clock=clock).choose(view, random.Random(seed))
