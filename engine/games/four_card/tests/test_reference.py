"""Four-card Kozel against its independent reference model (``tests/reference.py`` here), move by move, driven by
``tests/reference/drive.py``: random play, then stacked and steered deals for the rare paths.  The thorough
run is behind the ``reference`` marker."""

from __future__ import annotations

import random

import pytest

from engine.games.four_card.tests import driving
from engine.games.four_card.tests import reference as ref
from tests.reference.drive import (
    Driving,
    Policy,
    Steer,
    Tally,
    compare_game,
    compare_many,
    eggs,
    favour,
    layout,
    runs,
)

_driving: Driving = driving  # the type checker holds this game's driving to what the driver asks

# Deals compared: the plain run, and the thorough run in chunks of deals that spread over the test workers.
FOUR_CARD_DEALS = (300, [1500] * 4)
MOLODKA_SEEDS = (12, 300)  # stacked molodka contests per table


def four_card_policy() -> Policy:
    return favour({"molodka"}, 0.25)


@pytest.mark.parametrize(("deals", "chunk"), runs(FOUR_CARD_DEALS))
def test_F1_F16_four_card_engine_matches_reference(deals: int, chunk: int) -> None:
    tally = compare_many("four_card", {}, 1 + chunk, deals, policy_for=four_card_policy)
    assert tally.deals >= deals
    assert tally.probes > 0
    assert tally.seen["molodka_before_lead"] and tally.seen["molodka_after_lead"], tally.seen


MOLODKA_TABLES = [
    # (dealer, hands by seat): the leader is left of the dealer (F16)
    (3, ["6♠ 7♣ 8♦ 9♥", "J♠ Q♠ K♠ 10♠", "J♣ Q♣ K♣ 10♣", "J♦ Q♦ K♦ 10♦"]),  # three molodkas against a lead
    (3, ["6♠ 7♣ 8♦ 9♥", "J♠ Q♠ K♠ 10♠", "6♣ 7♦ 8♥ 9♠", "J♦ Q♦ K♦ 10♦"]),  # two, far apart
    (3, ["J♠ Q♠ K♠ 10♠", "6♣ 7♦ 8♥ 9♠", "J♦ Q♦ K♦ 10♦", "6♦ 7♥ 8♣ 7♠"]),  # the leader's own and another
    (0, ["6♠ 7♣ 8♦ 9♥", "6♣ 7♦ 8♥ 9♠", "J♦ Q♦ K♦ 10♦", "J♠ Q♠ K♠ 10♠"]),  # the nearer one speaks last
]


@pytest.mark.parametrize(
    "seeds", [MOLODKA_SEEDS[0], pytest.param(MOLODKA_SEEDS[1], marks=pytest.mark.reference)], ids=str
)
@pytest.mark.parametrize("table", range(len(MOLODKA_TABLES)))
def test_F10_molodka_contests_match_reference(table: int, seeds: int) -> None:
    dealer, hands = MOLODKA_TABLES[table]
    tally = Tally()
    for seed in range(seeds):
        rng = random.Random(f"molodka/{table}/{seed}")
        stacked = layout(hands, ref.DECK, rng, cut=rng.randrange(4, 16))
        tally.add(
            compare_game(
                "four_card", {}, seed, stacked=[stacked], dealer=dealer, policy=favour({"molodka"}, 0.5), max_deals=3
            )
        )
    assert tally.seen["molodka_replaced"], tally.seen
    assert tally.seen["molodka_after_answers"] + tally.seen["molodka_after_lead"] + tally.seen["molodka_lead"], (
        tally.seen
    )


def test_F14_F15_eggs_in_a_row_match_reference() -> None:
    tally = compare_game("four_card", {}, 5, policy=Steer(eggs, tries=1000, deals=2))
    assert tally.seen["eggs"] >= 2, tally.seen
