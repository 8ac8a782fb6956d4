"""The *expert* computer player: sampled worlds, each solved exactly by the compiled core.

It is ``strong``'s flat search of the team games (``engine.players.flat``: rounds of one sampled world in
which every candidate still in the race is valued, worlds weighted by how well they explain the others' play,
racing, the announcements C6, C7 and K6 searched like any card) with another valuation.  A candidate is
valued by the game's exact solver in the compiled core (``engine.compiled.CompiledGame``): alpha-beta over the
rules' own moves, every card of the world known, every seat taken to play its best.  Where an exact solve
would still be too dear, the deal goes on with the basic heuristics for every seat until it is cheap, and is
solved from there.

A game whose compiled core has no solver has no expert: choosing raises ``NoSolverError`` rather than
playing another level.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action
from engine.compiled import CompiledGame, solver
from engine.players.flat import FlatSearch, Leaf
from engine.players.search import heuristic_step
from engine.state import GameState, View


@dataclass(frozen=True)
class ExpertPlayer(FlatSearch):
    name: ClassVar[str] = "expert"
    label: str = "expert"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if view.legal:
            solver(view.variant)  # no solver, no expert: NoSolverError
        return super().choose(view, rng)

    def _leaf(self, view: View) -> Leaf:
        game = solver(view.variant)

        def leaf(state: GameState, seat: int, deal: int, waiting: bool, same_world: bool) -> float:
            return worth(game, state, seat, deal, waiting=waiting, same_world=same_world)

        return leaf


def worth(
    game: CompiledGame,
    state: GameState,
    seat: int,
    deal: int,
    *,
    waiting: bool,
    same_world: bool,
    thorough: bool = False,
) -> float:
    """Deal number ``deal`` valued for ``seat``: played on by the heuristics until the game's valuation can
    afford it, then valued by it (``thorough``: the ceiling's, ``CompiledGame.thorough_worth``); the deal may
    already be over."""
    while len(state.deals) == deal and state.outcome is None and not game.valued(state, thorough):
        heuristic_step(state)
        waiting = False  # the next action happened: waiting no longer means anything
    if len(state.deals) != deal or state.outcome is not None:
        return state.deal_value(state.deals[deal], seat)
    if thorough:
        return game.thorough_worth(state, seat, waiting, same_world)
    return game.worth(state, seat, waiting, same_world)
