"""The *expert* computer player: sampled worlds, each solved exactly by the compiled core.

Each round samples one world that agrees with the seat's view (``engine.players.worlds``), weighted, in the
games where ``strong`` weighs its worlds, by how well it explains the others' play (``search.likelihood``).
Every candidate is then played in that same world and the rest of the deal is valued exactly, as if every
card were known, by the game's solver in the compiled core (``engine.compiled.Solver``): alpha-beta over the
rules' own moves, so every seat is taken to play its best.  Where an exact solve would still be too dear
(four-card Kozel while the stock is being drawn), the deal goes on with the basic heuristics for every seat
until it is cheap, and is solved from there.  The candidate with the best weighted mean over the rounds is
played.  The announcements (C6, C7, K6) are candidates like any card and are decided by the same search.

It stops on its time budget or after a fixed number of worlds (reproducible tests and arenas).  A game whose
core has no solver yet has no expert: choosing raises ``NoSolverError`` rather than playing another level.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action
from engine.compiled import Solver, solver
from engine.core import GameState, View
from engine.players.search import WEIGHTED, candidates, heuristic_step, likelihood, record
from engine.players.worlds import Knowledge

SAFETY = 0.9  # the share of the budget the rounds may use: the rest absorbs a slow round or a busy machine


@dataclass(frozen=True)
class ExpertPlayer:
    name: ClassVar[str] = "expert"
    budget: float | None = 0.5
    max_worlds: int | None = None  # instead of the budget, this many worlds
    clock: Callable[[], float] = time.perf_counter

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        game = solver(view.variant)
        options = candidates(view, view.legal)
        if len(options) == 1:
            return options[0]
        return self._search(game, view, options, rng)

    def _search(self, game: Solver, view: View, options: list[Action | None], rng: random.Random) -> Action | None:
        seat = view.seat
        assert seat is not None
        started = self.clock()
        knowledge = Knowledge(view)
        weigh = view.variant in WEIGHTED and any(p.seat != seat for p in view.deal_log)
        sums = [0.0] * len(options)
        worlds = 0
        while True:
            world = knowledge.world(rng)
            world.seed = rng.getrandbits(32)  # a redeal (C6) deals cards nobody can know yet
            weight = likelihood(world, seat) if weigh else 1.0
            deal = len(world.deals)  # counted before a candidate that ends the deal is applied
            for i, option in enumerate(options):
                state = world.fork() if i < len(options) - 1 else world
                if option is not None:
                    state.apply(option)
                sums[i] += weight * worth(game, state, seat, deal, waiting=option is None, same_world=i > 0)
            worlds += 1
            if self.max_worlds is not None and worlds >= self.max_worlds:
                break
            if self.budget is not None:
                now = self.clock()
                if now + (now - started) / worlds > started + SAFETY * self.budget:
                    break  # the next world would not finish in time
        record(self.name, worlds * len(options))
        return options[max(range(len(options)), key=lambda i: sums[i])]


def worth(game: Solver, state: GameState, seat: int, deal: int, *, waiting: bool, same_world: bool) -> float:
    """Deal number ``deal`` valued for ``seat``: played on by the heuristics until the solver can afford it,
    then solved exactly; the deal may already be over."""
    while len(state.deals) == deal and state.outcome is None and not game.solvable(state):
        heuristic_step(state)
        waiting = False  # the next action happened: waiting no longer means anything
    if len(state.deals) != deal or state.outcome is not None:
        return state.deal_value(state.deals[deal], seat)
    return game.worth(state, seat, waiting, same_world)
