"""Classic Kozel plays as it did: pins of seeded random play and golden first deals, so that a speed-up or a
refactoring of its engine changes nothing a stored game could observe (``tests.helpers.play_digest``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import find_variant
from tests.helpers import DIGEST_DEALS, ascii_hands, play_digest

PINS: list[tuple[dict[str, Any], int, str]] = [  # (options, seed, SHA-256 of the play)
    ({}, 1, "45645e4c66c90e676f27a5256634afec3c9187a88a1a481708494bf0c986aa60"),
    ({"deck": 32, "redeal": False}, 2, "a7d1adcc2d9bce18c0456442ac3daa98f85acb8dcdc53f5b33edb98bff73af17"),
    ({"deck": 32, "all_tricks": "lose_series"}, 3, "5976e851dbf2be1b8e9f97ef580a9d885321cd52ccc95bde3072460d03573443"),
]


@pytest.mark.parametrize(("options", "seed", "expected"), PINS)
def test_random_play_is_what_it_was(options: dict[str, Any], seed: int, expected: str) -> None:
    assert play_digest("classic", options, seed, DIGEST_DEALS) == expected


def test_the_same_seed_deals_the_same_cards() -> None:
    """The first deal of seed 42, readable."""
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
