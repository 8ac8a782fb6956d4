"""Czech Kozel against its independent reference model (``tests/reference.py`` here), move by move, driven by
``tests/reference/drive.py``: random play, then stacked and steered deals for the rare paths.  The thorough
run is behind the ``reference`` marker."""

from __future__ import annotations

import random

import pytest

from engine import GameState
from engine.games.czech.tests import driving
from engine.games.czech.tests import reference as ref
from tests.reference.drive import (
    Driving,
    Steer,
    Tally,
    compare_game,
    compare_many,
    favour,
    layout,
    runs,
)

_driving: Driving = driving  # the type checker holds this game's driving to what the driver asks

CZECH_PLAYERS = [3, 4, 5, 6]
# Deals compared per number of players: the plain run, and the thorough run.
CZECH_DEALS = (75, [1500])


@pytest.mark.parametrize(("deals", "chunk"), runs(CZECH_DEALS))
@pytest.mark.parametrize("players", CZECH_PLAYERS)
def test_K1_K9_czech_engine_matches_reference(players: int, deals: int, chunk: int) -> None:
    tally = compare_many("czech", {"players": players}, 200 + players + chunk, deals)
    assert tally.deals >= deals
    assert tally.seen["double"], tally.seen


@pytest.mark.parametrize("players", CZECH_PLAYERS)
def test_K6_K7_shoot_the_moon_after_a_double_matches_reference(players: int) -> None:
    symbols = driving.SYMBOLS
    hearts, leaves = symbols["červené"], symbols["zelené"]
    deck = [r + s for s in symbols.values() for r in ref.RANKS_LOW_TO_HIGH]
    size = ref.HAND_SIZE[players]
    # seat 1 leads (the dealer is seat 0, K3) and holds the top cards of two suits, the kozel among them
    top = [r + leaves for r in ("A", "K", "Q")] + [r + hearts for r in ("A", "K", "Q")]
    top = (top + [r + s for r in ("J", "10") for s in (leaves, hearts)])[:size]
    rng = random.Random(f"moon/{players}")
    rest = [c for c in deck if c not in top]
    rng.shuffle(rest)
    hands = [" ".join(rest[i * size : (i + 1) * size]) for i in range(players - 1)]
    hands.insert(1, " ".join(top))
    stacked = layout(hands, deck, rng)
    tally = compare_game(
        "czech", {"players": players}, players, stacked=[stacked], dealer=0, policy=favour({"double"}, 1.0)
    )
    assert tally.seen["double"] and tally.seen["all_tricks"], tally.seen


def test_K8_K9_everyone_over_100_matches_reference() -> None:
    """K9 Decided: when every player passes 100 in the same deal, the lowest total still wins."""

    def goal(state: GameState) -> float:
        totals = state.totals
        if min(totals) > 100:
            return 1e6
        if max(totals) > 100:
            return -1e6 + min(totals)
        return float(min(totals))

    tally = Tally()
    seed = 0
    while not tally.seen["everyone_over_100"] and seed < 8:
        tally.add(compare_game("czech", {"players": 3}, seed, policy=Steer(goal, tries=300, deals=99, enough=1e6)))
        seed += 1
    assert tally.seen["everyone_over_100"], tally.seen


@pytest.mark.parametrize("players", [6, pytest.param(4, marks=pytest.mark.reference)])
def test_K9_a_winner_on_zero_gets_3_more_matches_reference(players: int) -> None:
    def goal(state: GameState) -> float:
        if state.totals[0] > 0:
            return -1e6  # seat 0 must stay at zero
        return float(max(state.totals)) + (1e6 if state.outcome is not None else 0.0)

    tally = compare_game("czech", {"players": players}, 7, policy=Steer(goal, tries=300, deals=99, enough=1e6))
    assert tally.seen["winner_on_zero"], tally.seen
