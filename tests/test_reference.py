"""The engine against an independent reference model of each game (``tests/reference``), move by move.

At every step of seeded random play both must agree on the legal actions of every seat (out-of-turn ones
included: molodka, redeal, going out of trumps and the card owed back, double), whose turn it is, the
hands (so the draw order after a trick), the dealer and the leader; after every trick on its winner and
cards; after every deal on its whole record (card points, score, totals, tricks, eggs); at the end on the
winners, losers, goats with eggs and table points.  Now and then an action the reference holds illegal is
tried, and the engine must refuse it without changing anything.

The plain run compares a little over a thousand deals in a few seconds; the thorough run is behind the
``reference`` marker: ``.venv/bin/python -m pytest -q -n 2 -m reference``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine import Action, GameState
from tests.reference import classic as ref_classic
from tests.reference import czech as ref_czech
from tests.reference import four_card as ref_four_card
from tests.reference.drive import (
    CZECH_SYMBOLS,
    Policy,
    Steer,
    Tally,
    compare_game,
    compare_many,
    favour,
)

CLASSIC_OPTIONS: list[dict[str, Any]] = [
    {"deck": deck, "redeal": redeal, "all_tricks": all_tricks}
    for deck in (36, 32)
    for redeal in (True, False)
    for all_tricks in ("score", "lose_series")
]
CZECH_PLAYERS = [3, 4, 5, 6]

# Deals compared per game and option set: the plain run, and the thorough run in chunks of deals that
# spread over the test workers.
FOUR_CARD_DEALS = (300, [1500] * 4)
CLASSIC_DEALS = (60, [1500])
CZECH_DEALS = (75, [1500])
MOLODKA_SEEDS = (12, 300)  # stacked molodka contests per table


def runs(deals: tuple[int, list[int]]) -> list[Any]:
    """(deals, seed offset) for the plain run, then each chunk of the thorough run."""
    quick, chunks = deals
    thorough = [
        pytest.param(n, 1000 * (i + 1), id=f"{n}-chunk{i}", marks=pytest.mark.reference) for i, n in enumerate(chunks)
    ]
    return [pytest.param(quick, 0, id=f"{quick}"), *thorough]


def four_card_policy() -> Policy:
    return favour({"molodka"}, 0.25)


def classic_policy() -> Policy:
    return favour({"exchange", "redeal"}, 0.1)


def layout(hands: list[str], deck: list[str], rng: random.Random, cut: int | None = None) -> str:
    """A stacked deal: the given hands, the other cards shuffled after ``/`` (and ``@ cut`` if given)."""
    used = {c for h in hands for c in h.split()}
    rest = [c for c in deck if c not in used]
    rng.shuffle(rest)
    text = " | ".join(hands) + " / " + " ".join(rest)
    return text if cut is None else f"{text} @ {cut}"


def random_layout(deck: list[str], per_hand: int, players: int, rng: random.Random) -> str:
    cards = list(deck)
    rng.shuffle(cards)
    hands = [" ".join(cards[i * per_hand : (i + 1) * per_hand]) for i in range(players)]
    return layout(hands, deck, rng)


# --- random play -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("deals", "chunk"), runs(FOUR_CARD_DEALS))
def test_F1_F16_four_card_engine_matches_reference(deals: int, chunk: int) -> None:
    tally = compare_many("four_card", {}, 1 + chunk, deals, policy_for=four_card_policy)
    assert tally.deals >= deals
    assert tally.probes > 0
    assert tally.seen["molodka_before_lead"] and tally.seen["molodka_after_lead"], tally.seen


@pytest.mark.parametrize(("deals", "chunk"), runs(CLASSIC_DEALS))
@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=lambda o: f"{o['deck']}-{o['redeal']}-{o['all_tricks']}")
def test_C1_C14_classic_engine_matches_reference(options: dict[str, Any], deals: int, chunk: int) -> None:
    seed = CLASSIC_OPTIONS.index(options) + 100 + chunk
    tally = compare_many("classic", options, seed, deals, policy_for=classic_policy)
    assert tally.deals >= deals
    if deals >= 1000:
        assert tally.seen["exchange"] and tally.seen["redeal" if options["redeal"] else "eggs"], tally.seen


@pytest.mark.parametrize(("deals", "chunk"), runs(CZECH_DEALS))
@pytest.mark.parametrize("players", CZECH_PLAYERS)
def test_K1_K9_czech_engine_matches_reference(players: int, deals: int, chunk: int) -> None:
    tally = compare_many("czech", {"players": players}, 200 + players + chunk, deals)
    assert tally.deals >= deals
    assert tally.seen["double"], tally.seen


# --- stacked and steered deals for the rare paths -----------------------------------------------------------

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
        stacked = layout(hands, ref_four_card.DECK, rng, cut=rng.randrange(4, 16))
        tally.add(
            compare_game(
                "four_card", {}, seed, stacked=[stacked], dealer=dealer, policy=favour({"molodka"}, 0.5), max_deals=3
            )
        )
    assert tally.seen["molodka_replaced"], tally.seen
    assert tally.seen["molodka_after_answers"] + tally.seen["molodka_after_lead"] + tally.seen["molodka_lead"], (
        tally.seen
    )


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
        deck = ref_classic.deck(36)
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


def eggs(state: GameState) -> float:
    return 1.0 if state.deals[-1].eggs else 0.0


def test_F14_F15_eggs_in_a_row_match_reference() -> None:
    tally = compare_game("four_card", {}, 5, policy=Steer(eggs, tries=1000, deals=2))
    assert tally.seen["eggs"] >= 2, tally.seen


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
        stacked = [random_layout(ref_classic.deck(36), 9, 4, rng), " | ".join(ALL_TRICKS_HANDS)]
        steer = Steer(goal, tries=1000, deals=1, inner=no_redeal, then=no_redeal)
        tally.add(compare_game("classic", {"all_tricks": all_tricks}, seed, stacked=stacked, policy=steer, max_deals=3))
    assert tally.seen["all_tricks"] >= 3, tally.seen
    if before == "eggs" and all_tricks == "score":
        assert tally.seen["egg_bonus_2"] >= 3, tally.seen
    if before != "eggs" and all_tricks == "score":
        assert tally.seen["dropped_to_zero"] >= 3, tally.seen


@pytest.mark.parametrize("players", CZECH_PLAYERS)
def test_K6_K7_shoot_the_moon_after_a_double_matches_reference(players: int) -> None:
    symbols = CZECH_SYMBOLS
    hearts, leaves = symbols["červené"], symbols["zelené"]
    deck = [r + s for s in symbols.values() for r in ref_czech.RANKS_LOW_TO_HIGH]
    size = ref_czech.HAND_SIZE[players]
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


def test_reference_models_import_no_engine_rule_code() -> None:
    """The models stand alone: only the driver touches the engine, and only its public data API."""
    for module in (ref_four_card, ref_classic, ref_czech):
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        assert "from engine" not in source and "import engine" not in source, module.__name__
