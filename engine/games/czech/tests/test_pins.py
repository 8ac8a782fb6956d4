"""Czech Kozel plays as it did: pins of seeded random play and golden first deals, so that a speed-up or a
refactoring of its engine changes nothing a stored game could observe (``tests.helpers.play_digest``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.czech.rules import CzechOptions, CzechState
from tests.helpers import DIGEST_DEALS, ascii_hands, play_digest

PINS: list[tuple[dict[str, Any], int, str]] = [  # (options, seed, SHA-256 of the play)
    ({"players": 3}, 1, "b78ae828d7cbdedbc88c80d341269bb0550702b4be5fd21e87602a31e07bca88"),
    ({"players": 4}, 2, "690058af7f7fe2177b927a5be5a33af8166c817d2c6d65123da7463d898ddd30"),
    ({"players": 5}, 3, "f02e2b41e639360149c065cf7d6d3ef276a47a0603f16e3f1ea7d7ab0faaee75"),
    ({"players": 6}, 4, "1c675c2be0fa76c91d08f5f28b82ef0441c53bd6d9331fc5710444b6eb44d0cf"),
]


@pytest.mark.parametrize(("options", "seed", "expected"), PINS)
def test_random_play_is_what_it_was(options: dict[str, Any], seed: int, expected: str) -> None:
    assert play_digest("czech", options, seed, DIGEST_DEALS) == expected


def test_the_same_seed_deals_the_same_cards() -> None:
    """The first deal of seed 42, readable."""
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
