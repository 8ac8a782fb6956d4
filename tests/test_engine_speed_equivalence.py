"""The engine's speed-ups change nothing a game can observe: pins taken from the engine before them (c74825d).

A game is its seed plus its actions, and users' stored games replay from them, so the same seed must deal the
same cards, and the same position must list the same legal actions in the same order (random play and the
computer players pick by index).  Each pin is the SHA-256 of seeded random play over several series: every
seat's legal actions at every step, the hands, the action taken, the view of the seat to move now and then,
every deal's record, each series' outcome and its JSON snapshot.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engine import find_variant
from engine.games.czech.rules import CzechOptions, CzechState
from engine.games.four_card.rules import FourCardState

CONFIGS: list[tuple[str, dict[str, Any], int, str]] = [
    ("four_card", {}, 1, "324e6fe52b0573dd408cb0f756d745652ad1bc3b6a5594ae8f6baf8b971dbc63"),
    ("four_card", {}, 2, "cd539e5960067409113e488fb9799948fd14b8e61b25764fff5b8584030ced74"),
    ("classic", {}, 1, "33e391406d492679ea409b96190d9c7e73480bbd26c21633dd4946448fc8c6e5"),
    ("classic", {"deck": 32, "redeal": False}, 2, "63f9d58d86f260dde9d1218fe09f6cc8bd89a17ede2935ee9b87712199b07e77"),
    (
        "classic",
        {"deck": 32, "all_tricks": "lose_series"},
        3,
        "cb20c8972ce3c59d17ebc38c903ddedd669705cb9c32124550fdf41066b99964",
    ),
    ("czech", {"players": 3}, 1, "b78ae828d7cbdedbc88c80d341269bb0550702b4be5fd21e87602a31e07bca88"),
    ("czech", {"players": 4}, 2, "690058af7f7fe2177b927a5be5a33af8166c817d2c6d65123da7463d898ddd30"),
    ("czech", {"players": 5}, 3, "f02e2b41e639360149c065cf7d6d3ef276a47a0603f16e3f1ea7d7ab0faaee75"),
    ("czech", {"players": 6}, 4, "1c675c2be0fa76c91d08f5f28b82ef0441c53bd6d9331fc5710444b6eb44d0cf"),
]
DEALS = 40


def play_digest(name: str, options: dict[str, Any], seed: int, deals: int) -> str:
    """Seeded random play over every seat's legal actions, ``deals`` deals in all, hashed."""
    variant = find_variant(name)
    opts = variant.options(options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    done = 0
    step = 0
    while done < deals:
        state = variant.new_game(rng.getrandbits(48), opts)
        while state.outcome is None and done + len(state.deals) < deals:
            legal = state.all_legal_actions()
            digest.update(" ".join(a.text() for a in legal).encode())
            digest.update(repr(state.hands).encode())
            if step % 7 == 0 and state.to_move is not None:
                digest.update(repr(state.view(state.to_move)).encode())
            action = rng.choice(legal)
            digest.update(action.encode().encode())
            state.apply(action)
            step += 1
        digest.update(repr(state.deals).encode())
        digest.update(repr(state.outcome).encode())
        digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        done += len(state.deals)
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "options", "seed", "expected"), CONFIGS)
def test_random_play_is_what_it_was(name: str, options: dict[str, Any], seed: int, expected: str) -> None:
    assert play_digest(name, options, seed, DEALS) == expected


def ascii_hands(hands: list[list[Any]]) -> list[str]:
    return [" ".join(c.ascii for c in hand) for hand in hands]


def test_the_same_seed_deals_the_same_cards() -> None:
    """Golden first deals of seed 42, readable (the four-card one is in tests/test_core.py)."""
    four = FourCardState.new(42)
    assert " ".join(c.ascii for c in four.stock) == ("AC 7C AS 8H 9S 8C AD TD KD JS 8D KC 9D 8S QS TC TS 7S 9C AH")
    classic = find_variant("classic").new_game(42)
    assert classic.dealer == 3
    assert ascii_hands(classic.hands) == [
        "9S TS KS AC 9D JD KD 9H QH",
        "7S 8S JS 7C 8C JC QD 6H KH",
        "6S QS AS 6C 9C QC 7D 8D AD",
        "TC KC 6D TD 7H 8H TH JH AH",
    ]
    short = find_variant("classic").new_game(42, {"deck": 32})
    assert ascii_hands(short.hands) == [
        "9S TS 7C AC 9D JD 8H QH",
        "7S KS 9C TC QC KC 7D 7H",
        "8S JS 8C QD AD 9H TH AH",
        "QS AS JC 8D TD KD JH KH",
    ]
    czech = CzechState.new(42, CzechOptions(players=5))
    assert czech.dealer == 3
    assert ascii_hands(czech.hands) == [
        "TS 8C KC 7D 8D QD",
        "8S AS TC 9D TD 9H",
        "9S 9C AC KD TH JH",
        "7S JS QS 7C QC 8H",
        "KS JD 7H QH KH AH",
    ]
    assert " ".join(c.ascii for c in czech.talon) == "AD JC"


@pytest.mark.parametrize(("name", "options"), [("four_card", {}), ("classic", {}), ("czech", {"players": 5})])
def test_a_fork_is_equal_independent_and_plays_on_alike(name: str, options: dict[str, Any]) -> None:
    state = find_variant(name).new_game(11, options)
    rng = random.Random(3)
    for _ in range(25):
        state.apply(rng.choice(state.all_legal_actions()))
    twin = state.fork()
    assert twin == state and twin.to_dict() == state.to_dict()
    before = state.to_dict()
    for hand in twin.hands:
        hand.clear()
    twin.history.append(twin.history[0])
    twin.trick.clear()
    twin.tricks_done.clear()
    twin.totals[0] += 1
    assert state.to_dict() == before  # nothing of the original was shared
    twin = state.fork()
    for _ in range(40):
        if state.outcome is not None:
            break
        legal = state.all_legal_actions()
        assert twin.all_legal_actions() == legal
        action = rng.choice(legal)
        state.apply(action)
        twin.apply(action)
    assert twin == state
