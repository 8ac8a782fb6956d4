"""Classic Kozel's announcements before the first lead (C6, C7) in the expert's search."""

from __future__ import annotations

import random

import pytest

from engine import GameState, Kind, find_variant
from engine.compiled import CompiledGame, solver
from engine.games.classic import compiled as cc
from engine.games.classic.tests.test_players import first_position_with
from engine.players import ExpertPlayer
from engine.players.expert import worth
from engine.players.search import heuristic_step


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


def test_the_ceiling_solves_from_deeper_in_the_deal_than_a_decision_can_afford() -> None:
    """The ceiling's valuation (``thorough``) is the exact solve of a position two tricks into the deal, where
    the expert's own still has the heuristics play on until a solve fits in a decision's time."""
    game = solver("classic")
    differs = 0
    for seed in range(12):
        state = find_variant("classic").new_game(seed)
        while not cc.solvable(state, 28):
            heuristic_step(state)
        seat = state.to_move
        assert seat is not None and cc.valued(state) and cc.valued(state, True)
        value = cc.solve(cc.encode_state(state))[0]  # the solve of this very position
        exact = value if seat % 2 == 0 else -value
        deal = len(state.deals)
        assert worth(game, state.fork(), seat, deal, waiting=False, same_world=False, thorough=True) == exact
        differs += worth(game, state.fork(), seat, deal, waiting=False, same_world=False) != exact
    assert differs  # the heuristics' continuation is a cheaper stand-in, and it shows
