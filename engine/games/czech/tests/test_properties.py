"""Property tests of Czech Kozel: thousands of random legal deals for 3 to 6 players with every invariant
checked as they go, and the penalty points and table points recomputed from the rule book (K5–K9)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, Card, GameState, Rank, Suit, find_variant
from engine.games.czech.rules import CzechState
from tests.helpers import check_invariants
from tests.properties import all_deals, check_round_trips, run


def penalty_points(cards: list[Card] | tuple[Card, ...]) -> int:
    """K5: every heart 1, the green svršek (Q♠) 13."""
    return sum(13 if c == Card(Suit.SPADES, Rank.QUEEN) else 1 if c.suit is Suit.HEARTS else 0 for c in cards)


GAME_LIMIT = 100  # K8


def table_points(totals: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """K9: the lowest total 3 (6 with a total of 0), over 100 0, everyone else 1."""
    best = min(totals)
    return tuple((6 if t == 0 else 3) if t == best else 0 if t > 100 else 1 for t in totals)


def check_czech_game(state: GameState) -> None:
    """K5–K9 recomputed from each deal's penalty points and tricks."""
    assert isinstance(state, CzechState)
    n = state.num_players
    totals = [0] * n
    for result in state.deals:
        factor = 2 if "double" in result.events else 1
        tricks_total = sum(result.tricks)
        if max(result.tricks) == tricks_total:
            assert "all_tricks" in result.events
            assert sorted(result.score) == [0] + [21 * factor] * (n - 1)
        else:
            assert sum(result.points) <= 21
            assert list(result.score) == [p * factor for p in result.points]
            if n == 4:
                assert sum(result.points) == 21  # no talon
        totals = [t + s for t, s in zip(totals, result.score, strict=True)]
        assert list(result.totals) == totals
    if state.outcome is not None:
        assert max(totals) > GAME_LIMIT
        assert all(max(r.totals) <= GAME_LIMIT for r in state.deals[:-1])
        assert state.outcome.winners == tuple(s for s in range(n) if totals[s] == min(totals))
        assert state.outcome.table_points == table_points(totals)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_K_random_play_keeps_every_invariant(players: int) -> None:
    talon_penalty: dict[tuple[int, int], int] = {}

    def remember_talon(state: GameState, action: Action) -> None:
        assert isinstance(state, CzechState)
        talon_penalty[id(state), state.deal_no] = penalty_points(state.talon)

    states = run("czech", {"players": players}, seed=players, deals=1000, before=remember_talon, views_every=3)
    for state in states:
        check_czech_game(state)
        for result in state.deals:  # K5: penalties are 21 less what lies in the talon
            if "all_tricks" not in result.events:
                assert sum(result.points) == 21 - talon_penalty[id(state), result.deal_no]
    check_round_trips(states[:20])
    finished = [s for s in states if s.outcome is not None]
    assert len(finished) >= 10
    assert any("double" in r.events for r in all_deals(states))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), chooser=st.randoms(use_true_random=False), players=st.integers(3, 6))
def test_K_hypothesis_game(seed: int, chooser: random.Random, players: int) -> None:
    state = find_variant("czech").new_game(seed, {"players": players})
    while state.outcome is None:
        deals = len(state.deals)
        talon = list(state.talon) if isinstance(state, CzechState) else []
        state.apply(chooser.choice(state.all_legal_actions()))
        check_invariants(state)
        if len(state.deals) > deals and "all_tricks" not in state.deals[-1].events:
            assert sum(state.deals[-1].points) == 21 - penalty_points(talon)
    check_czech_game(state)
    check_round_trips([state])
