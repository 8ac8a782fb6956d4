"""Classic Kozel against its independent reference model (``tests/reference.py`` here), move by move, driven by
``tests/reference/drive.py``: random play, then stacked and steered deals for the rare paths.  The thorough
run is behind the ``reference`` marker."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Action, GameState
from engine.games.classic.tests import driving
from engine.games.classic.tests import reference as ref
from tests.reference.drive import (
    Driving,
    Policy,
    Steer,
    Tally,
    compare_game,
    compare_many,
    eggs,
    favour,
    random_layout,
    runs,
)

_driving: Driving = driving  # the type checker holds this game's driving to what the driver asks

CLASSIC_OPTIONS: list[dict[str, Any]] = [
    {"deck": deck, "redeal": redeal, "all_tricks": all_tricks}
    for deck in (36, 32)
    for redeal in (True, False)
    for all_tricks in ("score", "lose_series")
]
# Deals compared per option set: the plain run, and the thorough run.
CLASSIC_DEALS = (60, [1500])


def classic_policy() -> Policy:
    return favour({"exchange", "redeal"}, 0.1)


@pytest.mark.parametrize(("deals", "chunk"), runs(CLASSIC_DEALS))
@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=lambda o: f"{o['deck']}-{o['redeal']}-{o['all_tricks']}")
def test_C1_C14_classic_engine_matches_reference(options: dict[str, Any], deals: int, chunk: int) -> None:
    seed = CLASSIC_OPTIONS.index(options) + 100 + chunk
    tally = compare_many("classic", options, seed, deals, policy_for=classic_policy)
    assert tally.deals >= deals
    if deals >= 1000:
        assert tally.seen["exchange"] and tally.seen["redeal" if options["redeal"] else "eggs"], tally.seen


# C7: in the second deal seats 0 and 1 hold one trump each and little else (C6: 13 points or fewer).
EXCHANGE_HANDS = ["7♣ 6♠ 7♠ 8♠ 9♠ 6♥ 7♥ 8♥ 9♥", "8♣ 6♦ 7♦ 8♦ 9♦ K♠ K♥ K♦ 10♠"]


@pytest.mark.parametrize("redeal", [True, False])
def test_C6_C7_going_out_of_trumps_and_redeal_match_reference(redeal: bool) -> None:
    no_redeal = favour(set(), 0.0, never=frozenset({"redeal"}))  # keeps the stacked second deal for deal 1
    exchange = favour({"exchange", "redeal"}, 0.9)

    def policy(state: GameState, rng: random.Random) -> Action:
        return no_redeal(state, rng) if not state.deals else exchange(state, rng)

    tally = Tally()
    for seed in range(6):
        rng = random.Random(f"exchange/{seed}")
        deck = ref.deck(36)
        first = random_layout(deck, 9, 4, rng)
        rest = [c for c in deck if c not in " ".join(EXCHANGE_HANDS).split()]
        rng.shuffle(rest)
        second = " | ".join([*EXCHANGE_HANDS, " ".join(rest[:9]), " ".join(rest[9:])])
        tally.add(
            compare_game("classic", {"redeal": redeal}, seed, stacked=[first, second], policy=policy, max_deals=3)
        )
    assert tally.seen["exchange"] >= 6, tally.seen
    if redeal:
        assert tally.seen["redeal_after_exchange"], tally.seen


def queen_caught_later(state: GameState) -> float:
    result = state.deals[-1]
    return 1.0 if "queen_caught" in result.events and sum(result.tricks) > 0 else 0.0


def test_C12_C13_queen_caught_in_a_later_trick_after_eggs_matches_reference() -> None:
    def goal(state: GameState) -> float:
        return eggs(state) if len(state.deals) == 1 else queen_caught_later(state)

    tally = Tally()
    for seed in range(3):
        tally.add(compare_game("classic", {}, seed, policy=Steer(goal, tries=1000, deals=2)))
    assert tally.seen["queen_caught_later"] and tally.seen["egg_bonus_2"], tally.seen


def test_C13_eggs_in_a_row_add_up_match_reference() -> None:
    def goal(state: GameState) -> float:
        if len(state.deals) <= 2:
            return eggs(state)
        return 1.0 if any(state.deals[-1].score) else 0.0

    tally = Tally()
    for seed, deck in ((1, 36), (2, 32)):
        tally.add(compare_game("classic", {"deck": deck}, seed, policy=Steer(goal, tries=1000, deals=3)))
    assert tally.seen["egg_bonus_4"] == 2, tally.seen


# C13: seats 0 and 2 hold every trump and the three aces of plain suits, so they take every trick however
# anybody plays, whoever leads (a led plain suit is answered by its ace, which its holder must play).
ALL_TRICKS_HANDS = [
    "A♦ A♥ 7♣ 8♣ 9♣ K♣ 10♣ A♣ J♦",
    "6♠ 7♠ 8♠ 9♠ K♠ 10♠ 6♥ 7♥ 8♥",
    "A♠ J♥ J♠ J♣ Q♦ Q♥ Q♠ Q♣ 6♣",
    "9♥ K♥ 10♥ 6♦ 7♦ 8♦ 9♦ K♦ 10♦",
]


@pytest.mark.parametrize("all_tricks", ["score", "lose_series"])
@pytest.mark.parametrize("before", ["the other team scored", "eggs"])
def test_C13_all_tricks_and_its_option_match_reference(all_tricks: str, before: str) -> None:
    def goal(state: GameState) -> float:
        if before == "eggs":
            return eggs(state)
        return 1.0 if state.deals[-1].score[1] > 0 else 0.0

    no_redeal = favour(set(), 0.0, never=frozenset({"redeal"}))  # a redeal would use up the stacked deal
    tally = Tally()
    for seed in range(3):
        rng = random.Random(f"all-tricks/{seed}")
        stacked = [random_layout(ref.deck(36), 9, 4, rng), " | ".join(ALL_TRICKS_HANDS)]
        steer = Steer(goal, tries=1000, deals=1, inner=no_redeal, then=no_redeal)
        tally.add(compare_game("classic", {"all_tricks": all_tricks}, seed, stacked=stacked, policy=steer, max_deals=3))
    assert tally.seen["all_tricks"] >= 3, tally.seen
    if before == "eggs" and all_tricks == "score":
        assert tally.seen["egg_bonus_2"] >= 3, tally.seen
    if before != "eggs" and all_tricks == "score":
        assert tally.seen["dropped_to_zero"] >= 3, tally.seen
