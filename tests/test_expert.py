"""The ``expert`` computer player (issue 32): sampled worlds solved exactly by the compiled core."""

from __future__ import annotations

import dataclasses
import random
from itertools import count

import pytest

from engine import GameState, Kind, find_variant
from engine.compiled import CompiledGame, NoSolverError
from engine.players import ExpertPlayer, find_player
from tests.helpers import GAME_CONFIGS
from tests.test_players import first_position_with

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


def rigged(kind: Kind, value: float) -> object:
    """A stand-in for the solver's valuation: a deal in which ``kind`` was announced is worth ``value`` to
    the announcer's side, any other nothing."""

    def worth(game: CompiledGame, state: GameState, seat: int, deal: int, *, waiting: bool, same_world: bool) -> float:
        announcer = next((a.seat for a in state.history if a.kind is kind), None)
        if announcer is None:
            return 0.0
        return value if seat % 2 == announcer % 2 else -value

    return worth


@pytest.mark.parametrize("kind", [Kind.REDEAL, Kind.EXCHANGE])
def test_c6_c7_the_expert_decides_the_announcements_by_its_search(kind: Kind, monkeypatch: pytest.MonkeyPatch) -> None:
    """C6/C7: the expert redeals or goes out of trumps when the valued worlds say it pays, and not when they
    say it costs."""
    state, seat = first_position_with(kind)
    view = state.view(seat)
    announce = next(a for a in view.legal if a.kind is kind)
    player = ExpertPlayer(budget=None, worlds=3)
    monkeypatch.setattr("engine.players.expert.worth", rigged(kind, 100.0))
    assert player.choose(view, random.Random(1)) == announce
    monkeypatch.setattr("engine.players.expert.worth", rigged(kind, -100.0))
    assert player.choose(view, random.Random(1)) != announce


@pytest.mark.parametrize("kind", [Kind.REDEAL, Kind.EXCHANGE])
def test_c6_c7_the_experts_real_valuation_of_an_announcement_is_legal(kind: Kind) -> None:
    """With the real solver (a redeal deals a fresh deal; going out of trumps waits for the card back) the
    expert's answer is legal."""
    state, seat = first_position_with(kind)
    view = state.view(seat)
    choice = ExpertPlayer(budget=None, worlds=3).choose(view, random.Random(2))
    assert choice is None or choice in view.legal
