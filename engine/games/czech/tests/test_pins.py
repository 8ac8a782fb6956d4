"""Czech Kozel plays as it did: pins of seeded random play and golden first deals, so that a speed-up or a
refactoring of its engine changes nothing a stored game could observe (``tests.helpers.play_digest``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.czech.rules import CzechOptions, CzechState
from tests.helpers import DIGEST_DEALS, ascii_hands, play_digest

PINS: list[tuple[dict[str, Any], int, str]] = [  # (options, seed, SHA-256 of the play)
    ({"players": 3}, 1, "071e740ea1aea25a973b30c4ecc6c5d6aa5d20e9aadeb55a0b853dd439977ae5"),
    ({"players": 4}, 2, "5b365ba458eb7d0be0b18c1625a2a4b8e62e1758a5a57e68172f98913e04bbd0"),
    ({"players": 5}, 3, "40bbd024bad628b9412bfd4a42053b11788da258556bc348fcda72648511bd21"),
    ({"players": 6}, 4, "bf054346acf81a9b1c17ebf3039f5783e6536352b85c19a7431aac4369c6bc74"),
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
