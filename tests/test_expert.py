"""The ``expert`` computer player (issue 32): sampled worlds solved exactly by the compiled core."""

from __future__ import annotations

import dataclasses
import random
from itertools import count

import pytest

from engine import find_variant
from engine.compiled import NoSolverError
from engine.players import ExpertPlayer, find_player
from tests.helpers import GAME_CONFIGS

SOLVED_GAMES = [(v, o) for v, o in GAME_CONFIGS if find_variant(v).compiled]


@pytest.mark.parametrize(("variant", "options"), SOLVED_GAMES)
def test_expert_plays_two_deals_legally(variant: str, options: dict[str, object]) -> None:
    """Two deals with the expert in every seat: each choice is one of the seat's legal actions, and it waits
    (None) only when it is not its turn."""
    state = find_variant(variant).new_game(5, options)
    player = find_player("expert", budget=None, max_worlds=2)
    rng = random.Random(2)
    while state.outcome is None and len(state.deals) < 2:
        for seat in [s for s in range(state.num_players) if s != state.to_move] + [state.to_move]:
            assert seat is not None
            view = state.view(seat)
            if not view.legal:
                continue
            choice = player.choose(view, rng)
            if choice is None:
                assert seat != state.to_move
                continue
            assert choice in view.legal
            state.apply(choice)
            break
        else:
            pytest.fail("nobody acted")


def test_expert_has_no_play_in_a_game_without_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game registered without a compiled core has no expert: it says so rather than play as another level."""
    czech = find_variant("czech")
    monkeypatch.setattr("engine.compiled.find_variant", lambda name: dataclasses.replace(czech, compiled=None))
    state = czech.new_game(4, {"players": 4})
    seat = state.to_move
    assert seat is not None
    with pytest.raises(NoSolverError, match="czech"):
        ExpertPlayer(budget=None, worlds=2).choose(state.view(seat), random.Random(1))


def test_expert_stops_on_its_budget() -> None:
    """A round (one world, every candidate) costs one tick; of a budget of 10 ticks the rounds may use 9:
    tick 0 at the start, tick k after round k, so eight rounds run (a ninth would end at tick 9)."""
    ticks = count()
    player = ExpertPlayer(budget=10.0, clock=lambda: float(next(ticks)))
    state = find_variant("four_card").new_game(4)
    seat = state.to_move
    assert seat is not None and len(state.legal_actions(seat)) > 1
    player.choose(state.view(seat), random.Random(1))
    assert next(ticks) == 10
