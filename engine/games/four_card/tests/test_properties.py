"""Property tests of four-card Kozel: thousands of random legal deals with every invariant checked as they
go, and the series' scores recomputed from the rule book (F14, F15)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameState, Kind, find_variant
from engine.games.four_card.rules import FourCardState
from tests.helpers import check_invariants
from tests.properties import all_deals, check_round_trips, run


def defeat_points(points: int, tricks: int) -> int:
    """F14: the losing team's defeat points."""
    if tricks == 0:
        return 6
    return 4 if points <= 30 else 2


def check_four_card_series(state: GameState) -> None:
    """F14/F15 recomputed independently from each deal's card points and tricks."""
    assert isinstance(state, FourCardState)
    totals = [0, 0]
    for result in state.deals:
        assert sum(result.points) == 120
        a, b = result.points
        expected = [0, 0]
        if a != b:
            loser = 0 if a < b else 1
            expected[loser] = defeat_points(result.points[loser], result.tricks[loser])
        assert list(result.score) == expected
        assert result.eggs == (a == b == 60)
        totals = [t + s for t, s in zip(totals, expected, strict=True)]
        assert list(result.totals) == totals
    if state.outcome is not None:
        assert (max(totals) >= 12 and min(totals) < 12) or totals[0] >= 12 or totals[1] >= 12
        goats = 0 if totals[0] >= 12 else 1
        assert state.outcome.losers == (goats, goats + 2)
        assert state.outcome.with_eggs == any(r.eggs for r in state.deals)
        assert all(max(r.totals) < 12 for r in state.deals[:-1])


def test_F_random_play_2000_deals_keeps_every_invariant() -> None:
    """F1–F16 as properties over 2,000 complete random deals; views checked after every 3rd action."""
    states = run("four_card", {}, seed=20261129, deals=2000, views_every=3)
    results = all_deals(states)
    assert len(results) == 2000
    for state in states:
        check_four_card_series(state)
    check_round_trips(states[:40])
    assert any(e for r in results for e in r.events)  # eggs happened
    molodkas = sum(a.kind is Kind.MOLODKA for s in states for a in s.history)
    assert molodkas > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), chooser=st.randoms(use_true_random=False))
def test_F_hypothesis_series(seed: int, chooser: random.Random) -> None:
    state = find_variant("four_card").new_game(seed)
    while state.outcome is None:
        state.apply(chooser.choice(state.all_legal_actions()))
        check_invariants(state)
    check_four_card_series(state)
    check_round_trips([state])
