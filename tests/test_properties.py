"""Property tests: thousands of random legal deals of every game, with invariants checked as they go.

Random play chooses uniformly among the legal actions of all seats (so molodkas, redeals, exchanges and
doubles happen too).  Hypothesis explores seeds and choices; the seeded runs give the large counts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, Card, DealResult, GameState, Kind, Rank, Suit, find_variant, load_state
from engine.games.classic.rules import POINTS as CLASSIC_POINTS
from engine.games.classic.rules import ClassicState
from engine.games.czech.rules import CzechState
from engine.games.four_card.rules import FourCardState
from tests.helpers import check_invariants

# The scores below are recomputed from the rule book, never with the engine's own scoring functions.


def defeat_points(points: int, tricks: int) -> int:
    """F14: the losing team's defeat points."""
    if tricks == 0:
        return 6
    return 4 if points <= 30 else 2


def pairs_for(points: int) -> int:
    """C13: series points for a deal's card points."""
    return 4 if points >= 91 else 2 if points >= 61 else 0


def is_trump(card: Card) -> bool:
    """C3: every jack, every queen and every club."""
    return card.rank in (Rank.JACK, Rank.QUEEN) or card.suit is Suit.CLUBS


def penalty_points(cards: list[Card] | tuple[Card, ...]) -> int:
    """K5: every heart 1, the green svršek (Q♠) 13."""
    return sum(13 if c == Card(Suit.SPADES, Rank.QUEEN) else 1 if c.suit is Suit.HEARTS else 0 for c in cards)


GAME_LIMIT = 100  # K8


def table_points(totals: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """K9: the lowest total 3 (6 with a total of 0), over 100 0, everyone else 1."""
    best = min(totals)
    return tuple((6 if t == 0 else 3) if t == best else 0 if t > 100 else 1 for t in totals)

Check = Callable[[GameState, Action], None]


def run(
    name: str,
    options: dict[str, Any],
    *,
    seed: int,
    deals: int,
    before: Check | None = None,
    views_every: int = 1,
) -> list[GameState]:
    """Play ``deals`` random deals, series after series; check invariants after every action (views every
    ``views_every`` actions).  Returns the finished or last states."""
    variant = find_variant(name)
    rng = random.Random(seed)
    states: list[GameState] = []
    played = 0
    step = 0
    while played < deals:
        state = variant.new_game(rng.getrandbits(40), options)
        states.append(state)
        while state.outcome is None and played + len(state.deals) < deals:
            action = rng.choice(state.all_legal_actions())
            if before is not None:
                before(state, action)
            state.apply(action)
            step += 1
            check_invariants(state, views=step % views_every == 0)
        played += len(state.deals)
    return states


def check_round_trips(states: list[GameState]) -> None:
    for state in states:
        copy = load_state(json.loads(json.dumps(state.to_dict())))
        assert copy == state
        assert find_variant(state.VARIANT).replay(state.seed, state.history, state.options) == state


def all_deals(states: list[GameState]) -> list[DealResult]:
    return [d for s in states for d in s.deals]


# --- four-card Kozel --------------------------------------------------------------------------------------


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


# --- classic Kozel ----------------------------------------------------------------------------------------


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
        same = [c for c in hand if (is_trump(c) and is_trump(led)) or (not is_trump(c) and not is_trump(led)
                                                                          and c.suit is led.suit)]
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


# --- Czech Kozel ------------------------------------------------------------------------------------------


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


def test_classic_points_table_sums_to_120_in_both_decks() -> None:
    for deck in (36, 32):
        state = find_variant("classic").new_game(1, {"deck": deck})
        assert sum(CLASSIC_POINTS[c] for h in state.hands for c in h) == 120
