"""Property tests of classic Kozel: thousands of random legal deals with every invariant checked as they go,
the cards each seat may play and who leads worked out from what was played (C8–C10), and the series' scores
recomputed from the rule book (C13, C14)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, Card, GameState, Kind, Rank, Suit, find_variant
from engine.games.classic.rules import POINTS as CLASSIC_POINTS
from engine.games.classic.rules import ClassicState
from tests.helpers import check_invariants
from tests.properties import all_deals, check_round_trips, run


def pairs_for(points: int) -> int:
    """C13: series points for a deal's card points."""
    return 4 if points >= 91 else 2 if points >= 61 else 0


def is_trump(card: Card) -> bool:
    """C3: every jack, every queen and every club."""
    return card.rank in (Rank.JACK, Rank.QUEEN) or card.suit is Suit.CLUBS


_FIRST_LEADERS: dict[int, dict[int, int]] = {}  # id of a state -> deal number -> who led first


def classic_lead_ban(state: GameState, action: Action) -> None:
    """C8/C9/C10 before each action, worked out from what was played, not from the engine's ban list: the
    cards the seat to move may play, and who leads first in each deal."""
    assert isinstance(state, ClassicState)
    leaders = _FIRST_LEADERS.setdefault(id(state), {})
    seat = state.to_move
    if seat is None or getattr(state, "giving_back", -1) >= 0:
        return
    hand = state.hands[seat]
    first_lead = not state.trick and not state.tricks_done
    if state.trick:  # C10: follow the led plain suit, or trumps; otherwise any card
        led = state.trick[0].cards[0]
        same = [
            c
            for c in hand
            if (is_trump(c) and is_trump(led)) or (not is_trump(c) and not is_trump(led) and c.suit is led.suit)
        ]
        allowed = set(same or hand)
    elif state.deal_no == 0 and first_lead:  # C8: the A♦ is led first
        allowed = {Card(Suit.DIAMONDS, Rank.ACE)}
    else:  # C9: in the first deal nobody, later the team of the previous first leader may not lead a trump
        banned = state.deal_no == 0 or seat % 2 == leaders[state.deal_no - 1] % 2
        plain = [c for c in hand if not is_trump(c)]
        allowed = set(plain) if banned and plain else set(hand)
    plays = {a.cards[0] for a in state.legal_actions(seat) if a.kind is Kind.PLAY}
    assert plays == allowed, (state.deal_no, seat, sorted(map(str, plays)), sorted(map(str, allowed)))
    if action.kind is Kind.PLAY and first_lead:
        if state.deal_no == 0:
            assert Card(Suit.DIAMONDS, Rank.ACE) in hand
        else:  # C8: the first lead passes to the left
            assert action.seat == (leaders[state.deal_no - 1] + 1) % 4
        leaders[state.deal_no] = action.seat


def check_classic_series(state: GameState) -> None:
    """C13/C14 recomputed from each deal's card points, tricks and events."""
    assert isinstance(state, ClassicState)
    totals = [0, 0]
    eggs_pending = 0
    for result in state.deals:
        if "queen_caught" in result.events:
            assert result.points == (0, 0)
            base = [4 if s else 0 for s in result.score]
            assert sum(1 for s in result.score if s) == 1
        else:
            assert sum(result.points) == 120
            if 0 in result.tricks:
                taker = 0 if result.tricks[1] == 0 else 1
                base = [0, 0]
                if state.options.all_tricks == "score":
                    base[taker] = 4
            else:
                base = [pairs_for(result.points[0]), pairs_for(result.points[1])]
        if result.eggs:
            assert result.points == (60, 60) and result.score == (0, 0)
            eggs_pending += 1
            expected = [0, 0]
        else:
            expected = list(base)
            if any(base) and eggs_pending:
                expected[0 if base[0] else 1] += 2 * eggs_pending
                eggs_pending = 0
        assert list(result.score) == expected, (result, eggs_pending)
        totals = [t + s for t, s in zip(totals, expected, strict=True)]
        if "reset" in result.events:
            totals[0 if expected[0] == 0 else 1] = 0
        assert list(result.totals) == totals
    if state.outcome is not None:
        if state.outcome.reason == "no_trick":
            assert state.options.all_tricks == "lose_series"
        else:
            winner = 0 if totals[0] >= 12 else 1
            assert totals[winner] >= 12 and state.outcome.winners == (winner, winner + 2)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"deck": 32},
        {"redeal": False},
        {"all_tricks": "lose_series"},
        {"deck": 32, "redeal": False, "all_tricks": "lose_series"},
    ],
)
def test_C_random_play_keeps_every_invariant(options: dict[str, Any]) -> None:
    states = run("classic", options, seed=1129, deals=700, before=classic_lead_ban, views_every=3)
    for state in states:
        check_classic_series(state)
    check_round_trips(states[:20])
    kinds = {a.kind for s in states for a in s.history}
    assert Kind.EXCHANGE in kinds and Kind.GIVE_BACK in kinds
    assert (Kind.REDEAL in kinds) == options.get("redeal", True)
    if options.get("deck", 36) == 36:
        assert any("queen_caught" in r.events for r in all_deals(states))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**48),
    chooser=st.randoms(use_true_random=False),
    deck=st.sampled_from([36, 32]),
    redeal=st.booleans(),
    all_tricks=st.sampled_from(["score", "lose_series"]),
)
def test_C_hypothesis_series(seed: int, chooser: random.Random, deck: int, redeal: bool, all_tricks: str) -> None:
    state = find_variant("classic").new_game(seed, {"deck": deck, "redeal": redeal, "all_tricks": all_tricks})
    while state.outcome is None:
        action = chooser.choice(state.all_legal_actions())
        classic_lead_ban(state, action)
        state.apply(action)
        check_invariants(state)
    check_classic_series(state)
    check_round_trips([state])


def test_classic_points_table_sums_to_120_in_both_decks() -> None:
    for deck in (36, 32):
        state = find_variant("classic").new_game(1, {"deck": deck})
        assert sum(CLASSIC_POINTS[c] for h in state.hands for c in h) == 120
